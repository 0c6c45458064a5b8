// Repetition guard: the same call (tool + arguments) made again and again is a loop, not work.
// The 3rd identical call gets a warning in its result; the 5th ends the run `stuck`. A write that
// changes a file starts the count afresh: running the tests again after a fix is work, not a loop.
import type { KiteEvent } from '../protocol/events';

export const WARN_AT = 3;
export const STUCK_AT = 5;

/** Key of a call: name + arguments with object keys sorted, so key order does not matter. */
export function repetitionKey(name: string, input: unknown): string {
  return `${name} ${stableJson(input)}`;
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}

/** Counts one more occurrence and returns the new count. */
export function countRepeat(repeats: Map<string, number>, key: string): number {
  const n = (repeats.get(key) ?? 0) + 1;
  repeats.set(key, n);
  return n;
}

export function repetitionWarning(name: string, count: number): string {
  return (
    `\n\n[Kite] Warning: this is call number ${count} of ${name} with exactly these arguments. Repeating it will not give a different result. ` +
    `Change your approach (read the error, inspect other files, or try a different fix). The session is stopped as stuck at ${STUCK_AT} identical calls.`
  );
}

/** After a write that changed a file: every other call may now give a different answer. */
export function resetAfterChange(repeats: Map<string, number>, writeKey: string): void {
  const own = repeats.get(writeKey) ?? 0;
  repeats.clear();
  repeats.set(writeKey, own);
}

/** The counts a live run had after these events (resume continues with them). */
export function repeatsFromEvents(events: readonly KiteEvent[]): Map<string, number> {
  const repeats = new Map<string, number>();
  const keys = new Map<string, string>();
  const changing = new Set<string>();
  for (const e of events) {
    if (e.kind === 'proposed') {
      const key = repetitionKey(e.name, e.args);
      keys.set(e.id, key);
      countRepeat(repeats, key);
    } else if (e.kind === 'intent' && e.effect === 'write' && e.pre_hash !== e.post_hash) {
      changing.add(e.id);
    } else if (e.kind === 'tool' && !e.is_error && changing.has(e.id)) {
      const key = keys.get(e.id);
      if (key !== undefined) resetAfterChange(repeats, key);
    }
  }
  return repeats;
}
