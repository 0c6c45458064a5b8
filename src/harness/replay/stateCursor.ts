// Folded run state at any position, forwards or backwards, fast and exact. A working state is
// moved forward with the reducer; every `every` events a deep copy is kept as a snapshot. Going
// back (or far forward) restarts from the nearest snapshot at or before the target, so no
// position costs more than one clone plus `every` reducer steps. Snapshots are made lazily, the
// first time the fold passes them: opening a log never folds the whole run up front.
import type { KiteEvent } from '../protocol/events';
import type { EventList } from './eventList';

export interface StateFolder<S> {
  initial(): S;
  apply(state: S, event: KiteEvent): S; // may mutate and return the same object
  clone(state: S): S; // deep
}

export class StateCursor<S> {
  private readonly snapshots: S[] = []; // snapshots[k] = state before event k * every
  private working: S;
  private applied = 0; // number of events folded into `working`
  stats = { clones: 0, applied: 0 };

  constructor(
    private readonly events: EventList,
    private readonly folder: StateFolder<S>,
    private readonly every = 256,
  ) {
    this.working = folder.initial();
    this.snapshots.push(folder.clone(this.working));
  }

  /**
   * The state after events[0..i] (i = -1: before any event). Read-only, valid until the next
   * call: the cursor keeps folding into the same object.
   */
  stateAfter(i: number): S {
    const target = Math.max(0, Math.min(i + 1, this.events.length));
    if (target < this.applied || target - this.applied > this.every) {
      const k = Math.min(Math.floor(target / this.every), this.snapshots.length - 1);
      if (k * this.every > this.applied || target < this.applied) {
        this.working = this.folder.clone(this.snapshots[k]);
        this.applied = k * this.every;
        this.stats.clones++;
      }
    }
    while (this.applied < target) {
      this.working = this.folder.apply(this.working, this.events.at(this.applied));
      this.applied++;
      this.stats.applied++;
      if (this.applied % this.every === 0 && this.snapshots.length === this.applied / this.every) {
        this.snapshots.push(this.folder.clone(this.working));
        this.stats.clones++;
      }
    }
    return this.working;
  }

  get snapshotCount(): number {
    return this.snapshots.length;
  }
}
