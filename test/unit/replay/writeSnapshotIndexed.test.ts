// The debugger's write frames rebuild a file from the log (writeSnapshot.ts). For a big log read
// lazily the adapter finds the write calls through the index instead of parsing every event: the
// content shown must be the same as the one rebuilt from the whole log, at every event.
import assert from 'node:assert/strict';
import { readLog } from '../../../src/harness/events/reader';
import { EventWriter } from '../../../src/harness/events/writer';
import type { EventBody, KiteEvent } from '../../../src/harness/protocol/events';
import { openLazyLog } from '../../../src/harness/replay/lazyLog';
import { writeSnapshot, writeSnapshotIndexed } from '../../../src/harness/replay/writeSnapshot';
import { buildRun } from '../../helpers/events';
import { writesAndEdits } from '../../helpers/writesAndEdits';
import { tempDir } from '../loop/kit';

const bodyOf = (e: KiteEvent): EventBody => {
  const { v: _v, seq: _s, run: _r, t: _t, prev: _p, ...body } = e as KiteEvent & { prev?: unknown };
  return body as EventBody;
};

describe('write frames of a lazily read log', () => {
  const fixtures: [string, () => KiteEvent[]][] = [
    ['the demo run: edited approval, edits after writes, several files', () => buildRun()],
    ['one file written whole twice and edited in between and after', () => writesAndEdits().events],
  ];
  for (const [name, events_] of fixtures)
    it(`rebuild the same file content from the index as from the whole log, at every event (${name})`, async () => {
      const w = EventWriter.create(tempDir(), 'demo', () => 0);
      for (const e of events_()) w.append(bodyOf(e));
      const { events } = await readLog(w.path);
      const lazy = await openLazyLog(w.path);
      assert.ok(lazy);
      try {
        let known = 0;
        for (const e of events) {
          const whole = await writeSnapshot(events, e.seq);
          assert.deepEqual(await writeSnapshotIndexed(lazy.index, e.seq), whole, `event ${e.seq} (${e.kind})`);
          if (whole.known) known++;
        }
        assert.ok(known >= 3, `the run has write events with known content (${known})`);
        assert.deepEqual(await writeSnapshotIndexed(lazy.index, 99_999), await writeSnapshot(events, 99_999), 'an unknown seq says so');
      } finally {
        lazy.log.close();
      }
    });
});
