// Hostile suite, tools (issue 13 items 6, 8, 10, 11, 12, 14b): planted repository contents and a
// scripted agent turn Kite's own file tools against the user. Each test performs one attack through
// the real loop and asserts the harm did not happen and the run still ended cleanly.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KiteConfigFile } from '../../../src/harness/config/config';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../../../src/harness/host';
import { createToolbox } from '../../../src/harness/tools';
import { resolveInWorkspace } from '../../../src/harness/tools/paths';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';
import { makeWorkspace } from '../../unit/tools/_workspace';
import { attack } from './toolKit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'harness', 'cli.ts');
// The run's cwd is a temp repo, so tsx must be named by its absolute location.
const TSX = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

/** The racing process: swaps argv[1] between a regular file and a symlink to argv[2], forever. */
const SWAPPER = `
const fs = require('fs');
const [target, outside] = process.argv.slice(1);
for (let i = 0; ; i++) {
  try {
    fs.symlinkSync(outside, target + '.l' + i);
    fs.renameSync(target + '.l' + i, target);
    fs.writeFileSync(target + '.f' + i, 'inside');
    fs.renameSync(target + '.f' + i, target);
  } catch {}
}`;

/** A host that approves every call, first doing `before` (the racing process). */
class RacingHost implements Host {
  constructor(
    private readonly before: (req: ApprovalRequest) => void,
    private readonly answer: (req: ApprovalRequest) => ApprovalAnswer = () => ({ decision: 'approve' }),
  ) {}
  approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.before(req);
    return Promise.resolve(this.answer(req));
  }
}

const outsideOf = (root: string): string => join(root, '..', 'outside.txt');

