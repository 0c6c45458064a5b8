// Issue 13, items 3 and 20: the commit holds only the run's work. A file no write or command of the
// run recorded (a check planted or rewrote it, the person edited it during the run) stays out and
// is named; with --allow-dirty the person's staged hunks stay staged. Real runs in-process
// (runFeature, scripted model, real git, the real sandbox for the gate).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Host } from '../../../src/harness/host';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, git, tempRepo } from '../../unit/loop/kit';

function project(checks: string[], extra: Record<string, string> = {}): string {
  const progress = { goal: 'g', log: [], features: [{ id: 'F1', title: 'Fee is three', status: 'todo', verify: null }] };
  return tempRepo({ 'src/fee.js': 'module.exports = () => 2;\n', 'kite-progress.json': JSON.stringify(progress, null, 2) + '\n', '.kite/config.json': JSON.stringify({ checks }), ...extra });
}

const fix = [use('write_file', 'w1', { path: 'src/fee.js', content: 'module.exports = () => 3;\n' }), say('Done.')];

async function run(root: string, opts: { allowDirty?: boolean; watch?: (e: KiteEvent) => void; script?: typeof fix; host?: Host } = {}) {
  const model = new ScriptedModel(opts.script ?? fix);
  const s = await runFeature({ root, mode: 'unattended', model: '', modelOverride: model, allowDirty: opts.allowDirty, watch: opts.watch ? (e) => opts.watch?.(e) : undefined }, opts.host ?? new CannedHost([]));
  const events = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; code?: string; message?: string; summary?: string; path?: string });
  const files = s.commit ? git(root, 'show', '--name-only', '--pretty=format:', s.commit).split('\n').filter(Boolean) : [];
  return { s, events, files, end: events.find((e) => e.kind === 'session_end') };
}

