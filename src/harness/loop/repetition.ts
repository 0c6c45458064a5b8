// Repetition guard: the same call (tool + arguments) made again and again is a loop, not work.
// The 3rd identical call gets a warning in its result; the 5th ends the run `stuck`.

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
