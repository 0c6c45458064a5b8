// End to end: the built CLI (dist/cli.js) on a temporary git copy of the bundled sample project,
// with the scripted demo model. What `npm run demo` shows, asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';
import { DEMO_SCRIPT, git, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

describe('kite run end to end (dist/cli.js, scripted demo, real git)', function () {
  this.timeout(120_000);
  let repo: string;
  let head: string;
  let result: ReturnType<typeof spawnSync>;
  let events: KiteEvent[];

  before(async () => {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `build failed: ${build.stderr}`);
    repo = tempRepo();
    head = git(repo, 'rev-parse', 'HEAD');
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-api03-e2e-secret-never-logged-0000' };
    result = spawnSync(process.execPath, [CLI, 'run', '--unattended', '--model', `script:${DEMO_SCRIPT}`], { cwd: repo, encoding: 'utf8', env });
    const runs = join(repo, '.kite', 'runs');
    const logs = readdirSync(runs).filter((f) => f.endsWith('.jsonl'));
    assert.equal(logs.length, 1);
    const text = readFileSync(join(runs, logs[0]), 'utf8');
    assert.doesNotMatch(text, /e2e-secret-never-logged/);
    for (const l of text.split('\n').filter(Boolean)) EventSchema.parse(JSON.parse(l)); // every line valid as written
    const read = await readLog(join(runs, logs[0])); // and with each call's args resolved from its model event
    assert.deepEqual(read.problems, []);
    events = read.events;
  });

  it('exits 0 with outcome done and prints the timeline and one summary line', () => {
    assert.equal(result.status, 0, `stderr: ${String(result.stderr)}`);
    const out = String(result.stdout);
    assert.match(out, /gate FAILED/);
    assert.match(out, /gate PASSED/);
    assert.match(out, /DENY\s+run git push origin main\s+\[deny:git-push\]/);
    assert.match(out, /^F1: done in 7 turns, [\d,]+ tokens, \$\d+\.\d{4}\. Commit [0-9a-f]{7}\. Proposed: Q1\. Log \.kite\/runs\/\d{8}-\d{6}-F1\.jsonl$/m);
    assert.equal(events.at(-1)?.kind, 'session_end');
    const end = events.at(-1);
    assert.ok(end?.kind === 'session_end' && end.status === 'done');
  });

  it('makes exactly one new commit `F1: Fees round half-up` with the fix, the test and the progress file, never the logs', () => {
    assert.equal(git(repo, 'rev-list', '--count', `${head}..HEAD`), '1');
    assert.equal(git(repo, 'log', '-1', '--pretty=%s'), 'F1: Fees round half-up');
    const files = git(repo, 'show', '--name-only', '--pretty=format:', 'HEAD').split('\n').filter(Boolean).sort();
    assert.deepEqual(files, ['kite-progress.json', 'src/ledger.js', 'test/fees.test.js']);
    assert.ok(!files.some((f) => f.startsWith('.kite/runs')));
    const end = events.at(-1);
    assert.ok(end?.kind === 'session_end' && end.commit === git(repo, 'rev-parse', 'HEAD'));
  });

  it('the fix really works: addFee(133.75, 2) is 2.68 in the committed code', () => {
    const r = spawnSync(process.execPath, ['-e', "console.log(require('./src/ledger').addFee(133.75, 2))"], { cwd: repo, encoding: 'utf8' });
    assert.equal(r.stdout.trim(), '2.68');
  });

  it('progress file: F1 done with the closing notes, the QUEUE line as a proposed feature, a log entry', () => {
    const p = JSON.parse(readFileSync(join(repo, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string; title: string; notes: string }[]; log: { outcome: string; commit: string | null }[] };
    assert.deepEqual(p.features.map((f) => f.status), ['done', 'proposed']);
    assert.equal(p.features[1].title, 'Reject negative fee rates in addFee');
    assert.match(p.features[0].notes, /Fees now round half-up/);
    assert.equal(p.log.length, 1);
    assert.equal(p.log[0].outcome, 'done');
    // issue 18 item 2: the entry is part of the feature's commit, which cannot name its own sha (session_end has it)
    assert.equal(p.log[0].commit, undefined);
    assert.equal(git(repo, 'log', '-1', '--format=%s', '--', 'kite-progress.json'), 'F1: Fees round half-up');
  });

  it('the log: gates [failed, passed], the push denied by policy, events in order with the envelope', () => {
    assert.deepEqual(events.filter((e) => e.kind === 'gate').map((e) => e.kind === 'gate' && e.passed), [false, true]);
    const deny = events.find((e) => e.kind === 'policy' && e.decision === 'deny');
    assert.ok(deny?.kind === 'policy');
    assert.equal(deny.rule, 'deny:git-push');
    const proposed = events.find((e) => e.kind === 'proposed' && e.id === deny.id);
    assert.ok(proposed?.kind === 'proposed' && (proposed.args as { command: string }).command === 'git push origin main');
    assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i));
    assert.deepEqual(events.slice(0, 3).map((e) => e.kind), ['session_start', 'progress', 'user']);
    assert.deepEqual(events.slice(-2).map((e) => e.kind), ['progress', 'session_end']);
    const after = events.at(-2);
    assert.ok(after?.kind === 'progress' && after.proposals.join() === 'Q1');
    const start = events[0];
    assert.ok(start.kind === 'session_start' && start.git_head === head && start.mode === 'unattended');
    const fb = events.find((e) => e.kind === 'user' && e.reason === 'gate_feedback');
    assert.ok(fb?.kind === 'user');
    assert.match(fb.text, /`node --test test\/fees\.test\.js` \(the feature's verify command\) exited with code 1/);
    // every effectful call has its intent before its result
    for (const t of events.filter((e) => e.kind === 'tool' && !e.is_error)) {
      if (t.kind !== 'tool' || t.name === 'read_file') continue;
      const intent = events.findIndex((e) => e.kind === 'intent' && e.id === t.id);
      assert.ok(intent !== -1 && intent < t.seq, `intent before ${t.name}`);
    }
  });

  it('leaves the work tree clean after done: git status shows nothing (issue 18 item 2)', () => {
    assert.deepEqual(git(repo, 'status', '--porcelain').split('\n').filter(Boolean), []);
  });
});