describe('hostile: commits hold only the run’s work (issue 13, items 3 and 20)', function () {
  this.timeout(120_000);

  it('a file a check planted (no write or command of the run records it) is left out of the commit and named', async () => {
    const root = project(['echo planted > planted.js']);
    const { s, files, end } = await run(root);
    assert.equal(s.outcome, 'done');
    assert.deepEqual(files.sort(), ['kite-progress.json', 'src/fee.js']);
    assert.match(end?.summary ?? '', /Left out of the commit \(not recorded as this run's work\): planted\.js \(no write or command of the run recorded it\)/);
    assert.match(git(root, 'status', '--porcelain'), /\?\? planted\.js/); // still there for the person to look at
  });

  it('a file the run wrote and a check then rewrote is left out of the commit (its content is not the recorded write)', async () => {
    const root = project(["echo 'module.exports = () => 99;' > src/fee.js"]);
    const { s, files, end } = await run(root);
    assert.equal(s.outcome, 'done');
    assert.ok(!files.includes('src/fee.js'));
    assert.match(end?.summary ?? '', /src\/fee\.js \(changed after the run wrote it\)/);
  });

  it("--allow-dirty: the person's staged hunk stays staged, and is not committed", async () => {
    const root = project(['test -f src/fee.js'], { 'notes.txt': 'one\n' }); // a real check: a run without one ends unverified (issue 18)
    writeFileSync(join(root, 'notes.txt'), 'one\ntwo (staged by the person)\n');
    git(root, 'add', 'notes.txt');
    writeFileSync(join(root, 'notes.txt'), 'one\ntwo (staged by the person)\nthree (not staged)\n');
    const stagedBefore = git(root, 'diff', '--cached', '--', 'notes.txt');
    const { s, files } = await run(root, { allowDirty: true });
    assert.equal(s.outcome, 'done');
    assert.ok(files.includes('src/fee.js'));
    assert.ok(!files.includes('notes.txt'));
    assert.equal(git(root, 'diff', '--cached', '--', 'notes.txt'), stagedBefore);
    assert.equal(git(root, 'diff', '--cached', '--name-only'), 'notes.txt'); // the committed file is clean in the index
    assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'one\ntwo (staged by the person)\nthree (not staged)\n');
  });

  it('--allow-dirty: a file the person created during the run is left out of the commit and named', async () => {
    const root = project(['test -f src/fee.js'], { 'notes.txt': 'one\n' }); // a real check: a run without one ends unverified (issue 18)
    writeFileSync(join(root, 'notes.txt'), 'dirty before the run\n');
    const { s, files, end } = await run(root, {
      allowDirty: true,
      watch: (e) => {
        if (e.kind === 'tool') writeFileSync(join(root, 'person.txt'), 'typed in the editor during the run\n');
      },
    });
    assert.equal(s.outcome, 'done');
    assert.ok(files.includes('src/fee.js'));
    assert.ok(!files.includes('person.txt'));
    assert.ok(!files.includes('notes.txt'));
    assert.match(end?.summary ?? '', /person\.txt \(no write or command of the run recorded it\)/);
  });

  /** VS Code's part (src/extension/personEdits.ts): the editor reports the files the person saves. */
  class EditorHost extends CannedHost {
    private readonly listeners = new Set<(paths: readonly string[]) => void>();
    onPersonEdit(l: (paths: readonly string[]) => void): () => void {
      this.listeners.add(l);
      return () => this.listeners.delete(l);
    }
    saved(...paths: string[]): void {
      for (const l of this.listeners) l(paths);
    }
  }
  // The run writes, then runs a command (the gate's own check, allowed unattended). A command could
  // have made any file, so without the editor's report a file the person saved would count as the run's.
  const writeThenCommand = [use('write_file', 'w1', { path: 'src/fee.js', content: 'module.exports = () => 3;\n' }), use('run', 'c1', { command: 'test -f src/fee.js' }), say('Done.')];

  it('a file the person saved in the editor during the run stays out of the commit although a command of the run ran after it', async () => {
    const root = project(['test -f src/fee.js']);
    const host = new EditorHost();
    const { s, files, end, events } = await run(root, {
      script: writeThenCommand,
      host,
      watch: (e) => {
        if (e.kind !== 'tool' || e.id !== 'w1') return;
        writeFileSync(join(root, 'person.txt'), 'typed in the editor during the run\n');
        host.saved(join(root, 'person.txt'));
      },
    });
    assert.equal(s.outcome, 'done');
    assert.deepEqual(files.sort(), ['kite-progress.json', 'src/fee.js']);
    assert.match(end?.summary ?? '', /person\.txt \(you saved it in the editor during the run\)/);
    assert.deepEqual(events.filter((e) => e.kind === 'person_edit').map((e) => e.path), ['person.txt']);
    assert.match(git(root, 'status', '--porcelain'), /\?\? person\.txt/); // the person's work is still there, uncommitted
  });

  it('a file the run wrote and the person then changed and saved stays out of the commit (a later command does not make it the run’s)', async () => {
    const root = project(['test -f src/fee.js']);
    const host = new EditorHost();
    const { s, files, end } = await run(root, {
      script: writeThenCommand,
      host,
      watch: (e) => {
        if (e.kind !== 'tool' || e.id !== 'w1') return;
        writeFileSync(join(root, 'src/fee.js'), 'module.exports = () => 3; // the person’s comment\n');
        host.saved(join(root, 'src/fee.js'));
      },
    });
    assert.equal(s.outcome, 'done');
    assert.ok(!files.includes('src/fee.js'), `committed ${files.join(', ')}`);
    assert.match(end?.summary ?? '', /src\/fee\.js \(you saved it in the editor during the run\)/);
    assert.equal(readFileSync(join(root, 'src/fee.js'), 'utf8'), 'module.exports = () => 3; // the person’s comment\n');
  });

  it('the person re-saving a file exactly as the run wrote it leaves the run’s write in the commit', async () => {
    const root = project(['test -f src/fee.js']);
    const host = new EditorHost();
    const { s, files } = await run(root, {
      script: writeThenCommand,
      host,
      watch: (e) => {
        if (e.kind === 'tool' && e.id === 'w1') host.saved(join(root, 'src/fee.js')); // Ctrl+S on the run's content, unchanged
      },
    });
    assert.equal(s.outcome, 'done');
    assert.ok(files.includes('src/fee.js'));
  });

  it('saves outside the workspace or in the log folder are not recorded', async () => {
    const root = project(['test -f src/fee.js']);
    const outside = mkdtempSync(join(tmpdir(), 'kite-outside-'));
    const host = new EditorHost();
    const { s, events } = await run(root, {
      host,
      watch: (e) => {
        if (e.kind !== 'tool') return;
        host.saved(join(outside, 'x.txt'), join(root, '.kite', 'runs', 'fake.jsonl'), join(root, '..', 'sibling.txt'), 'relative.txt', join(root, '.git', 'config'));
      },
    });
    assert.equal(s.outcome, 'done');
    assert.deepEqual(events.filter((e) => e.kind === 'person_edit'), []);
  });
});
