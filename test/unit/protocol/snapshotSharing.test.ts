// Reducer snapshots share finished calls and messages with the state they were taken from
// (issue 17). Sharing must never show: a snapshot reads exactly like a fresh fold up to its
// position, whatever the working state does afterwards, and the other way round.
import assert from 'node:assert/strict';
import { ChunkedList, CHUNK } from '../../../src/harness/protocol/chunkedList';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { applyEvent, cloneRunState, foldEvents, initialRunState, type RunState } from '../../../src/harness/protocol/reducer';
import { RunBuilder, ev } from '../../helpers/events';

/** A run with more calls than fit in two chunks, writes and reads mixed, so calls stay open across positions. */
function longRun(calls: number): KiteEvent[] {
  const b = new RunBuilder().start();
  for (let i = 0; i < calls; i += 3) {
    const specs = [0, 1, 2].map((j) => {
      const n = i + j;
      return n % 2 ? { id: `c${n}`, name: 'write_file', args: { path: `f${n % 7}.txt`, content: `v${n}` }, before: `v${n - 1}` } : { id: `c${n}`, name: 'read_file', args: { path: `f${n % 7}.txt` }, output: `content ${n}` };
    });
    b.turnWithCalls(`turn ${i}`, specs);
  }
  return b.events();
}

/** Everything a reader of the state can see, in plain data. */
function view(s: RunState): unknown {
  return { ...s, conversation: s.conversation?.messages(), repeats: [...s.repeats], calls: Object.entries(s.calls).map(([id, c]) => [id, { ...c }]) };
}

describe('reducer snapshots share what is finished', () => {
  const events = longRun(3 * CHUNK);

  it('a snapshot at any position reads like a fresh fold to there, after the working state moved on', () => {
    const s = initialRunState();
    const snaps: [number, RunState][] = [];
    events.forEach((e, i) => {
      applyEvent(s, e);
      if (i % 151 === 0) snaps.push([i, cloneRunState(s)]);
    });
    assert.ok(Object.keys(s.calls).length >= 3 * CHUNK);
    for (const [i, snap] of snaps) assert.deepEqual(view(snap), view(foldEvents(events.slice(0, i + 1))), `snapshot after event ${i}`);
  });

  it('a copy of a snapshot folded on reaches the same end state, and leaves the snapshot as it was', () => {
    const s = initialRunState();
    for (const e of events.slice(0, 500)) applyEvent(s, e);
    const snap = cloneRunState(s);
    const open = Object.values(snap.calls).filter((c) => c.stage !== 'done').map((c) => c.id);
    const resumed = cloneRunState(snap);
    for (const e of events.slice(500)) applyEvent(resumed, e);
    assert.deepEqual(view(resumed), view(foldEvents(events)));
    assert.deepEqual(view(snap), view(foldEvents(events.slice(0, 500))));
    for (const id of open) assert.notEqual(snap.calls[id].stage, 'done', `${id} is still open in the snapshot`);
  });

  it('two copies that go different ways keep their own calls', () => {
    const base = initialRunState();
    for (const e of events.slice(0, 300)) applyEvent(base, e);
    const other = cloneRunState(base);
    for (const e of events.slice(300, 400)) applyEvent(base, e);
    const seq = other.lastSeq + 1;
    applyEvent(other, { ...ev.proposed({ turn: other.turns, id: 'elsewhere', name: 'read_file', args: { path: 'x' } }), seq, run: base.meta!.run, t: 0 } as KiteEvent);
    assert.equal(base.calls.elsewhere, undefined);
    assert.equal(other.calls.elsewhere?.stage, 'proposed');
    const later = events.slice(300, 400).find((e) => e.kind === 'proposed');
    assert.ok(later && later.kind === 'proposed');
    assert.equal(other.calls[later.id], undefined, 'a call only the other copy saw');
    assert.equal(base.calls[later.id]?.id, later.id);
    // ...and the first copy folds on as if the other never existed
    for (const e of events.slice(400)) applyEvent(base, e);
    assert.deepEqual(view(base), view(foldEvents(events)));
  });

  it('calls read like a plain record: keys in order of first appearance, values, in, JSON', () => {
    const s = foldEvents(new RunBuilder().start().turnWithCalls('two', [{ id: 'b', name: 'read_file', args: { path: 'a' }, output: 'x' }, { id: 'a', name: 'read_file', args: { path: 'b' }, output: 'y' }]).events());
    assert.deepEqual(Object.keys(s.calls), ['b', 'a']);
    assert.ok('a' in s.calls && !('zz' in s.calls));
    assert.deepEqual(Object.values(s.calls).map((c) => c.stage), ['done', 'done']);
    assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(s.calls)) as object), ['b', 'a']);
    assert.throws(() => delete s.calls.a, /never removed/);
  });

  it('ChunkedList copies are independent across chunk boundaries', () => {
    const a = ChunkedList.from(Array.from({ length: CHUNK * 2 + 5 }, (_, i) => i));
    const b = a.copy();
    a.set(3, -3);
    b.set(CHUNK + 1, -1);
    a.push(1000);
    b.push(2000);
    assert.equal(b.at(3), 3);
    assert.equal(a.at(CHUNK + 1), CHUNK + 1);
    assert.deepEqual([a.at(a.length - 1), b.at(b.length - 1)], [1000, 2000]);
    assert.equal(a.length, b.length);
    assert.throws(() => a.set(a.length, 0), /outside the list/);
  });
});
