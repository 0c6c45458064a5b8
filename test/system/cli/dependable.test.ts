// Issue 18 (items 1–4, 10): no false "done", no dead end, every error says why — through the real
// `kite` (src/harness/cli.ts under tsx), real git and the real sandbox.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';
import { loadProgress } from '../../../src/harness/progress/progressFile';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';
import type { Host } from '../../../src/harness/host';
import { say as sayReply, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { runFeature } from '../../../src/harness/run';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'harness', 'cli.ts');
const TSX = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

const say = (text: string) => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } });
const write = (id: string, path: string, content: string) => ({
  content: [{ type: 'tool_use', id, name: 'write_file', input: { path, content } }],
  stop_reason: 'tool_use',
  usage: { input_tokens: 10, output_tokens: 2 },
});

function script(replies: unknown[]): string {
  const f = join(tempDir(), 'script.json');
  writeFileSync(f, JSON.stringify(replies));
  return f;
}

function project(feature: Record<string, unknown>, config: Record<string, unknown>): string {
  return tempRepo({
    'src/fee.js': 'module.exports = () => 2;\n',
    'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Fee is three', status: 'todo', verify: null, notes: '', ...feature }] }, null, 2) + '\n',
    '.kite/config.json': JSON.stringify(config),
  });
}

