// Resume decisions a person would notice: a pause for approval answered from another process,
// writes found done / not done / changed outside Kite, interrupted commands never re-run, mode
// overrides, and clear refusals for logs that cannot be resumed.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import type { Host } from '../../../src/harness/host';
import type { EventOf, KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { sha256 } from '../../../src/harness/tools/hash';
import { buildCli, eventsOf, gatesOf, kite, makeProject, onlyLog, sideLines, SIDE_COMMAND } from './kit';

const goneHost: Host = { approve: () => Promise.reject(new Error('the extension host went away')) };
const toolOf = (events: KiteEvent[], id: string) => events.filter((e): e is EventOf<'tool'> => e.kind === 'tool' && e.id === id);

describe('resume', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  describe('a run paused for approval', () => {
    it('is a state in the log: a new process re-asks, pauses again without an answer, continues with --approve', async () => {
      const p = makeProject({ askCommands: true });
      const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
      assert.equal(s.paused, true);
      const log = s.logPath;
      let events = await eventsOf(log);
      assert.equal(events.at(-1)?.kind, 'paused');
      assert.ok(!events.some((e) => e.kind === 'session_end'), 'a pause is not an outcome');
      const progress = JSON.parse(readFileSync(join(p.repo, 'kite-progress.json'), 'utf8')) as { features: { status: string }[] };
      assert.equal(progress.features[0].status, 'in_progress');
      assert.equal(sideLines(p.repo), 0);

      // second process, no terminal, no answer: asks again, cannot get an answer, pauses again
      const runId = basename(log, '.jsonl');
      const again = kite(cli, p.repo, ['resume', runId]);
      assert.equal(again.status, 1, again.stderr);
      assert.match(again.stdout, new RegExp(`F1: paused, resume with kite resume ${runId}`));
      // the pause shows the waiting call in full and the id --approve takes (issue 13, item 16)
      assert.ok(again.stdout.includes(`call c3 (run):\nThe agent wants to run:\n  $ ${SIDE_COMMAND}\n  in ${p.repo}`), again.stdout);
      assert.match(again.stdout, new RegExp(`--approve c3, or deny with --deny REASON`));
      events = await eventsOf(log);
      assert.deepEqual(
        events.slice(-2).map((e) => e.kind),
        ['resumed', 'paused'],
      );
      assert.equal(events.filter((e) => e.kind === 'approval_request').length, 1, 'the request is in the log once');

      // third process answers from the command line (a bare --approve: exactly one call waits, shown as it is approved)
      const done = kite(cli, p.repo, ['resume', runId, '--approve']);
      assert.equal(done.status, 0, done.stderr + done.stdout);
      assert.ok(done.stdout.includes(`$ ${SIDE_COMMAND}\n  in ${p.repo}\napproved by --approve`), done.stdout);
      assert.match(done.stdout, /F1: done in 6 turns/);
      events = await eventsOf(log);
      const approval = events.filter((e): e is EventOf<'approval'> => e.kind === 'approval');
      assert.deepEqual(
        approval.map((a) => [a.id, a.decision]),
        [['c3', 'approve']],
      );
      assert.equal(sideLines(p.repo), 1);
      assert.deepEqual(gatesOf(events), [false, true]);
      assert.equal(events.filter((e) => e.kind === 'resumed').length, 2);
      assert.equal(events.filter((e) => e.kind === 'session_end').length, 1);
    });

    it('a torn last line (the writer died mid-event) is skipped, and stays harmless for later resumes', async () => {
      const p = makeProject({ askCommands: true });
      const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
      appendFileSync(s.logPath, '{"v":1,"seq":99,"run":"x","t":1,"kind":"warn'); // a crash mid-write
      const tornLine = readFileSync(s.logPath, 'utf8').split('\n').length;
      const again = kite(cli, p.repo, ['resume', s.logPath]);
      assert.equal(again.status, 1, again.stderr + again.stdout); // paused again: nobody to answer
      const done = kite(cli, p.repo, ['resume', s.logPath, '--approve']);
      assert.equal(done.status, 0, done.stderr + done.stdout);
      const r = await readLog(s.logPath);
      assert.deepEqual(r.problems, [{ line: tornLine, message: `line ${tornLine}: torn line left by a crash (the run was resumed after it; 44 bytes ignored)` }]);
      assert.equal(r.events.at(-1)?.kind, 'session_end');
      assert.equal(r.events[r.events.findIndex((e) => e.kind === 'resumed')].seq, r.events.find((e) => e.kind === 'paused')!.seq + 1);
    });

    it('--unattended overrides the recorded mode: the pending command is refused by policy, not run', async () => {
      const p = makeProject({ askCommands: true });
      const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
      const r = kite(cli, p.repo, ['resume', s.logPath, '--unattended']);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const events = await eventsOf(s.logPath);
      const resumed = events.find((e): e is EventOf<'resumed'> => e.kind === 'resumed');
      assert.equal(resumed?.mode, 'unattended');
      const policies = events.filter((e): e is EventOf<'policy'> => e.kind === 'policy' && e.id === 'c3');
      assert.deepEqual(
        policies.map((x) => x.decision),
        ['ask', 'deny'],
      );
      const [tool] = toolOf(events, 'c3');
      assert.equal(tool.is_error, true);
      assert.equal(tool.error_code, 'denied');
      assert.equal(sideLines(p.repo), 0);
    });

    it('limit flags override the recorded limits: --max-turns 3 stops the resumed run at its budget', async () => {
      const p = makeProject({ askCommands: true });
      const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
      assert.equal(s.turns, 3); // paused on the command of turn 3
      const r = kite(cli, p.repo, ['resume', s.logPath, '--approve', '--max-turns', '3']);
      assert.equal(r.status, 1, r.stderr + r.stdout);
      const events = await eventsOf(s.logPath);
      const resumed = events.find((e): e is EventOf<'resumed'> => e.kind === 'resumed');
      assert.equal(resumed?.limits.turns, 3);
      const stop = events.find((e): e is EventOf<'budget_stop'> => e.kind === 'budget_stop');
      assert.deepEqual([stop?.limit, stop?.used, stop?.max], ['turns', 3, 3]);
      const end = events.at(-1);
      assert.ok(end?.kind === 'session_end' && end.status === 'budget_exceeded');
      assert.equal(sideLines(p.repo), 1, 'the approved call still ran before the budget check');
    });

    it('--deny REASON tells the agent why and does not run the command', async () => {
      const p = makeProject({ askCommands: true });
      const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
      const r = kite(cli, p.repo, ['resume', s.logPath, '--deny', 'no side effects today']);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const [tool] = toolOf(await eventsOf(s.logPath), 'c3');
      assert.equal(tool.error_code, 'denied');
      assert.match(tool.output, /no side effects today/);
      assert.equal(sideLines(p.repo), 0);
    });
  });

  describe('after a crash between intent and result', () => {
    let reference: Promise<KiteEvent[]> | null = null; // one uncrashed run gives the seq of each intent
    const referenceEvents = (): Promise<KiteEvent[]> => {
      if (!reference) {
        const p = makeProject();
        const ref = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
        assert.equal(ref.status, 0, ref.stderr);
        reference = eventsOf(onlyLog(p.repo));
      }
      return reference;
    };
    const runToIntent = async (id: string) => {
      const seq = (await referenceEvents()).find((e) => e.kind === 'intent' && e.id === id)?.seq;
      assert.ok(seq !== undefined);
      const p = makeProject();
      const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], { KITE_TEST_CRASH_AFTER_SEQ: String(seq) });
      assert.equal(r.signal, 'SIGKILL');
      const log = onlyLog(p.repo);
      const intent = (await eventsOf(log)).at(-1);
      assert.ok(intent?.kind === 'intent');
      return { p, log, intent };
    };

    it('a write whose file already holds the new content is recorded as recovered, not written again', async () => {
      const { p, log, intent } = await runToIntent('toolu_demo_02');
      // simulate "the write landed, the process died before logging it"
      const args = intent.args as { old_string: string; new_string: string };
      const file = join(p.repo, 'src/ledger.js');
      writeFileSync(file, readFileSync(file, 'utf8').replace(args.old_string, args.new_string));
      assert.equal(sha256(readFileSync(file, 'utf8')), intent.post_hash);
      const r = kite(cli, p.repo, ['resume', log]);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const [tool] = toolOf(await eventsOf(log), 'toolu_demo_02');
      assert.equal(tool.recovered, true);
      assert.equal(tool.is_error, false);
      assert.equal(tool.post_hash, intent.post_hash);
      assert.match(tool.output, /completed before Kite stopped/);
    });

    it('a write whose file changed outside Kite is not applied, and the model is told so', async () => {
      const { p, log } = await runToIntent('toolu_demo_02');
      const file = join(p.repo, 'src/ledger.js');
      appendFileSync(file, '\n// edited by a person while Kite was down\n');
      const outside = readFileSync(file, 'utf8');
      kite(cli, p.repo, ['resume', log]);
      const events = await eventsOf(log);
      const [tool] = toolOf(events, 'toolu_demo_02');
      assert.equal(tool.is_error, true);
      assert.equal(tool.error_code, 'changed_outside');
      assert.match(tool.output, /changed outside Kite.*NOT applied/s);
      assert.ok(readFileSync(file, 'utf8').startsWith(outside.trimEnd()), 'the person’s version was kept');
      // the model went on with its next reply, not a re-ask of the same turn
      const turns = events.filter((e) => e.kind === 'model').map((e) => (e.kind === 'model' ? e.turn : 0));
      assert.deepEqual(turns.slice(0, 3), [1, 2, 3]);
    });

    it('an interrupted command is never re-run silently: the model is told it may have partly run', async () => {
      const { p, log } = await runToIntent('c3');
      const r = kite(cli, p.repo, ['resume', log]);
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const [tool] = toolOf(await eventsOf(log), 'c3');
      assert.equal(tool.is_error, true);
      assert.equal(tool.error_code, 'interrupted');
      assert.equal(tool.recovered, true);
      assert.match(tool.output, new RegExp(`may have partly run.*${SIDE_COMMAND.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|${SIDE_COMMAND.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*may have partly run`, 's'));
      assert.equal(sideLines(p.repo), 0);
    });
  });

  it('the calls of a reply cut at max_tokens are not run on resume either', async () => {
    const p = makeProject();
    const script = JSON.parse(readFileSync(p.script, 'utf8')) as unknown[];
    const cut = { content: [{ type: 'tool_use', id: 'cut1', name: 'run', input: { command: SIDE_COMMAND } }], stop_reason: 'max_tokens', usage: { input_tokens: 10, output_tokens: 8192 } };
    writeFileSync(p.script, JSON.stringify([cut, ...script]));
    // session_start, progress, briefing, model (the cut reply) = seq 3
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], { KITE_TEST_CRASH_AFTER_SEQ: '3' });
    assert.equal(r.signal, 'SIGKILL');
    const log = onlyLog(p.repo);
    const resumed = kite(cli, p.repo, ['resume', log]);
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout);
    const [tool] = toolOf(await eventsOf(log), 'cut1');
    assert.equal(tool.is_error, true);
    assert.match(tool.output, /cut off at max_tokens; it did NOT run/);
    assert.equal(sideLines(p.repo), 1, 'only the later, complete call ran the command');
  });

  describe('logs that cannot be resumed', () => {
    it('an original (Python) Kite log is readable but not resumable', async () => {
      const r = kite(cli, process.cwd(), ['resume', join(__dirname, '..', '..', 'fixtures', 'logs', 'python-kite.jsonl')]);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /written by the original Python Kite; it can be read \(kite timeline\) but not resumed/);
    });

    it('a finished run, a corrupt log, a missing run id: clear messages and exit codes', async () => {
      const p = makeProject();
      assert.equal(kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]).status, 0);
      const log = onlyLog(p.repo);
      const finished = kite(cli, p.repo, ['resume', basename(log, '.jsonl')]);
      assert.equal(finished.status, 1);
      assert.match(finished.stderr, /already ended \(done\); there is nothing to resume/);

      const lines = readFileSync(log, 'utf8').split('\n');
      lines[4] = '{"broken":';
      writeFileSync(log, lines.slice(0, 8).join('\n') + '\n');
      const corrupt = kite(cli, p.repo, ['resume', log]);
      assert.equal(corrupt.status, 2);
      assert.match(corrupt.stderr, /line 5: invalid JSON/);

      const missing = kite(cli, p.repo, ['resume', '20990101-000000-F9']);
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /no such log: .*20990101-000000-F9/);
    });
  });
});
