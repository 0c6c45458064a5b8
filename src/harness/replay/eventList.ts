// The events of a replay, by position. An in-memory array for small logs and tests; for a big log
// a LazyLog (lazyLog.ts) that keeps line offsets and parses an event only when it is looked at.
import type { KiteEvent } from '../protocol/events';

export interface EventList {
  readonly length: number;
  /** The event at position i (0 <= i < length). */
  at(i: number): KiteEvent;
}

export function eventList(events: readonly KiteEvent[] | EventList): EventList {
  if (!Array.isArray(events)) return events as EventList;
  const arr = events as readonly KiteEvent[];
  return { length: arr.length, at: (i) => arr[i] };
}

/** Position of the first event with this seq, or -1. */
export function indexOfSeq(events: EventList, seq: number): number {
  // Kite numbers events from 0 without gaps: look where it would be first.
  if (Number.isInteger(seq) && seq >= 0 && seq < events.length && events.at(seq).seq === seq) return seq;
  for (let i = 0; i < events.length; i++) if (events.at(i).seq === seq) return i;
  return -1;
}
