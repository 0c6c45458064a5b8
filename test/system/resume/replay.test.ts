// Replay: recorded model replies, live tools/policy/gate. Reproduces the gate sequence on the same
// starting commit, never commits or writes the progress file, and reports the first divergence.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { Host } from '../../../src/harness/host';
import { runFeature } from '../../../src/harness/run';
import { REVIEW_NOTE } from '../../helpers/reviewNote';
import type { EventOf, KiteEvent } from '../../../src/harness/protocol/events';
import { DivergenceWatcher } from '../../../src/harness/replay/divergence';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { ev } from '../../helpers/events';
import { git, MemorySink } from '../../unit/loop/kit';
import { buildCli, eventsOf, gatesOf, kite, makeProject, onlyLog, type Project } from './kit';

describe('replay', function () {
  this.timeout(120_000);
  let cli: string;
  let p: Project;
  let recording: string;
  let recorded: KiteEvent[];

  before(async () => {
    cli = await buildCli();
    p = makeProject();
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 0, r.stderr);
    recording = onlyLog(p.repo);
    recorded = await eventsOf(recording);
  });

  const progressText = () => readFileSync(join(p.repo, 'kite-progress.json'), 'utf8');
  const replayLogs = () => (existsSync(join(p.repo, '.kite', 'runs')) ? git(p.repo, 'ls-files', '--others', '--ignored', '--exclude-standard', '.kite/runs') : '');

  it('kite run --replay --worktree reproduces the gate sequence at the recorded commit, without commits or progress writes', async () => {
    const head = git(p.repo, 'rev-parse', 'HEAD');
    const progress = progressText();
    const r = kite(cli, p.repo, ['run', '--replay', recording, '--worktree']);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /gates: recorded FAILED, PASSED; replay FAILED, PASSED \(reproduced\)/);
    assert.match(r.stdout, /F1 replay: done \(recorded: done\) in 6 turns/);
    assert.equal(git(p.repo, 'rev-parse', 'HEAD'), head, 'no commit');
    assert.equal(progressText(), progress, 'progress file untouched');
    assert.equal(git(p.repo, 'worktree', 'list').split('\n').length, 1, 'scratch worktree removed');
    const log = /Log (\S+-replay(?:-\d+)?\.jsonl)/.exec(r.stdout)?.[1];
    assert.ok(log && dirname(log) === dirname(recording), `replay log next to the recording: ${log}`);
    const events = await eventsOf(log);
    assert.deepEqual(gatesOf(events), gatesOf(recorded));
    const start = events[0];
    assert.ok(start.kind === 'session_start' && start.replay_of === recording && start.model === `replay:${recording}`);
    assert.ok(!events.some((e) => e.kind === 'divergence'));
    assert.ok(!events.some((e) => e.kind === 'progress' && e.seq > 1), 'no closing progress update');
    assert.match(replayLogs(), new RegExp(basename(log)));
  });

  it('detects a divergence when the work tree differs (a file hash after a write) and stops there', async () => {
    const head = git(p.repo, 'rev-parse', 'HEAD');
    const start = recorded[0].kind === 'session_start' ? recorded[0].git_head : null;
    assert.ok(start);
    const savedProgress = progressText(); // the finished run recorded its commit there (uncommitted)
    git(p.repo, 'checkout', '-q', '-f', '--detach', start);
    try {
      appendFileSync(join(p.repo, 'src/ledger.js'), '\n// a local change the recording did not have\n');
      const progress = progressText();
      const s = await replayRun({ log: recording, root: p.repo, onDivergence: 'stop' }, new UnattendedHost());
      assert.ok(s.divergence, 'a divergence was found');
      const editTool = recorded.find((e): e is EventOf<'tool'> => e.kind === 'tool' && e.name === 'edit_file');
      assert.equal(s.divergence.at_seq, editTool?.seq);
      assert.match(s.divergence.what, /^edit_file src\/ledger\.js: post_hash$/);
      assert.match(s.divergence.message, /replay diverged at recorded seq \d+: edit_file src\/ledger\.js post_hash was "[0-9a-f]{64}", now "[0-9a-f]{64}"/);
      const events = await eventsOf(s.logPath);
      const d = events.filter((e) => e.kind === 'divergence');
      assert.equal(d.length, 1);
      // stopped: no model turn after the divergence, the replay ends cancelled
      const dSeq = d[0].seq;
      assert.ok(!events.some((e) => e.kind === 'model' && e.seq > dSeq));
      assert.equal(s.outcome, 'cancelled');
      assert.equal(progressText(), progress);
    } finally {
      git(p.repo, 'checkout', '-q', '-f', head);
      writeFileSync(join(p.repo, 'kite-progress.json'), savedProgress);
    }
  });

  it('--on-divergence continue goes on past the first difference and records each one', async () => {
    // On the finished commit the fix is already in: the edit no longer applies, the rest goes on.
    const s = await replayRun({ log: recording, root: p.repo, onDivergence: 'continue' }, new UnattendedHost());
    assert.ok(s.divergence);
    assert.match(s.divergence.message, /edit_file src\/ledger\.js is_error was false, now true/);
    const events = await eventsOf(s.logPath);
    assert.ok(events.filter((e) => e.kind === 'model').length > 2, 'the replay continued');
    assert.equal(events.filter((e) => e.kind === 'divergence').length, s.divergences);
    git(p.repo, 'checkout', '-q', '--', '.');
    git(p.repo, 'clean', '-qfd', '--', 'side.txt');
  });

  it('replays the person’s recorded answers (an edited write) so an attended run reproduces without asking anyone', async () => {
    const a = makeProject({ askAll: true });
    const person: Host = {
      approve: (req) => Promise.resolve(req.kind === 'write' && req.path === 'test/fees.test.js' ? { decision: 'edit', content: req.proposed + REVIEW_NOTE } : { decision: 'approve' }),
    };
    const s = await runFeature({ root: a.repo, mode: 'attended', model: `script:${a.script}` }, person);
    assert.equal(s.outcome, 'done');
    const nobody: Host = { approve: () => Promise.reject(new Error('a replay must not ask anyone')) };
    const r = await replayRun({ log: s.logPath, root: a.repo, worktree: true, onDivergence: 'stop' }, nobody);
    assert.equal(r.divergence, null, r.divergence?.message);
    assert.equal(r.outcome, 'done');
    const events = await eventsOf(r.logPath);
    const edit = events.find((e): e is EventOf<'approval'> => e.kind === 'approval' && e.decision === 'edit');
    assert.ok(edit, 'the edit answer was replayed');
    assert.deepEqual(gatesOf(events), [false, true]);
  });

  it('compares gate verdicts per check, ignoring timings and output', () => {
    const rec = [
      ev.gate({ seq: 5, attempt: 1, passed: false, checks: [{ command: 'npm test', exit_code: 1, ms: 100, timed_out: false, output_tail: 'x', source: 'check' }] }),
      ev.gate({ seq: 9, attempt: 2, passed: true, checks: [{ command: 'npm test', exit_code: 0, ms: 100, timed_out: false, output_tail: '', source: 'check' }] }),
    ];
    const found: string[] = [];
    const w = new DivergenceWatcher(rec, (d) => found.push(d.message));
    const sink = new MemorySink();
    w.observe(ev.gate({ attempt: 1, passed: false, checks: [{ command: 'npm test', exit_code: 1, ms: 999, timed_out: false, output_tail: 'other text', source: 'check' }] }), sink);
    assert.equal(sink.events.length, 0);
    w.observe(ev.gate({ attempt: 2, passed: false, checks: [{ command: 'npm test', exit_code: 127, ms: 3, timed_out: false, output_tail: 'sh: npm: not found', source: 'check' }] }), sink);
    assert.deepEqual(found, ['replay diverged at recorded seq 9: gate attempt 2 passed in the recording, failed now `npm test` exit 0 → 127']);
    const d = sink.of('divergence')[0];
    assert.equal(d.at_seq, 9);
    assert.deepEqual(d.recorded, { passed: true, checks: [{ command: 'npm test', exit_code: 0, timed_out: false }] });
  });

  it('ignores call ids and timings when comparing tool results', () => {
    const w = new DivergenceWatcher([ev.tool({ seq: 3, id: 'a', ms: 5, name: 'run', exit_code: 0 })], () => assert.fail('no divergence expected'));
    const sink = new MemorySink();
    w.observe(ev.tool({ id: 'zzz', ms: 900, name: 'run', exit_code: 0, output: 'different text' }), sink);
    assert.equal(sink.events.length, 0);
  });
});
