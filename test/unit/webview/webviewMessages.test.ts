import assert from 'node:assert/strict';
import { EventSchema } from '../../../src/harness/protocol/events';
import { HostMessageSchema, VIEW_ARG_LIMIT, ViewMessageSchema, describeIssues, fullLengthOf, isTrimmed, trimEventForView } from '../../../src/harness/protocol/webviewMessages';
import { builderFor, ev } from '../../helpers/events';
import { EVENT_KINDS } from '../../../src/harness/protocol/events';

const source = { log: '/w/.kite/runs/r.jsonl', title: 'r', live: true };

describe('extension ⇄ webview messages', () => {
  it('accepts a snapshot and increments carrying valid events of every kind', () => {
    const events = EVENT_KINDS.map((k, i) => ({ ...builderFor[k](), seq: i }));
    assert.ok(HostMessageSchema.safeParse({ type: 'snapshot', source, total: events.length, events, problems: [], loading: false }).success);
    assert.ok(HostMessageSchema.safeParse({ type: 'append', events: [events[3]], problems: [{ line: 9, message: 'line 9: invalid JSON' }], loading: false }).success);
    assert.ok(HostMessageSchema.safeParse({ type: 'status', live: false, message: 'The log file was removed.' }).success);
    assert.ok(HostMessageSchema.safeParse({ type: 'reveal', seq: 4 }).success);
  });

  it('rejects a message with an invalid event, naming where it is wrong', () => {
    const bad = HostMessageSchema.safeParse({ type: 'append', events: [{ ...ev.model(), turn: 'two' }], problems: [], loading: false });
    assert.equal(bad.success, false);
    if (!bad.success) assert.match(describeIssues(bad.error), /^events\.0\.turn: /);
    assert.equal(HostMessageSchema.safeParse({ type: 'snapshot', events: [] }).success, false);
    assert.equal(HostMessageSchema.safeParse({ type: 'evil', html: '<script>' }).success, false);
    assert.equal(HostMessageSchema.safeParse('ready').success, false);
  });

  it('accepts the page\'s commands only with a valid seq', () => {
    for (const type of ['openDiff', 'openOutput', 'openRaw', 'replayFromHere'] as const) {
      assert.ok(ViewMessageSchema.safeParse({ type, seq: 12 }).success, type);
      assert.equal(ViewMessageSchema.safeParse({ type, seq: -1 }).success, false);
      assert.equal(ViewMessageSchema.safeParse({ type, seq: '12' }).success, false);
    }
    assert.ok(ViewMessageSchema.safeParse({ type: 'ready' }).success);
    assert.ok(ViewMessageSchema.safeParse({ type: 'applied', batches: 1, events: 45, lastSeq: 44, selected: null, totals: { turns: 8, tokens: 26750, cost_usd: 0.026 } }).success);
    assert.equal(ViewMessageSchema.safeParse({ type: 'applied', events: 45, lastSeq: 44, selected: null, totals: { turns: 8, tokens: 26750, cost_usd: 0.026 } }).success, false, 'the batch count is required');
    assert.equal(ViewMessageSchema.safeParse({ type: 'applied', batches: 1, events: 45, lastSeq: 44, selected: null }).success, false, 'the totals are required');
    assert.equal(ViewMessageSchema.safeParse({ type: 'applied', events: 45, lastSeq: 44 }).success, false);
    assert.equal(ViewMessageSchema.safeParse({ type: 'runCommand', command: 'rm -rf /' }).success, false);
  });

  it('trims long strings for the view, keeps short ones, and stays a valid event', () => {
    const big = ev.tool({ output: 'o'.repeat(50_000), args: { path: 'a.ts', content: 'c'.repeat(3000) } });
    const t = trimEventForView(big, 2000);
    assert.ok(EventSchema.safeParse(t).success);
    assert.equal(t.output.length, 2000 + '… [50000 characters in all]'.length);
    assert.ok(isTrimmed(t.output));
    assert.equal(fullLengthOf(t.output), 50_000);
    assert.equal(fullLengthOf((t.args as { content: string }).content), 3000);
    assert.equal((t.args as { path: string }).path, 'a.ts');
    // Arguments (repeated in proposed/approval/intent/tool events, only summarized) are cut shorter.
    assert.equal((t.args as { content: string }).content.length, VIEW_ARG_LIMIT + '… [3000 characters in all]'.length);
    assert.equal(big.output.length, 50_000, 'the original is not modified');
    const small = ev.tool();
    assert.equal(trimEventForView(small), small, 'an event without long strings is not copied');
  });

  it("leaves the chain link out (the page never reads it; the log keeps it) and nothing else", () => {
    const linked = { ...ev.tool({ output: 'short' }), prev: 'a'.repeat(64) };
    const t = trimEventForView(linked);
    assert.ok(EventSchema.safeParse(t).success);
    assert.equal('prev' in t, false);
    const { prev: _prev, ...rest } = linked;
    assert.deepEqual(t, rest);
    assert.equal(linked.prev, 'a'.repeat(64), 'the original keeps it');
  });
});