function kite(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lastLog(repo: string): KiteEvent[] {
  const runs = join(repo, '.kite', 'runs');
  const name = readdirSync(runs).filter((f) => f.endsWith('.jsonl')).sort().at(-1);
  assert.ok(name, 'a log was written');
  return readFileSync(join(runs, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => EventSchema.parse(JSON.parse(l)));
}

describe('kite CLI: dependable endings (issue 18)', function () {
  this.timeout(120_000);

  it('no gate command at all: the run ends unverified, exits 1, commits nothing and leaves the feature for a person', () => {
    const repo = project({}, { checks: [] });
    const head = git(repo, 'rev-parse', 'HEAD');
    const r = kite(['run', '--unattended', '--model', `script:${script([write('w1', 'src/fee.js', 'module.exports = () => 3;\n'), say('Done.')])}`], repo);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^kite: F1 ended unverified: nothing verified this work: .*Add a check \(e\.g\. "checks": \["npm test"\]/m);
    assert.match(r.stdout, /gate UNVERIFIED {2}no check to run/);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head, 'nothing was committed');
    assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'unverified');
    assert.equal(readFileSync(join(repo, 'src', 'fee.js'), 'utf8'), 'module.exports = () => 3;\n', 'the work stays in the tree for review');
    assert.equal(lastLog(repo).at(-1)?.kind === 'session_end' && (lastLog(repo).at(-1) as { status: string }).status, 'unverified');
  });

  it('"verify": "none" unattended: nobody can confirm, so the run ends unverified, never done', () => {
    const repo = project({ verify: 'none' }, { checks: [] });
    const r = kite(['run', '--unattended', '--model', `script:${script([write('w1', 'src/fee.js', 'module.exports = () => 3;\n'), say('Done.')])}`], repo);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^kite: F1 ended unverified: feature F1 says "verify": "none" .*nobody confirmed/m);
    assert.equal(git(repo, 'rev-list', '--count', 'HEAD'), '1');
  });

  it('"verify": "none" attended: done only when the person confirms (then committed); a "no" ends unverified', async () => {
    const asked: string[] = [];
    const person = (answer: boolean): Host => ({
      approve: () => Promise.resolve({ decision: 'approve' }),
      confirmDoneWithoutCheck: (q) => (asked.push(q.feature), Promise.resolve(answer)),
    });
    const model = () => new ScriptedModel([use('write_file', 'w1', { path: 'src/fee.js', content: 'module.exports = () => 3;\n' }), sayReply('Done.')]);
    const yes = project({ verify: 'none' }, { checks: [] });
    const s = await runFeature({ root: yes, mode: 'attended', model: '', modelOverride: model() }, person(true));
    assert.equal(s.outcome, 'done');
    assert.deepEqual(asked, ['F1']);
    assert.equal(git(yes, 'log', '-1', '--format=%s'), 'F1: Fee is three');
    const no = project({ verify: 'none' }, { checks: [] });
    const n = await runFeature({ root: no, mode: 'attended', model: '', modelOverride: model() }, person(false));
    assert.equal(n.outcome, 'unverified');
    assert.equal(git(no, 'rev-list', '--count', 'HEAD'), '1');
    const gate = lastLog(yes).find((e) => e.kind === 'gate');
    assert.ok(gate?.kind === 'gate' && gate.confirmed_by_person === true, 'the log records who decided');
  });

  it('a run that changed no file is not done: the gate tells the model, and the run ends gate_failed saying so', () => {
    const repo = project({ verify: 'node -e "process.exit(0)"' }, { checks: [], max_gate_failures: 2 });
    const r = kite(['run', '--unattended', '--model', `script:${script([say('Done, nothing to change.'), say('Really done.')])}`], repo);
    assert.equal(r.code, 1);
    const gates = lastLog(repo).filter((e) => e.kind === 'gate');
    assert.deepEqual(gates.map((g) => g.kind === 'gate' && [g.passed, g.no_change]), [[false, true], [false, true]]);
    const told = lastLog(repo).find((e) => e.kind === 'user' && e.reason === 'gate_feedback');
    assert.ok(told?.kind === 'user' && /has not changed any file/.test(told.text));
    assert.match(r.stderr, /^kite: F1 ended gate_failed: the run had changed no file at gate attempt 2 of 2/m);
    assert.match(r.stdout, /gate FAILED \(1 of 2\) {2}the run changed no file/);
  });

  it('a feature that says "expects_no_change": true can end done without a change (its check passes)', () => {
    const repo = project({ verify: 'node -e "process.exit(0)"', expects_no_change: true }, { checks: [] });
    const r = kite(['run', '--unattended', '--model', `script:${script([say('Confirmed: it already works.')])}`], repo);
    assert.equal(r.code, 0, r.stderr);
  });

  it('after a done run git status is clean: the progress entry is in the feature commit', () => {
    const repo = project({ verify: 'node -e "process.exit(require(\'./src/fee.js\')() === 3 ? 0 : 1)"' }, { checks: [] });
    const r = kite(['run', '--unattended', '--model', `script:${script([write('w1', 'src/fee.js', 'module.exports = () => 3;\n'), say('Done.')])}`], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(git(repo, 'status', '--porcelain'), '');
    assert.deepEqual(git(repo, 'show', '--name-only', '--pretty=format:', 'HEAD').split('\n').sort(), ['kite-progress.json', 'src/fee.js']);
    const end = lastLog(repo).at(-1);
    assert.ok(end?.kind === 'session_end' && end.commit === git(repo, 'rev-parse', 'HEAD'), 'the sha is kept in the log');
  });

  it('a gate_failed run ends stderr with why (the failing check and its exit code) and the next step as commands', () => {
    const repo = project({ verify: 'node -e "process.exit(3)"' }, { checks: [], max_gate_failures: 1 });
    const r = kite(['run', '--unattended', '--model', `script:${script([write('w1', 'src/fee.js', 'module.exports = () => 3;\n'), say('Done.')])}`], repo);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^kite: F1 ended gate_failed: `node -e "process\.exit\(3\)"` \(the feature's verify command\) exited with code 3 at gate attempt 1 of 1\.$/m);
    assert.match(r.stderr, /gate attempt 1 of 1\.\nNext: kite diagnose \S+ explains it; kite run --feature F1 retries it; kite reset F1 puts it back to todo\.\n?$/);
  });

  it('a budget stop says which limit on stderr, then how to retry with a larger one', () => {
    const repo = project({ verify: 'true' }, { checks: [] });
    const r = kite(['run', '--unattended', '--max-turns', '1', '--model', `script:${script([write('w1', 'src/fee.js', 'x\n'), say('Done.')])}`], repo);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^kite: F1 ended budget_exceeded: turn budget reached: 1 of 1 model turns used\.$/m);
    assert.match(r.stderr, /model turns used\.\nNext: .*kite run --feature F1 retries it with a larger limit \(--max-turns, --max-tokens, --max-usd\)/);
  });

  it('kite reset ID [DIR] puts a failed feature back to todo, keeps its notes and commits nothing', () => {
    const repo = project({ verify: 'false' }, { checks: [], max_gate_failures: 1 });
    assert.equal(kite(['run', '--unattended', '--model', `script:${script([write('w1', 'src/fee.js', 'y\n'), say('Done.')])}`], repo).code, 1);
    const before = loadProgress(join(repo, 'kite-progress.json')).features[0];
    assert.equal(before.status, 'gate_failed');
    const head = git(repo, 'rev-parse', 'HEAD');
    const elsewhere = tempDir();
    const r = kite(['reset', 'F1', repo], elsewhere);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /F1: gate_failed → todo \(notes kept, nothing committed\)/);
    const after = loadProgress(join(repo, 'kite-progress.json')).features[0];
    assert.equal(after.status, 'todo');
    assert.equal(after.notes, before.notes);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
    const unknown = kite(['reset', 'F9', repo], elsewhere);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no feature "F9" \(features: F1\)/);
  });

  it('kite run --replay LOG --unattended is accepted (a replay never asks)', () => {
    const repo = project({ verify: 'node -e "process.exit(0)"', expects_no_change: true }, { checks: [] });
    assert.equal(kite(['run', '--unattended', '--model', `script:${script([say('Done.')])}`], repo).code, 0);
    const log = readdirSync(join(repo, '.kite', 'runs')).find((f) => f.endsWith('.jsonl'));
    assert.ok(log);
    const r = kite(['run', '--replay', join('.kite', 'runs', log), '--unattended'], repo);
    assert.doesNotMatch(r.stderr, /unknown option/);
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });

  it('kite run | head -1: a closed stdout does not stop the run; it finishes and closes its log', async () => {
    const repo = project({ verify: 'node -e "process.exit(0)"' }, { checks: [] });
    const s = script([write('w1', 'src/fee.js', 'module.exports = () => 3;\n'), say('Done.')]);
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'run', '--unattended', '--model', `script:${s}`], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Like `head -1`: read the first line, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
    assert.equal(code, 0, stderr);
    assert.equal(lastLog(repo).at(-1)?.kind, 'session_end');
    assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'done');
  });

  it('kite init proposes the project test command it detects (make test) and says so', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'Makefile'), 'test:\n\tnode --test\n');
    const r = kite(['init', dir], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(readFileSync(join(dir, '.kite', 'config.json'), 'utf8')) as { checks: string[] }).checks, ['make test']);
    assert.match(r.stdout, /Proposed check: `make test` \(found in the test target of Makefile\)/);
    const none = tempDir();
    assert.match(kite(['init', none], none).stdout, /No test command found .* ends unverified, never done/);
  });
});
