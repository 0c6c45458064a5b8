import assert from 'node:assert/strict';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { RecentEvents } from '../../../webview-ui/model/recentEvents';
import { TimelineStore } from '../../../webview-ui/model/timelineStore';
import { VIEW_RECENT_EVENTS } from '../../../src/harness/protocol/webviewMessages';
import { ev } from '../../helpers/events';

const warning = (seq: number): KiteEvent => ({ ...ev.warning({ message: `w${seq}` }), seq, run: 'r', t: seq });

describe('RecentEvents (the events the page keeps whole)', () => {
  it('keeps only the most recent events; an older one is null until the extension sends it', () => {
    const r = new RecentEvents(3);
    for (let i = 0; i < 5; i++) r.push(warning(i));
    assert.equal(r.length, 5);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => r.at(i)?.seq ?? null), [null, null, 2, 3, 4]);
    assert.equal(r.at(5), null);
    assert.equal(r.at(-1), null);
    r.remember(0, warning(0));
    assert.equal(r.at(0)?.seq, 0);
  });

  it('forgets the oldest fetched event past 64 (memory stays bounded however much a person clicks)', () => {
    const r = new RecentEvents(1);
    for (let i = 0; i < 200; i++) r.push(warning(i));
    for (let i = 0; i < 100; i++) r.remember(i, warning(i));
    assert.equal(r.at(35), null);
    assert.equal(r.at(36)?.seq, 36);
    assert.equal(r.at(99)?.seq, 99);
  });

  it('a store of a long log holds every row but only the last VIEW_RECENT_EVENTS events', () => {
    const s = new TimelineStore();
    const n = VIEW_RECENT_EVENTS + 500;
    s.append(Array.from({ length: n }, (_, i) => warning(i)));
    assert.equal(s.rowCount, n);
    assert.equal(s.events.length, n);
    assert.equal(s.events.at(0), null);
    assert.equal(s.events.at(499), null);
    assert.equal(s.events.at(500)?.seq, 500);
    assert.equal(s.events.at(n - 1)?.seq, n - 1);
  });
});
