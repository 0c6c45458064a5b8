import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { atQuietMoment } from '../../../src/extension/quietMoment';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end); // a task that keeps the event loop for `ms`
}
const FAST = { afterMs: 50, quietMs: 300, tickMs: 20, lateMs: 10, cpuShare: 0.2 };

describe('atQuietMoment: the code cache is written when the extension host is quiet', function () {
  this.timeout(10_000);
  it('runs the work once, after afterMs, when nothing is going on', async () => {
    let runs = 0;
    const t0 = performance.now();
    let at = 0;
    atQuietMoment(() => {
      runs++;
      at = performance.now() - t0;
    }, FAST);
    await sleep(1500);
    assert.equal(runs, 1);
    assert.ok(at >= FAST.afterMs + FAST.quietMs, `ran ${at.toFixed(0)} ms after the call`);
  });

  it('waits while the loop is held by tasks, and runs once they stop', async () => {
    let ran = false;
    atQuietMoment(() => (ran = true), FAST);
    const busy = setInterval(() => hold(40), 60);
    await sleep(1200);
    const ranWhileBusy = ran;
    clearInterval(busy);
    await sleep(1000);
    assert.equal(ranWhileBusy, false, 'not while 40 ms tasks held the loop');
    assert.equal(ran, true, 'once the loop was quiet');
  });

  it('waits while another thread of the process keeps a CPU busy (a timeline reader), though the loop keeps time', async () => {
    let ran = false;
    atQuietMoment(() => (ran = true), FAST);
    const worker = new Worker('const end = Date.now() + 1200; while (Date.now() < end);', { eval: true });
    const exited = new Promise((r) => worker.once('exit', r));
    await sleep(1000);
    const ranWhileBusy = ran;
    await exited;
    await sleep(1000);
    assert.equal(ranWhileBusy, false, 'not while the process used a whole CPU');
    assert.equal(ran, true);
  });

  it('never runs once cancelled', async () => {
    let ran = false;
    const q = atQuietMoment(() => (ran = true), FAST);
    await sleep(100);
    q.cancel();
    await sleep(800);
    assert.equal(ran, false);
  });
});
