// Breakpoints over DAP: transcript lines (plain, conditional, hit count, logpoint), function
// breakpoints on tool names, and each exception filter on logs that contain that trouble.
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RunBuilder, ev, strip } from '../helpers/events';
import { DEMO_LOG, adapterBundle, launch, moved, startClient, transcript, where, writeLog } from './helpers';

/** A run with every kind of trouble, one of each, in this order. */
function troubledLog(): string {
  const b = new RunBuilder('troubled').start();
  b.turnWithCalls('Reading.', [{ id: 't1', name: 'read_file', args: { path: 'missing.py' }, is_error: true, error_code: 'not_found', output: 'missing.py does not exist. Nothing was read.' }]); // tool error
  b.turnWithCalls('Writing.', [{ id: 't2', name: 'write_file', args: { path: 'a.py', content: 'x' }, approval: { decision: 'deny', reason: 'not this file' } }]); // refusal by a person
  b.model([{ type: 'text', text: 'A very long answer' }], 'max_tokens'); // unusual stop
  b.event(strip(ev.divergence({ at_seq: 7, id: 't1', what: 'read_file output differs', recorded: 'a', live: 'b' })));
  b.event(strip(ev.budgetStop({ limit: 'tokens', used: 5200, max: 5000 })));
  b.end({ status: 'budget_exceeded' });
  return writeLog(b.events());
}

