// Stepping through the demo run over DAP: next = next turn, stepIn = next event, stepOut = end of
// the turn, stepBack / reverseContinue, goto a transcript line, continue to the next stop.
import assert from 'node:assert/strict';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { DEMO_LOG, adapterBundle, launch, moved, startClient, transcript, where } from './helpers';

describe('DAP stepping (stdio)', function () {
  let dc: DebugClient;
  before(async () => {
    await adapterBundle();
  });
  beforeEach(async () => {
    dc = await startClient();
    await launch(dc, { log: DEMO_LOG });
  });
  afterEach(async () => {
    await dc.stop();
  });

  const step = async (req: (dc: DebugClient) => Promise<unknown>) => {
    const s = await moved(dc, req);
    const w = await where(dc);
    return { reason: s.body.reason, seq: w.seq, description: s.body.description ?? '', line: w.line };
  };
  const T = { threadId: 1 };

  it('stepIn moves one event, next one turn, stepOut to the end of the turn', async () => {
    assert.deepEqual(await step((c) => c.stepInRequest(T)).then((r) => [r.reason, r.seq]), ['step', 1]);
    assert.deepEqual(await step((c) => c.nextRequest(T)).then((r) => [r.reason, r.seq]), ['step', 3], 'next: first event of turn 1');
    assert.deepEqual(await step((c) => c.nextRequest(T)).then((r) => [r.reason, r.seq]), ['step', 7], 'next: turn 2');
    assert.deepEqual(await step((c) => c.stepOutRequest(T)).then((r) => [r.reason, r.seq]), ['step', 13], 'stepOut: last event of turn 2');
    assert.deepEqual(await step((c) => c.stepOutRequest(T)).then((r) => [r.reason, r.seq]), ['step', 17], 'stepOut at the end of a turn: end of the next');
    const r = await step((c) => c.stepInRequest(T));
    assert.equal(r.seq, 18);
    const frames = (await where(dc)).frames.map((f) => f.name);
    assert.match(frames[1], /^Turn 4$/);
  });

  it('stepBack and reverseContinue go backwards; continue runs to the next stop', async () => {
    await step((c) => c.nextRequest(T));
    await step((c) => c.nextRequest(T));
    assert.deepEqual(await step((c) => c.stepBackRequest(T)).then((r) => [r.reason, r.seq]), ['step', 6]);
    assert.deepEqual(await step((c) => c.stepBackRequest(T)).then((r) => [r.reason, r.seq]), ['step', 5]);
    const c1 = await step((c) => c.continueRequest(T));
    assert.deepEqual([c1.reason, c1.seq], ['exception', 19]);
    const end = await step((c) => c.continueRequest(T));
    assert.deepEqual([end.reason, end.seq], ['step', 44]);
    assert.match(end.description, /^End of the run log/);
    const back = await step((c) => c.reverseContinueRequest(T));
    assert.deepEqual([back.reason, back.seq], ['exception', 19], 'reverseContinue stops at the gate failure going backwards');
    const start = await step((c) => c.reverseContinueRequest(T));
    assert.deepEqual([start.reason, start.seq], ['entry', 0]);
    assert.match(start.description, /^Start of the run log/);
    const still = await step((c) => c.stepBackRequest(T));
    assert.deepEqual([still.reason, still.seq], ['entry', 0], 'stepBack at the start stays there');
  });

  it('goto jumps to the event on a transcript line; a turn header jumps to its first event', async () => {
    const t = await transcript(dc);
    const targets = await dc.gotoTargetsRequest({ source: t.source, line: t.lineOfSeq(30) });
    assert.equal(targets.body.targets.length, 1);
    assert.match(targets.body.targets[0].label, /^#30 proposed/);
    const r = await step((c) => c.gotoRequest({ threadId: 1, targetId: targets.body.targets[0].id }));
    assert.deepEqual([r.reason, r.seq, r.line], ['goto', 30, t.lineOfSeq(30)]);
    const header = t.text.split('\n').findIndex((l) => l.startsWith('── Turn 5')) + 1;
    const h = await dc.gotoTargetsRequest({ source: t.source, line: header });
    const r2 = await step((c) => c.gotoRequest({ threadId: 1, targetId: h.body.targets[0].id }));
    assert.deepEqual([r2.reason, r2.seq], ['goto', 22]);
    // stepping backwards from there crosses into turn 4
    const back = await step((c) => c.stepBackRequest(T));
    assert.equal(back.seq, 21);
    await assert.rejects(dc.gotoTargetsRequest({ source: t.source, line: 9999 }), /past the end/);
  });

  it('next stops at a breakpoint inside the turn it steps over', async () => {
    const t = await transcript(dc);
    await dc.setBreakpointsRequest({ source: t.source, breakpoints: [{ line: t.lineOfSeq(5) }] });
    await step((c) => c.nextRequest(T)); // -> 3
    const r = await step((c) => c.nextRequest(T));
    assert.deepEqual([r.reason, r.seq], ['breakpoint', 5]);
  });

  it('pause answers with a stop where it stands; breakpointLocations lists only event lines; completions offer the roots', async () => {
    await step((c) => c.nextRequest(T));
    const p = await step((c) => c.pauseRequest(T));
    assert.deepEqual([p.reason, p.seq], ['pause', 3]);
    const t = await transcript(dc);
    const header = t.text.split('\n').findIndex((l) => l.startsWith('── Turn 2')) + 1;
    const locs = await dc.customRequest('breakpointLocations', { source: t.source, line: header, endLine: header + 2 });
    assert.deepEqual((locs.body as { breakpoints: { line: number }[] }).breakpoints.map((b) => b.line), [header + 1, header + 2]);
    const comp = await dc.completionsRequest({ text: 'to', column: 3 });
    assert.deepEqual(comp.body.targets.map((x) => x.label), ['tokens', 'tool', 'totals']);
  });
});
