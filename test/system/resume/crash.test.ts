// kill -9 at every event boundary of a scripted run, then resume in a new process: each resumes
// to the scripted outcome, no side effect runs twice, approvals are never asked twice or lost,
// the log stays valid. The crash is injected with the writer's test-only hook
// KITE_TEST_CRASH_AFTER_SEQ=N (the process SIGKILLs itself right after event N is on disk).
// Boundaries run three at a time (separate temp repos); the work is mostly waiting on processes.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EventOf, KiteEvent } from '../../../src/harness/protocol/events';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { git } from '../../unit/loop/kit';
import { REVIEW_NOTE } from '../../helpers/reviewNote';
import { buildAttendedDriver, buildCli, eventsOf, gatesOf, makeProject, nodeAsync, onlyLog, pool, sideLines, type Exit, type Project } from './kit';

const CONCURRENCY = 3;

interface Variant {
  project: () => Project;
  run: (p: Project, env?: NodeJS.ProcessEnv) => Promise<Exit>;
  resume: (p: Project, log: string) => Promise<Exit>;
}

async function referenceOf(v: Variant): Promise<KiteEvent[]> {
  const p = v.project();
  const r = await v.run(p);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const events = await eventsOf(onlyLog(p.repo));
  assert.deepEqual(gatesOf(events), [false, true]);
  assert.equal(sideLines(p.repo), 1);
  return events;
}

/** Crash after each event but the last, resume, and check what a person would check. */
async function crashEverywhere(v: Variant, reference: KiteEvent[], extra: (p: Project, events: KiteEvent[], why: string) => void): Promise<string[]> {
  const sideIntent = reference.find((e) => e.kind === 'intent' && e.effect === 'exec')?.seq;
  const refModels = reference.filter((e) => e.kind === 'model').map((e) => (e.kind === 'model' ? e.content : null));
  const boundaries = reference.slice(0, -1).map((e) => e.seq); // a crash after session_end leaves nothing to resume
  return pool(boundaries, CONCURRENCY, async (n) => {
    const p = v.project();
    const crashed = await v.run(p, { KITE_TEST_CRASH_AFTER_SEQ: String(n) });
    assert.equal(crashed.signal, 'SIGKILL', `crash after seq ${n}: the run was not killed (${crashed.status}) ${crashed.stderr}`);
    const log = onlyLog(p.repo);
    assert.equal((await eventsOf(log)).at(-1)?.seq, n, `crash after seq ${n}: the log does not end there`);
    const resumed = await v.resume(p, log);
    const why = `crash after seq ${n} (${reference[n].kind})`;
    assert.equal(resumed.status, 0, `${why}: resume exited ${resumed.status}\n${resumed.stderr}\n${resumed.stdout}`);
    const events = await eventsOf(log); // valid, no problems
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i),
      `${why}: seq not contiguous`,
    );
    assert.equal(events.filter((e) => e.kind === 'resumed').length, 1, why);
    assert.equal(events.filter((e) => e.kind === 'session_end').length, 1, why);
    const end = events.at(-1);
    assert.ok(end?.kind === 'session_end' && end.status === 'done', `${why}: ended ${JSON.stringify(end)}`);
    assert.deepEqual(gatesOf(events), [false, true], why);
    // the model continued at its next reply: same replies, same order, once each
    assert.deepEqual(
      events.filter((e) => e.kind === 'model').map((e) => (e.kind === 'model' ? e.content : null)),
      refModels,
      why,
    );
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
    extra(p, events, why);
    rmSync(dirname(p.repo), { recursive: true, force: true }); // kept only when something failed
  });
}

describe('crash-safe resume: kill -9 at every event boundary', function () {
  this.timeout(600_000);

  it('an unattended CLI run (`kite run`, then `kite resume LOG` in a new process)', async () => {
    const cli = await buildCli();
    const v: Variant = {
      project: () => makeProject(),
      run: (p, env) => nodeAsync(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], env),
      resume: (p, log) => nodeAsync(cli, p.repo, ['resume', log]),
    };
    const failures = await crashEverywhere(v, await referenceOf(v), () => undefined);
    assert.deepEqual(failures, []);
  });

  it('an attended run with approvals (one an edit): answers are never lost or asked twice', async () => {
    const driver = await buildAttendedDriver();
    const v: Variant = {
      project: () => makeProject({ askAll: true }),
      run: (p, env) => nodeAsync(driver, p.repo, ['run', p.repo, p.script], env),
      resume: (p, log) => nodeAsync(driver, p.repo, ['resume', log]),
    };
    const reference = await referenceOf(v);
    const asked = reference.filter((e) => e.kind === 'approval_request').map((e) => (e.kind === 'approval_request' ? e.id : ''));
    assert.ok(asked.length >= 3, `the reference run asked for ${asked.length} approvals`);
    const failures = await crashEverywhere(v, reference, (p, events, why) => {
      // one request and one answer per call that needed approval, whatever the crash point
      const requests = events.filter((e) => e.kind === 'approval_request').map((e) => (e.kind === 'approval_request' ? e.id : ''));
      assert.deepEqual(requests, asked, `${why}: approval requests`);
      const answers = events.filter((e): e is EventOf<'approval'> => e.kind === 'approval');
      assert.deepEqual(
        answers.map((a) => a.id),
        asked,
        `${why}: approvals`,
      );
      assert.ok(readFileSync(join(p.repo, 'test/fees.test.js'), 'utf8').endsWith(REVIEW_NOTE), `${why}: the person's edit was kept`);
    });
    assert.deepEqual(failures, []);
  });
});
