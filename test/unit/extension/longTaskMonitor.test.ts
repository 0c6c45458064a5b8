import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LongTaskMonitor, longTaskMonitorFromEnv, type LongTaskReport } from '../../../src/extension/longTaskMonitor';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end); // a task that keeps the event loop for `ms`
}

describe('long-task monitor (KITE_LONG_TASK_LOG)', () => {
  it('is off unless KITE_LONG_TASK_LOG names a file', () => {
    assert.equal(longTaskMonitorFromEnv({}), null);
    assert.equal(longTaskMonitorFromEnv({ KITE_LONG_TASK_LOG: '  ' }), null);
  });

  it('records a task that held the loop, and writes the longest to the file when disposed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kite-longtask-'));
    try {
      const file = join(dir, 'long-tasks.json');
      const m = longTaskMonitorFromEnv({ KITE_LONG_TASK_LOG: file }) as LongTaskMonitor;
      await sleep(60);
      hold(150);
      await sleep(60);
      const r = m.report();
      assert.ok(r.samples > 0);
      assert.ok(r.longestMs >= 120 && r.longestMs < 1000, `longest ${r.longestMs} ms`);
      assert.ok(r.over50 >= 1);
      // The held stretch was ours (a busy loop): the process used CPU in it.
      assert.ok((r.longest[0]?.cpuMs ?? 0) > 0);
      m.dispose();
      const written = JSON.parse(readFileSync(file, 'utf8')) as LongTaskReport;
      assert.equal(written.longestMs, r.longestMs);
      assert.ok(written.longest.length >= 1 && !Number.isNaN(Date.parse(written.longest[0]!.at)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reset() starts a new window: earlier stalls are forgotten', async () => {
    const m = new LongTaskMonitor();
    try {
      hold(400);
      await sleep(30);
      assert.ok(m.report().longestMs >= 350);
      m.reset();
      await sleep(60);
      const r = m.report();
      assert.ok(r.samples > 0);
      assert.ok(r.longestMs < 350, `longest after reset ${r.longestMs} ms`);
    } finally {
      m.dispose();
    }
  });
});

describe('long-task monitor: garbage collection', () => {
  it("counts the collector's pauses beside the stalls", async () => {
    const m = new LongTaskMonitor();
    try {
      // Garbage until the young generation has been collected a few times.
      let keep = 0;
      for (let round = 0; round < 50 && m.report().gc.totalMs === 0; round++) {
        for (let i = 0; i < 20_000; i++) keep += new Array(64).fill(i).length;
        await sleep(5); // the observer reports on a later turn
      }
      assert.ok(keep > 0);
      assert.ok(m.report().gc.totalMs > 0, 'no garbage collection seen');
      assert.ok(m.report().heapMaxMB > 0, 'the heap in use was sampled');
      m.reset();
      assert.equal(m.report().gc.totalMs, 0);
      assert.equal(m.report().heapMaxMB, 0, 'a reset forgets the heap sampled before');
    } finally {
      m.dispose();
    }
  });
});
