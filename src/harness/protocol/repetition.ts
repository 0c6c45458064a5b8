// Repetition counting, folded from the log: the same call (tool + arguments) made again and again
// is a loop, not work. A write that changed a file starts the count afresh (running the tests
// again after a fix is work). The loop reads the counts from the run state; resume gets the same
// counts from the same fold.
import { canonicalJson } from './argsRef';

/** Key of a call: name + arguments with object keys sorted, so key order does not matter. */
export function repetitionKey(name: string, input: unknown): string {
  return `${name} ${canonicalJson(input)}`;
}

/** Counts one more occurrence and returns the new count. */
export function countRepeat(repeats: Map<string, number>, key: string): number {
  const n = (repeats.get(key) ?? 0) + 1;
  repeats.set(key, n);
  return n;
}

/** After a write that changed a file: every other call may now give a different answer. */
export function resetAfterChange(repeats: Map<string, number>, writeKey: string): void {
  const own = repeats.get(writeKey) ?? 0;
  repeats.clear();
  repeats.set(writeKey, own);
}
