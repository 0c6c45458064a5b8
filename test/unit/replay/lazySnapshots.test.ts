// The debugger's Run state on a lazily read log: events are parsed again whenever the cache lets
// them go, and snapshots share finished calls and messages. The state at any position, reached in
// any order, must still be the state a fresh fold of the log up to there gives.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { foldEvents, type RunState } from '../../../src/harness/protocol/reducer';
import { openReplay } from '../../../src/harness/replay/openReplay';
import { writeLargeLog } from '../../helpers/largeLog';
import { tempDir } from '../loop/kit';

const view = (s: RunState | null): unknown => s && { ...s, conversation: s.conversation?.messages(), repeats: [...s.repeats], calls: Object.entries(s.calls) };

describe('Run state on a lazily read log with shared snapshots', () => {
  it('equals a fresh fold at positions visited out of order, across many snapshots', async () => {
    const path = join(tempDir(), 'big.jsonl');
    writeLargeLog(path, 6000);
    const whole = await readLog(path, { validation: 'structural' });
    const opened = await openReplay(path, { snapshotEvery: 64 });
    assert.ok(opened.lazy, 'read lazily');
    try {
      const rt = opened.runtime;
      assert.equal(rt.length, whole.events.length);
      for (const i of [5900, 12, 3001, 3000, 64, 63, 5999, 1500, 4200, 0]) {
        assert.deepEqual(view(rt.stateAfter(i)), view(foldEvents(whole.events.slice(0, i + 1))), `after event ${i}`);
      }
      assert.ok((rt.cursorStats?.snapshots ?? 0) > 50, 'snapshots were taken');
      assert.ok(Object.keys(rt.stateAfter(5999)!.calls).length > 512, 'more calls than two chunks hold');
    } finally {
      opened.lazy.close();
    }
  });
});
