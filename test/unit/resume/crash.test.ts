// kill -9 at every event boundary of a scripted run, then `kite resume` in a new process: each
// resumes to the scripted outcome, no side effect runs twice, the log stays valid.
// The crash is injected with the writer's test-only hook KITE_TEST_CRASH_AFTER_SEQ=N (the process
// SIGKILLs itself right after event N is on disk).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { git } from '../loop/kit';
import { buildCli, eventsOf, gatesOf, kite, makeProject, onlyLog, sideLines } from './kit';

describe('crash-safe resume: kill -9 at every event boundary (dist CLI, real git)', function () {
  this.timeout(600_000);
  let cli: string;
  let reference: KiteEvent[];

  before(async () => {
    cli = await buildCli();
    const p = makeProject();
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    reference = await eventsOf(onlyLog(p.repo));
    assert.deepEqual(gatesOf(reference), [false, true]);
    assert.equal(sideLines(p.repo), 1);
  });

  it('resumes to the same outcome from a crash after each event', async () => {
    const last = reference.length - 1; // a crash after session_end leaves nothing to resume
    const sideIntent = reference.find((e) => e.kind === 'intent' && e.effect === 'exec')?.seq;
    const refModels = reference.filter((e) => e.kind === 'model').map((e) => (e.kind === 'model' ? e.content : null));
    const failures: string[] = [];
    for (let n = 0; n < last; n++) {
      const p = makeProject();
      const crashed = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], { KITE_TEST_CRASH_AFTER_SEQ: String(n) });
      assert.equal(crashed.signal, 'SIGKILL', `crash after seq ${n}: the run was not killed (${crashed.status}) ${crashed.stderr}`);
      const log = onlyLog(p.repo);
      const before = await eventsOf(log);
      assert.equal(before.at(-1)?.seq, n, `crash after seq ${n}: the log ends at ${before.at(-1)?.seq}`);

      const resumed = kite(cli, p.repo, ['resume', log]);
      const why = `crash after seq ${n} (${reference[n].kind}): exit ${resumed.status}\n${resumed.stderr}\n${resumed.stdout}`;
      if (resumed.status !== 0) {
        failures.push(why);
        continue;
      }
      const events = await eventsOf(log); // valid, no problems
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i),
        `${why}: seq not contiguous`,
      );
      assert.equal(events.filter((e) => e.kind === 'resumed').length, 1, why);
      assert.equal(events.filter((e) => e.kind === 'session_end').length, 1, why);
      const end = events.at(-1);
      assert.ok(end?.kind === 'session_end' && end.status === 'done', why);
      assert.deepEqual(gatesOf(events), [false, true], why);
      // the model continued at its next reply: same replies, in the same order, once each
      assert.deepEqual(
        events.filter((e) => e.kind === 'model').map((e) => (e.kind === 'model' ? e.content : null)),
        refModels,
        why,
      );
      // every call has exactly one result, every tool_use was answered
      const results = events.filter((e) => e.kind === 'tool').map((e) => (e.kind === 'tool' ? e.id : ''));
      assert.equal(new Set(results).size, results.length, `${why}: a call has two results`);
      assert.deepEqual(foldEvents(events).conversation?.unansweredToolUses(), [], why);
      // the side effect ran once, or not at all when the crash hit between its intent and its run
      assert.equal(sideLines(p.repo), n === sideIntent ? 0 : 1, `${why}: side.txt`);
      // outcome and progress written once, one commit
      assert.equal(git(p.repo, 'rev-list', '--count', `${p.head}..HEAD`), '1', why);
      assert.equal(git(p.repo, 'log', '-1', '--pretty=%s'), 'F1: Fees round half-up', why);
      const progress = JSON.parse(readFileSync(join(p.repo, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[]; log: unknown[] };
      assert.equal(progress.features[0].status, 'done', why);
      assert.equal(progress.log.length, 1, why);
      assert.equal(progress.features.filter((f) => f.status === 'proposed').length, 1, why);
    }
    assert.deepEqual(failures, []);
  });
});