describe('DAP breakpoints (stdio)', function () {
  let dc: DebugClient;
  const T = { threadId: 1 };
  before(async () => {
    await adapterBundle();
  });
  beforeEach(async () => {
    dc = await startClient();
  });
  afterEach(async () => {
    await dc.stop();
  });

  /** Launch the demo stopped on entry, then configure (transcript known) and continue. */
  async function demo(): Promise<Awaited<ReturnType<typeof transcript>>> {
    await launch(dc, { log: DEMO_LOG });
    return transcript(dc);
  }
  const cont = async (req: (c: DebugClient) => Promise<unknown> = (c) => c.continueRequest(T)) => {
    const s = await moved(dc, req);
    return { ev: s, seq: (await where(dc)).seq };
  };

  it('line breakpoint: verified, stops with reason breakpoint and its id', async () => {
    const t = await demo();
    const r = await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(13) }] });
    const bp = r.body.breakpoints[0];
    assert.equal(bp.verified, true);
    assert.equal(bp.line, t.lineOfSeq(13));
    const { ev: s, seq } = await cont();
    assert.equal(s.body.reason, 'breakpoint');
    assert.equal(seq, 13);
    assert.deepEqual(s.body.hitBreakpointIds, [bp.id]);
    assert.match(s.body.description ?? '', /^Breakpoint: #13 .*tool {2}write_file ledgerly\/money.py/);
  });

  it('breakpoints on a turn header move to its first event; past the end or on other files are unverified', async () => {
    const t = await demo();
    const header = t.text.split('\n').findIndex((l) => l.startsWith('── Turn 3')) + 1;
    const r = await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: header }, { line: 5000 }] });
    assert.deepEqual(r.body.breakpoints.map((b) => [b.verified, b.line]), [
      [true, t.lineOfSeq(14)],
      [false, 5000],
    ]);
    assert.match(r.body.breakpoints[1].message ?? '', /past the end of the transcript/);
    const other = await dc.setBreakpointsRequest({ source: { path: '/tmp/some/file.ts' }, breakpoints: [{ line: 3 }] });
    assert.equal(other.body.breakpoints[0].verified, false);
    // the transcript breakpoints survive a request for another file
    assert.equal((await cont()).seq, 14);
  });

  it('conditional breakpoints: tool.name == "run" and tokens > 10000', async () => {
    const t = await demo();
    const toolLines = [6, 13, 17, 28, 35, 40].map((s) => ({ line: t.lineOfSeq(s), condition: 'tool.name == "run"' }));
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    await dc.setBreakpointsRequest({ source: t.source, breakpoints: toolLines });
    assert.equal((await cont()).seq, 17);
    assert.equal((await cont()).seq, 40);
    const modelLines = [3, 7, 14, 18, 22, 29, 36, 41].map((s) => ({ line: t.lineOfSeq(s), condition: 'tokens > 10000 && reply.stop == "end_turn"' }));
    await dc.setBreakpointsRequest({ source: t.source, breakpoints: modelLines });
    assert.equal((await cont((c) => c.reverseContinueRequest(T))).seq, 18, 'going back: the first end_turn after 10k tokens');
    const bad = await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(3), condition: 'tokens >>> 3' }] });
    assert.equal(bad.body.breakpoints[0].verified, false);
    assert.match(bad.body.breakpoints[0].message ?? '', /^condition: /);
  });

  it('hit count: a line breakpoint with hitCondition 2 stops the second time it is reached', async () => {
    const t = await demo();
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(13), hitCondition: '2' }] });
    const first = await cont();
    assert.deepEqual([first.ev.body.reason, first.seq], ['step', 44], 'first pass: no stop, runs to the end');
    const second = await cont((c) => c.reverseContinueRequest(T));
    assert.deepEqual([second.ev.body.reason, second.seq], ['breakpoint', 13]);
    const bad = await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(13), hitCondition: 'often' }] });
    assert.equal(bad.body.breakpoints[0].verified, false);
  });

  it('logpoint: prints the interpolated message and does not stop', async () => {
    const t = await demo();
    await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(13), logMessage: 'wrote {tool.path} in turn {turn}; {tokens} tokens so far' }] });
    const out = dc.assertOutput('console', 'wrote ledgerly/money.py in turn 2; 6760 tokens so far\n');
    const { ev: s, seq } = await cont();
    await out;
    assert.deepEqual([s.body.reason, seq], ['exception', 19], 'ran on to the gate failure');
  });

  it('function breakpoints stop at each call of the named tool, honouring hit conditions', async () => {
    await demo();
    await dc.setExceptionBreakpointsRequest({ filters: [] });
    const r = await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'run' }, { name: 'no_such_tool' }] });
    assert.deepEqual(r.body.breakpoints.map((b) => b.verified), [true, true]);
    assert.match(r.body.breakpoints[1].message ?? '', /no no_such_tool call in this run/);
    const a = await cont();
    assert.deepEqual([a.ev.body.reason, a.seq], ['function breakpoint', 15]);
    assert.match(a.ev.body.description ?? '', /^Function breakpoint run: #15 .*proposed/);
    assert.equal((await cont()).seq, 37);
    await dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'write_file', hitCondition: '>= 2' }] });
    const w = await cont((c) => c.reverseContinueRequest(T));
    assert.equal(w.seq, 8, 'going back from #37: write_file at #23 is hit 1, at #8 hit 2');
  });

  const filters: [string, RegExp, number, string][] = [
    ['tool_error', /^Tool error: read_file missing.py ✗ not_found/, 6, 'troubled'],
    ['policy_refusal', /^Person denied the call t2: not this file/, 11, 'troubled'],
    ['unusual_stop', /^Model stopped with max_tokens \(turn 3\)/, 13, 'troubled'],
    ['divergence', /^Replay diverged at seq 7: read_file output differs/, 14, 'troubled'],
    ['budget_stop', /^Budget stop: tokens 5200 of 5000/, 15, 'troubled'],
    ['policy_refusal', /^Policy refused run \(deny:pipe-to-shell\)/, 16, 'demo'],
    ['gate_failure', /^Gate failed \(attempt 1\)/, 19, 'demo'],
  ];
  for (const [filter, description, seq, log] of filters) {
    it(`exception filter ${filter} stops at #${seq} of the ${log} log`, async () => {
      const stopped = await launch(dc, { log: log === 'demo' ? DEMO_LOG : troubledLog(), stopOnEntry: false }, () => dc.setExceptionBreakpointsRequest({ filters: [filter] }));
      assert.equal(stopped.body.reason, 'exception');
      assert.match(stopped.body.description ?? '', description);
      assert.equal((await where(dc)).seq, seq);
      const info = await dc.exceptionInfoRequest({ threadId: 1 });
      assert.equal(info.body.exceptionId, filter);
    });
  }

  it('with no exception filters the troubled run plays to its end', async () => {
    const stopped: DebugProtocol.StoppedEvent = await launch(dc, { log: troubledLog(), stopOnEntry: false }, () => dc.setExceptionBreakpointsRequest({ filters: [] }));
    assert.equal(stopped.body.reason, 'step');
    assert.match(stopped.body.description ?? '', /^End of the run log: #16 .*session_end/);
  });
});
