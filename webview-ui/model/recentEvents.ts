// The events the page keeps whole: the most recent ones (a live run's tail, what a person reads
// while it streams) and the few older ones the details pane asked the extension for. Rows hold
// what the list shows; this keeps the page's memory independent of the number of events.
import type { KiteEvent } from '../../src/harness/protocol/events';

/** Older events kept after the extension sent them (the last ones selected). */
const FETCHED_KEPT = 64;

export class RecentEvents {
  private readonly ring: (KiteEvent | undefined)[];
  private pushed = 0;
  /** Row index → event, in the order they arrived (a Map keeps insertion order: oldest first). */
  private readonly fetched = new Map<number, KiteEvent>();

  constructor(private readonly capacity: number) {
    this.ring = new Array<KiteEvent | undefined>(capacity);
  }

  /** Events seen (the row count). */
  get length(): number {
    return this.pushed;
  }

  /** The next row's event; `whole` false: the event was cut to what its row shows (the
   *  extension's rowsOnly batches), so the details pane asks for it like an older one. */
  push(e: KiteEvent, whole = true): void {
    this.ring[this.pushed % this.capacity] = whole ? e : undefined;
    this.pushed++;
  }

  /** The event of this row, when the page still holds it (null: ask the extension). */
  at(index: number): KiteEvent | null {
    if (index < 0 || index >= this.pushed) return null;
    if (index >= this.pushed - this.capacity) return this.ring[index % this.capacity] ?? null;
    return this.fetched.get(index) ?? null;
  }

  /** Keeps an event the extension sent for this row (the oldest such one goes past FETCHED_KEPT). */
  remember(index: number, e: KiteEvent): void {
    this.fetched.delete(index);
    this.fetched.set(index, e);
    if (this.fetched.size > FETCHED_KEPT) this.fetched.delete(this.fetched.keys().next().value as number);
  }
}
