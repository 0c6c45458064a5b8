// How fast the timeline's reader may go: as fast as the page takes and applies its batches, never
// faster. VS Code resolves webview.postMessage when the page's frame *received* a message, not when
// the page applied it, so counting deliveries alone lets a slow page's backlog grow — in the
// workbench's relay and the page's own queue, which then compete with the extension host for the
// CPU. The page reports how many batches it applied since the snapshot (its `applied` message).
// No `vscode` import: unit-tested on its own.

export interface PacerLimits {
  /** Batches posted and not yet received by the page. */
  inFlight: number;
  /** Batches the page received and has not applied yet: one being applied while the next is read. */
  appliedAhead: number;
  /** Never stalled by a page that does not answer: after this long the reader goes on regardless. */
  waitMs: number;
}

export const PACER_LIMITS: PacerLimits = { inFlight: 2, appliedAhead: 1, waitMs: 2000 };

export class BatchPacer {
  /** postMessage's promise of each recent batch (still on its way, or still to be applied), by
   *  number (from 1). */
  private deliveries = new Map<number, Promise<unknown>>();
  private postedCount = 0;
  private appliedCount = 0;
  private generation = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly limits: PacerLimits = PACER_LIMITS) {}

  /** A new snapshot (or none): the count starts again and whoever waits for the old one goes on. */
  reset(): void {
    this.generation++;
    this.deliveries = new Map();
    this.postedCount = 0;
    this.appliedCount = 0;
    this.wakeAll();
  }

  /** The page's report: batches applied since its last snapshot. A report from before a reset
   *  counts the old snapshot's batches: it may only let the reader go on early, never hold it. */
  pageApplied(batches: number): void {
    this.appliedCount = batches;
    this.wakeAll();
  }

  /** Resolves when the reader may read the next batch after this one (`posted`: postMessage's
   *  promise, true when the page received the batch). */
  async posted(posted: Promise<unknown>): Promise<void> {
    const gen = this.generation;
    const index = ++this.postedCount;
    this.deliveries.set(index, posted);
    // At most inFlight batches on their way: wait for the one posted inFlight batches ago.
    const oldest = this.deliveries.get(index - this.limits.inFlight);
    if (oldest) await Promise.race([oldest, sleep(this.limits.waitMs)]);
    // The batch the page must have applied before the reader goes on.
    const due = index - this.limits.appliedAhead;
    const dueDelivery = this.deliveries.get(due);
    const keepFrom = index - Math.max(this.limits.inFlight, this.limits.appliedAhead) + 1;
    for (const n of this.deliveries.keys()) if (n < keepFrom) this.deliveries.delete(n);
    // A page that did not receive it (hidden and discarded, or gone) will report nothing.
    if (!dueDelivery || (await Promise.race([dueDelivery, sleep(this.limits.waitMs)])) !== true) return;
    const deadline = Date.now() + this.limits.waitMs;
    while (gen === this.generation && this.appliedCount < due && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, deadline - Date.now());
        this.waiting.add(done);
      });
    }
  }

  private wakeAll(): void {
    for (const wake of [...this.waiting]) wake();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
