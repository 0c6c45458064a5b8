import assert from 'node:assert/strict';
import { BatchPacer } from '../../../src/extension/timeline/batchPacer';

/** Whether the promise settled within a few turns of the event loop. */
async function settled(p: Promise<unknown>, ms = 20): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, ms));
  return done;
}

describe('BatchPacer: the timeline reader goes no faster than the page applies', () => {
  const limits = { inFlight: 2, appliedAhead: 1, waitMs: 5000 };

  it('lets the reader go on with one batch ahead of what the page applied, and holds it after that', async () => {
    const pacer = new BatchPacer(limits);
    // The page received batch 1 (the snapshot): one unapplied batch is allowed.
    assert.equal(await settled(pacer.posted(Promise.resolve(true))), true);
    // Batch 2 received, the page still applying 1: the reader waits.
    const second = pacer.posted(Promise.resolve(true));
    assert.equal(await settled(second), false, 'a received but unapplied backlog of 2 holds the reader');
    pacer.pageApplied(1);
    assert.equal(await settled(second), true, 'the page applied the snapshot: the reader goes on');
  });

  it('does not wait for a page that did not receive the batch (hidden and discarded)', async () => {
    const pacer = new BatchPacer(limits);
    await pacer.posted(Promise.resolve(false));
    assert.equal(await settled(pacer.posted(Promise.resolve(true))), true, 'no report will come for a batch the page never got');
  });

  it('goes on after the wait limit when the page never reports', async () => {
    const pacer = new BatchPacer({ ...limits, waitMs: 50 });
    await pacer.posted(Promise.resolve(true));
    const second = pacer.posted(Promise.resolve(true));
    assert.equal(await settled(second, 10), false);
    assert.equal(await settled(second, 200), true, 'a silent page stalls the reader 50 ms at most');
  });

  it('releases a reader waiting on the old snapshot when the page gets a new one', async () => {
    const pacer = new BatchPacer(limits);
    await pacer.posted(Promise.resolve(true));
    const waiting = pacer.posted(Promise.resolve(true));
    assert.equal(await settled(waiting), false);
    pacer.reset();
    assert.equal(await settled(waiting), true);
    // The count starts again: the new snapshot's first batch does not wait for the old reports.
    assert.equal(await settled(pacer.posted(Promise.resolve(true))), true);
  });

  it('waits for deliveries too: no more than inFlight batches on their way', async () => {
    const pacer = new BatchPacer({ ...limits, appliedAhead: 100 });
    const never = new Promise<boolean>(() => undefined);
    assert.equal(await settled(pacer.posted(never)), true);
    assert.equal(await settled(pacer.posted(never)), true);
    assert.equal(await settled(pacer.posted(never)), false, 'a third batch waits while two are on their way');
  });
});
