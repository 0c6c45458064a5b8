// The replay runtime on the demo run and on generated runs: exact state at any position in
// either direction, the fast messages path against a real fold, totals against the reducer,
// and file content reconstruction.
import assert from 'node:assert/strict';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { fileContentAt } from '../../../src/harness/replay/fileContents';
import { runStateFolder } from '../../../src/harness/replay/openReplay';
import { ReplayRuntime } from '../../../src/harness/replay/replayRuntime';
import type { RunState } from '../../../src/harness/protocol/reducer';
import { totalsView } from '../../../src/harness/replay/scope';
import { buildTranscript, eventForLine } from '../../../src/harness/replay/transcript';
import { MONEY_AFTER, MONEY_BEFORE, RunBuilder, TEST_KEPT, buildRun } from '../../helpers/events';

const runtime = (events = buildRun(), snapshotEvery?: number) =>
  new ReplayRuntime<RunState>(events, { folder: runStateFolder, messagesOf: (s) => s.conversation?.messages() ?? null, snapshotEvery });

describe('replay runtime', () => {
  it('state after any event equals a fresh fold, visiting positions in any order', () => {
    const events = buildRun();
    const rt = runtime(events, 4);
    const order = [44, 3, 17, 16, 0, 43, 20, 21, 5, 44, 1];
    for (const i of order) {
      const got = rt.stateAfter(i);
      const want = foldEvents(events.slice(0, i + 1));
      assert.deepEqual({ ...got, conversation: got?.conversation?.messages() }, { ...want, conversation: want.conversation?.messages() }, `at ${i}`);
    }
    assert.ok((rt.cursorStats?.snapshots ?? 0) > 5, 'snapshots were taken');
  });

  it('messages for a turn (fast path) equal a fold up to just before its reply, for every event', () => {
    const rt = runtime();
    for (let i = 0; i < rt.length; i++) assert.deepEqual(rt.messagesFor(i), rt.messagesByFold(i), `event ${i}`);
    assert.equal(rt.messagesFor(2), null, 'no model call before the first turn');
    assert.equal(rt.messagesFor(3)?.length, 1, 'turn 1 was sent the briefing only');
  });

  it('after a compaction, "Messages sent this turn" shows the compacted messages, before it the originals', () => {
    const base = buildRun();
    const models = base.flatMap((e, i) => (e.kind === 'model' ? [i] : []));
    const at = models[2]; // compacted right before the third reply
    const tool = base.slice(0, at).find((e) => e.kind === 'tool');
    assert.ok(tool && tool.kind === 'tool');
    const stub = `[Kite] ${tool.name}: cut by compaction; read it again if you need it`;
    const compaction = { v: base[0].v, run: base[0].run, t: base[at].t, seq: 0, kind: 'compaction', turn: 2, tokens_before: 900, tokens_after: 400, window: 1000, conv_chars_after: 100, stubbed: [{ id: tool.id, name: tool.name, chars: tool.output.length, stub }], summary: null, note: 'the cached prefix breaks here, once' } as const;
    const events = [...base.slice(0, at), compaction, ...base.slice(at)].map((e, seq) => ({ ...e, seq })) as typeof base;
    const rt = runtime(events, 4);
    for (let i = 0; i < rt.length; i++) assert.deepEqual(rt.messagesFor(i), rt.messagesByFold(i), `event ${i}`);
    const text = (i: number) => JSON.stringify(rt.messagesFor(i));
    assert.ok(text(at + 1).includes(stub), 'the turn after the compaction was sent the stub');
    assert.ok(!text(at + 1).includes(JSON.stringify(tool.output).slice(1, -1)) || tool.output === '', 'and not the cut output');
    assert.ok(!text(models[1]).includes(stub) && text(models[1]).includes(JSON.stringify(tool.output).slice(1, -1)), 'an earlier turn shows the output it was sent');
  });

  it('totals at every event match the reducer', () => {
    const events = buildRun();
    const rt = runtime(events);
    for (let i = 0; i < events.length; i++) {
      const s = foldEvents(events.slice(0, i + 1));
      const t = totalsView(rt.index, i);
      assert.deepEqual([t.turns, t.tokens, t.gate_failures, t.cost], [s.turns, s.tokens.total, s.gateFailures, Math.round(s.cost_usd * 1e6) / 1e6], `event ${i}`);
    }
  });

  it('reconstructs file content at a moment from writes and edits (with the person\'s edit), checked by hash', () => {
    const rt = runtime();
    assert.deepEqual(fileContentAt(rt.index, 'ledgerly/money.py', 12), { known: false, reason: 'ledgerly/money.py was not written by the run before this point', writes: 0 });
    assert.deepEqual(fileContentAt(rt.index, 'ledgerly/money.py', 13), { known: true, content: MONEY_AFTER, writes: 1 });
    const edited = fileContentAt(rt.index, 'ledgerly/money.py', 44);
    assert.ok(edited.known && edited.content.includes('"""Fee rounded half-up to the paisa."""'));
    assert.deepEqual(fileContentAt(rt.index, 'tests/test_rounding.py', 28), { known: true, content: TEST_KEPT, writes: 1 });
  });

  it('says "unknown" for a file that was only edited, never written whole', () => {
    const b = new RunBuilder('edits').start();
    b.turnWithCalls('Edit.', [{ id: 'e1', name: 'edit_file', args: { path: 'x.py', old_string: 'round', new_string: 'quantize' }, before: MONEY_BEFORE, after: MONEY_BEFORE.replace('round', 'quantize') }]);
    const rt = runtime(b.end().events());
    const c = fileContentAt(rt.index, 'x.py', rt.length - 1);
    assert.equal(c.known, false);
    assert.match(c.known ? '' : c.reason, /existed before the run and was only edited/);
  });

  it('transcript: one header per turn, one line per event, lines map both ways', () => {
    const events = buildRun();
    const t = buildTranscript(events, 'demo');
    assert.equal(t.lineCount, 1 + t.groups.length + events.length);
    assert.equal(t.groups.length, 9, 'start + 8 turns');
    for (let i = 0; i < events.length; i++) {
      assert.equal(eventForLine(t, t.lineOfEvent[i]), i);
      assert.match(t.line(t.lineOfEvent[i]), new RegExp(`^ {4}#${events[i].seq} `));
    }
    assert.equal(eventForLine(t, t.groups[3].headerLine), t.groups[3].first);
    assert.equal(eventForLine(t, t.lineCount + 1), null);
  });

  it('next/stepOut never move backwards and stop at the end of the log', () => {
    const rt = runtime();
    rt.entry();
    let last = 0;
    for (let k = 0; k < 20; k++) {
      const s = k % 2 ? rt.next() : rt.stepOut();
      assert.ok(s.index >= last);
      last = s.index;
    }
    assert.equal(last, rt.length - 1);
    assert.match(rt.lastStop?.description ?? '', /^End of the run log/);
  });
});