describe('hostile: tools', function () {
  this.timeout(60_000);

  it('search does not return the contents of .npmrc, .env.production, id_rsa, .git/config or a symlink envlink -> .env (item 8)', async () => {
    const root = tempRepo({
      'src/app.js': 'const token = process.env.TOKEN; // SECRET-8 is not here\n',
      '.npmrc': '//registry.npmjs.org/:_authToken=npm_SECRET-8-npmrc\n',
      '.env.production': 'API_KEY=SECRET-8-envprod\n',
      '.env': 'DB_PASSWORD=SECRET-8-dotenv\n',
      'deploy/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-8-idrsa\n',
    });
    git(root, 'config', 'remote.origin.url', 'https://user:SECRET-8-gitcred@example.invalid/r.git');
    fs.symlinkSync('.env', join(root, 'envlink'));
    fs.symlinkSync('.git/config', join(root, 'gitcfg'));
    const run = await attack(root, [
      ['search', { pattern: 'SECRET-8' }],
      ['search', { pattern: 'SECRET-8', path: '.git' }],
      ['search', { pattern: 'SECRET-8', path: 'envlink' }],
      ['read_file', { path: '.git/config' }],
      ['read_file', { path: 'gitcfg' }],
      ['read_file', { path: 'envlink' }],
      ['list_files', { recursive: true }],
    ]);
    assert.doesNotMatch(run.seen, /SECRET-8-/, 'no secret value reached the model');
    assert.equal(run.results[0].output.split('\n')[0], 'src/app.js:1: const token = process.env.TOKEN; // SECRET-8 is not here');
    assert.match(run.results[0].output, /files that usually hold secrets were not searched \(.*\.env.*\.npmrc.*deploy\/id_rsa.*envlink/);
    for (const i of [1, 3, 4]) assert.match(run.results[i].output, /inside a \.git directory.*never read/);
    assert.match(run.results[2].output, /unattended/); // the policy saw .env behind the link
    assert.match(run.results[5].output, /unattended/);
    // list_files lists names (never contents) and never .git/.
    assert.match(run.results[6].output, /^\.env$/m);
    assert.doesNotMatch(run.results[6].output, /^\.git\//m);
    assert.equal(run.r.outcome, 'done');
  });

  it("read_file, search and list_files of a past run's log do not return the secret it holds (item 6)", async () => {
    const root = tempRepo({ 'src/a.js': 'x\n', '.kite/runs/old.jsonl': '{"kind":"tool","output":"LOGGED-SECRET-6"}\n' });
    fs.symlinkSync('.kite/runs/old.jsonl', join(root, 'oldlog'));
    const run = await attack(root, [
      ['read_file', { path: '.kite/runs/old.jsonl' }],
      ['read_file', { path: 'oldlog' }],
      ['search', { pattern: 'LOGGED-SECRET' }],
      ['search', { pattern: 'LOGGED-SECRET', path: '.kite' }],
      ['list_files', { path: '.kite/runs' }],
      ['list_files', { recursive: true }],
    ]);
    assert.doesNotMatch(run.seen, /LOGGED-SECRET-6/);
    assert.doesNotMatch(run.results[5].output, /^\.kite\/runs/m, 'the listing does not enter the log folder');
    for (const i of [0, 1, 4]) {
      assert.equal(run.results[i].is_error, true);
      assert.match(run.results[i].output, /Kite's log folder .*never read/);
    }
    assert.equal(run.r.outcome, 'done');
  });

  it('a hard link to a file outside the workspace is neither read nor written through (item 10)', async () => {
    const root = tempRepo({ 'src/a.js': 'x\n' });
    const outside = outsideOf(root);
    fs.writeFileSync(outside, 'OUTSIDE-SECRET-10\n');
    fs.linkSync(outside, join(root, 'linked.txt'));
    const run = await attack(root, [
      ['read_file', { path: 'linked.txt' }],
      ['search', { pattern: 'OUTSIDE-SECRET' }],
      ['write_file', { path: 'linked.txt', content: 'pwned\n' }],
      ['edit_file', { path: 'linked.txt', old_string: 'OUTSIDE', new_string: 'pwned' }],
    ]);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'OUTSIDE-SECRET-10\n', 'the outside file is unchanged');
    assert.doesNotMatch(run.seen, /OUTSIDE-SECRET-10/);
    // Unattended, nobody can approve the read: refused by the policy with the confinement rule.
    assert.equal(run.results[0].is_error, true);
    assert.match(run.results[0].output, /rule confine:hardlink.*unattended.*"linked\.txt" has 2 hard links/);
    for (const i of [2, 3]) {
      assert.equal(run.results[i].is_error, true);
      assert.match(run.results[i].output, /2 hard links.*rule confine:hardlink/);
    }
    assert.match(run.results[1].output, /with more than one hard link was not searched \(linked\.txt/);
    assert.equal(run.r.outcome, 'done');
  });

  it('attended, reading a hard-linked file asks the person first (rule confine:hardlink): a no keeps it unread, a yes reads it (item 10)', async () => {
    for (const decision of ['deny', 'approve'] as const) {
      const root = tempRepo({ 'src/a.js': 'x\n' });
      const outside = outsideOf(root);
      fs.writeFileSync(outside, 'LINKED-CONTENT-10\n');
      fs.linkSync(outside, join(root, 'linked.txt'));
      const asked: ApprovalRequest[] = [];
      const host = new RacingHost(
        (req) => asked.push(req),
        () => (decision === 'deny' ? { decision: 'deny', reason: 'not that one' } : { decision: 'approve' }),
      );
      const run = await attack(root, [['read_file', { path: 'linked.txt' }]], { mode: 'attended', host });
      assert.equal(asked.length, 1, `${decision}: the person was asked once`);
      assert.equal(asked[0].kind, 'read');
      assert.match(asked[0].kind === 'read' ? asked[0].reason : '', /2 hard links.*outside the workspace/);
      assert.equal(run.sink.of('policy')[0].rule, 'confine:hardlink');
      if (decision === 'deny') {
        assert.equal(run.results[0].is_error, true);
        assert.doesNotMatch(run.seen, /LINKED-CONTENT-10/);
      } else {
        assert.equal(run.results[0].is_error, false);
        assert.match(run.results[0].output, /LINKED-CONTENT-10/);
      }
      assert.equal(fs.readFileSync(outside, 'utf8'), 'LINKED-CONTENT-10\n', 'the file is unchanged either way');
      assert.equal(run.r.outcome, 'done');
    }
  });

  it('a planted workspace rule named confine:hardlink cannot turn an ordinary read question into one for a hard-linked file (item 10)', async () => {
    const root = tempRepo({ 'src/a.js': 'x\n' });
    const outside = outsideOf(root);
    fs.writeFileSync(outside, 'LINKED-CONTENT-10b\n');
    fs.linkSync(outside, join(root, 'linked.txt'));
    const asked: ApprovalRequest[] = [];
    const host = new RacingHost((req) => asked.push(req));
    const config = { checks: ['npm test'], policy: { rules: [{ id: 'confine:hardlink', tool: 'read_file', decision: 'ask', reason: 'A routine read.' }] } } as KiteConfigFile;
    const run = await attack(root, [['read_file', { path: 'linked.txt' }]], { mode: 'attended', host, config });
    assert.equal(asked.length, 1);
    assert.match(asked[0].kind === 'read' ? asked[0].reason : '', /"linked\.txt" has 2 hard links; another of its names may be a file outside the workspace/, 'the person is told it is hard-linked');
    assert.equal(fs.readFileSync(outside, 'utf8'), 'LINKED-CONTENT-10b\n');
    assert.equal(run.r.outcome, 'done');
  });

  it('edit_file and write_file on a Latin-1 file are refused and it stays byte-identical (item 12)', async () => {
    const root = tempRepo({ 'src/a.js': 'x\n' });
    const bytes = Buffer.from('caf\xe9 na\xefve r\xe9sum\xe9\n', 'latin1');
    fs.writeFileSync(join(root, 'latin1.txt'), bytes);
    const run = await attack(root, [
      ['edit_file', { path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' }],
      ['write_file', { path: 'latin1.txt', content: 'café\n' }],
    ]);
    assert.deepEqual(fs.readFileSync(join(root, 'latin1.txt')), bytes);
    for (const r of run.results) {
      assert.equal(r.is_error, true);
      assert.match(r.output, /"latin1\.txt" is not valid UTF-8 .*never re-encode.*not modified/);
    }
    assert.equal(run.r.outcome, 'done');
  });

  describe('a racing process swaps the target between the check and the write (item 14b)', () => {
    it('swapped for a symlink to an outside file: nothing is written outside, the model gets an error', async () => {
      const root = tempRepo({ 'notes.txt': 'old\n' });
      const outside = outsideOf(root);
      fs.writeFileSync(outside, 'outside\n');
      const host = new RacingHost(() => {
        fs.rmSync(join(root, 'notes.txt'));
        fs.symlinkSync(outside, join(root, 'notes.txt'));
      });
      const run = await attack(root, [['write_file', { path: 'notes.txt', content: 'pwned\n' }]], { mode: 'attended', host });
      assert.equal(fs.readFileSync(outside, 'utf8'), 'outside\n');
      assert.equal(run.results[0].is_error, true);
      assert.match(run.results[0].output, /outside the workspace.*Nothing was written/);
      assert.equal(run.r.outcome, 'done');
    });

    it("swapped for a FIFO under the person's edited version: the write neither blocks nor ends the run", async () => {
      const root = tempRepo({ 'notes.txt': 'old\n' });
      const host = new RacingHost(
        () => {
          fs.rmSync(join(root, 'notes.txt'));
          execFileSync('mkfifo', [join(root, 'notes.txt')]);
        },
        () => ({ decision: 'edit', content: 'edited\n' }),
      );
      const run = await attack(root, [['write_file', { path: 'notes.txt', content: 'new\n' }]], { mode: 'attended', host });
      assert.equal(run.results[0].is_error, true);
      assert.match(run.results[0].output, /not a regular file.*Nothing was written/);
      assert.ok(fs.lstatSync(join(root, 'notes.txt')).isFIFO());
      assert.equal(run.r.outcome, 'done');
    });

    it("swapped folder (a symlink to an outside folder) under the person's edited version: nothing lands outside", async () => {
      const root = tempRepo({ 'sub/notes.txt': 'old\n' });
      const outDir = join(root, '..', 'outdir');
      fs.mkdirSync(outDir);
      const host = new RacingHost(
        () => {
          fs.rmSync(join(root, 'sub'), { recursive: true });
          fs.symlinkSync(outDir, join(root, 'sub'));
        },
        () => ({ decision: 'edit', content: 'edited\n' }),
      );
      const run = await attack(root, [['write_file', { path: 'sub/notes.txt', content: 'new\n' }]], { mode: 'attended', host });
      assert.deepEqual(fs.readdirSync(outDir), []);
      assert.equal(run.results[0].is_error, true);
      assert.match(run.results[0].output, /Nothing was written/);
      assert.equal(run.r.outcome, 'done');
    });
  });

  it('a process swapping the target for a symlink in a loop never gets a write outside, and no call throws (item 14b)', async () => {
    const ws = makeWorkspace();
    try {
      const outside = join(ws.outside, 'victim.txt');
      fs.writeFileSync(outside, 'victim\n');
      ws.write('notes.txt', 'old\n');
      const target = join(ws.root, 'notes.txt');
      const swapper = spawn(process.execPath, ['-e', SWAPPER, target, outside], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 100));
        const toolbox = createToolbox();
        const write = toolbox.validate('write_file', { path: 'notes.txt', content: 'pwned\n' });
        assert.ok(write.ok);
        const until = Date.now() + 3000;
        let calls = 0;
        while (Date.now() < until) {
          // What the loop does first (outside the toolbox's error handling), then the write.
          assert.doesNotThrow(() => resolveInWorkspace(ws.root, ws.ctx.logDir, 'notes.txt', { forWrite: true }));
          const out = await toolbox.run(write.tool, write.args, ws.ctx);
          assert.ok(!out.is_error || /Nothing was written|not modified/.test(out.output), out.output);
          calls++;
        }
        assert.ok(calls > 50, `only ${calls} writes`);
      } finally {
        swapper.kill('SIGKILL');
      }
      assert.equal(fs.readFileSync(outside, 'utf8'), 'victim\n');
    } finally {
      ws.cleanup();
    }
  });

  describe('special files and pathological patterns do not block Kite (item 11)', () => {
    it('a FIFO named .gitignore does not block list_files or search', async () => {
      const root = tempRepo({ 'src/a.js': 'needle\n', 'sub/b.js': 'needle\n' });
      execFileSync('mkfifo', [join(root, '.gitignore')]);
      execFileSync('mkfifo', [join(root, 'sub', '.gitignore')]);
      const run = await attack(root, [
        ['list_files', { recursive: true }],
        ['search', { pattern: 'needle' }],
      ]);
      assert.match(run.results[0].output, /^src\/a\.js$/m);
      assert.equal(run.results[1].output, 'src/a.js:1: needle\nsub/b.js:1: needle');
      assert.equal(run.r.outcome, 'done');
    });

    it('a catastrophic regex (a+)+$ on a long line returns at once; lookaround is refused with a clear error', async () => {
      const root = tempRepo({ 'long.txt': 'a'.repeat(100_000) + 'b\n' });
      const began = Date.now();
      const run = await attack(root, [
        ['search', { pattern: '(a+)+$' }],
        ['search', { pattern: '(?<=a)b' }],
        ['search', { pattern: '(a)\\1' }],
      ]);
      assert.ok(Date.now() - began < 5000, `took ${Date.now() - began} ms`);
      assert.match(run.results[0].output, /^No matches/);
      for (const i of [1, 2]) {
        assert.equal(run.results[i].is_error, true);
        assert.match(run.results[i].output, /linear-time search engine \(RE2\) does not support.*Nothing was searched/);
      }
      assert.equal(run.r.outcome, 'done');
    });

    it('a pathological glob in list_files and search returns at once', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 50; i++) files[`d/${'a'.repeat(200)}${i}.txt`] = 'x\n';
      const root = tempRepo(files);
      const glob = '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b';
      const began = Date.now();
      const run = await attack(root, [
        ['list_files', { glob }],
        ['search', { pattern: 'x', glob }],
      ]);
      assert.ok(Date.now() - began < 5000, `took ${Date.now() - began} ms`);
      assert.match(run.results[0].output, /No files matching/);
      assert.match(run.results[1].output, /^No matches/);
      assert.equal(run.r.outcome, 'done');
    });
  });

  it('a kite run whose search uses (a+)+$ on a long line goes on, and SIGTERM then ends it cancelled within a second (item 11)', async () => {
    const marks = tempDir();
    const token = `50.${process.pid}77`; // a sleep nobody else runs
    const repo = tempRepo({
      'long.txt': 'a'.repeat(200_000) + 'b\n',
      'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Slow', status: 'todo', verify: null, notes: '', expects_no_change: true }] }),
      '.kite/config.json': JSON.stringify({ checks: [`touch started.tmp && mv started.tmp started && exec sleep ${token}`] }),
    });
    const script = join(marks, 'script.json');
    const usage = { input_tokens: 10, output_tokens: 2 };
    fs.writeFileSync(
      script,
      JSON.stringify([
        { content: [{ type: 'tool_use', id: 'toolu_s', name: 'search', input: { pattern: '(a+)+$' } }], stop_reason: 'tool_use', usage },
        { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage },
      ]),
    );
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'run', '--model', `script:${script}`], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let exitedAt = 0;
    const exited = new Promise<number | null>((r) =>
      child.on('exit', (c) => {
        exitedAt = Date.now();
        r(c);
      }),
    );
    // The search is over (the gate's check started) long before a backtracking engine would be.
    const until = Date.now() + 30_000;
    while (!fs.existsSync(join(repo, 'started'))) {
      assert.equal(exitedAt, 0, `kite exited early: ${stderr}`);
      assert.ok(Date.now() < until, 'the run never got past the search');
      await new Promise((r) => setTimeout(r, 25));
    }
    const sent = Date.now();
    child.kill('SIGTERM');
    assert.equal(await exited, 1);
    assert.ok(exitedAt - sent < 1500, `took ${exitedAt - sent} ms after SIGTERM`);
    const runs = join(repo, '.kite', 'runs');
    const log = fs.readdirSync(runs).find((f) => f.endsWith('.jsonl'));
    assert.ok(log);
    const events = fs.readFileSync(join(runs, log), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; name?: string; output?: string; status?: string });
    const search = events.find((e) => e.kind === 'tool' && e.name === 'search');
    assert.match(search?.output ?? '', /^No matches/);
    const end = events.at(-1);
    assert.equal(end?.kind, 'session_end');
    assert.equal(end?.status, 'cancelled');
  });
});
