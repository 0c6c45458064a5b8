// The top-level fields of one JSON log line, read without JSON.parse of the whole line (issue 17):
// string values are skipped with Buffer.indexOf (native), nested objects by counting brackets
// outside strings, so a 10 KB tool output costs a few native searches. Only the wanted keys are
// decoded. Anything unusual (an escaped key, a stray byte, a line that is not one object) returns
// null and the caller parses the line the ordinary way, so the scan never decides validity alone.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/** Index just past the closing quote of the string that opens at `at` (a quote), or -1. */
function stringEnd(buf: Buffer, at: number, end: number): number {
  // Most strings are short (keys, ids, kinds): a plain loop beats a native call for those.
  const near = Math.min(end, at + 40);
  for (let p = at + 1; p < near; p++) {
    const c = buf[p];
    if (c === BACKSLASH) break;
    if (c === QUOTE) return p + 1;
  }
  let q = at;
  for (;;) {
    q = buf.indexOf(QUOTE, q + 1);
    if (q < 0 || q >= end) return -1;
    let slashes = 0;
    for (let b = q - 1; b > at && buf[b] === BACKSLASH; b--) slashes++;
    if (slashes % 2 === 0) return q + 1;
  }
}

/** Index just past the object or array that opens at `at`, or -1. */
function nestedEnd(buf: Buffer, at: number, end: number): number {
  let depth = 0;
  for (let p = at; p < end; p++) {
    const c = buf[p];
    if (c === QUOTE) {
      const s = stringEnd(buf, p, end);
      if (s < 0) return -1;
      p = s - 1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return p + 1;
    }
  }
  return -1;
}

/** Index just past a number or literal starting at `at` (up to a delimiter), or -1 if it is not one. */
function scalarEnd(buf: Buffer, at: number, end: number): number {
  let p = at;
  while (p < end) {
    const c = buf[p];
    if (c === 0x2c || c === 0x7d || isSpace(c)) break;
    // digits, sign, dot, exponent, and the letters of true/false/null
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x61 && c <= 0x7a) || c === 0x45)) return -1;
    p++;
  }
  return p > at ? p : -1;
}

export type FieldValue = string | number | boolean | null | undefined;

/** Wanted keys as bytes, by length: a key is matched without making a string of it. */
export class KeySet {
  private readonly byLength = new Map<number, { bytes: Buffer; name: string }[]>();
  readonly raw: ReadonlySet<string>;

  /** `raw`: keys whose object or array value is wanted as JSON text (others of that type are skipped). */
  constructor(names: Iterable<string>, raw: Iterable<string> = []) {
    for (const name of names) {
      const bytes = Buffer.from(name, 'latin1');
      const list = this.byLength.get(bytes.length) ?? [];
      list.push({ bytes, name });
      this.byLength.set(bytes.length, list);
    }
    this.raw = new Set(raw);
  }

  /** The wanted key in buf[a, b), or null. */
  match(buf: Buffer, a: number, b: number): string | null {
    const list = this.byLength.get(b - a);
    if (!list) return null;
    for (const k of list) {
      let same = true;
      for (let j = 0; j < k.bytes.length; j++) {
        if (buf[a + j] !== k.bytes[j]) {
          same = false;
          break;
        }
      }
      if (same) return k.name;
    }
    return null;
  }
}

function hasBackslash(buf: Buffer, a: number, b: number): boolean {
  for (let p = a; p < b; p++) if (buf[p] === BACKSLASH) return true;
  return false;
}

/**
 * Values of the wanted top-level keys of the object in buf[start, end): strings, numbers,
 * booleans and null decoded; an object or array value is returned as its raw JSON text only for
 * the set's raw keys. `enough` may stop the scan early once the wanted keys it needs are found
 * (the line must still end with "}"). `into` is cleared and reused (a scan of a million lines need not allocate a
 * map each). null when the line is not a plain one-line object this scan understands.
 */
export function topLevelFields(
  buf: Buffer,
  start: number,
  end: number,
  wanted: KeySet,
  into?: Map<string, FieldValue>,
  enough?: (found: Map<string, FieldValue>) => boolean,
): Map<string, FieldValue> | null {
  const out = into ?? new Map<string, FieldValue>();
  out.clear();
  let p = start;
  while (p < end && isSpace(buf[p])) p++;
  if (buf[p] !== 0x7b) return null;
  p++;
  let first = true;
  for (;;) {
    while (p < end && isSpace(buf[p])) p++;
    if (buf[p] === 0x7d && first) return trailing(buf, p + 1, end) ? out : null;
    first = false;
    if (buf[p] !== QUOTE) return null;
    const keyEnd = stringEnd(buf, p, end) - 1;
    if (keyEnd < 0) return null;
    if (hasBackslash(buf, p + 1, keyEnd)) return null;
    const key = wanted.match(buf, p + 1, keyEnd);
    p = keyEnd + 1;
    while (p < end && isSpace(buf[p])) p++;
    if (buf[p] !== 0x3a) return null;
    p++;
    while (p < end && isSpace(buf[p])) p++;
    const c = buf[p];
    const v0 = p;
    let v1: number;
    if (c === QUOTE) v1 = stringEnd(buf, p, end);
    else if (c === 0x7b || c === 0x5b) v1 = nestedEnd(buf, p, end);
    else v1 = scalarEnd(buf, p, end);
    if (v1 < 0) return null;
    if (key !== null) {
      if (out.has(key)) return null; // a duplicate key: JSON.parse keeps the last; let it decide
      const value = decode(buf, v0, v1, c, wanted.raw.has(key));
      if (value === INVALID) return null;
      out.set(key, value);
      // The caller has what it needs: the rest is checked when the line is parsed in full.
      if (enough?.(out)) return lastByte(buf, start, end) === 0x7d ? out : null;
    }
    p = v1;
    while (p < end && isSpace(buf[p])) p++;
    if (buf[p] === 0x2c) {
      p++;
      continue;
    }
    if (buf[p] === 0x7d) return trailing(buf, p + 1, end) ? out : null;
    return null;
  }
}

const INVALID = Symbol('invalid');

function lastByte(buf: Buffer, start: number, end: number): number {
  let p = end - 1;
  while (p > start && isSpace(buf[p])) p--;
  return buf[p];
}

function trailing(buf: Buffer, p: number, end: number): boolean {
  while (p < end && isSpace(buf[p])) p++;
  return p === end;
}

function decode(buf: Buffer, v0: number, v1: number, first: number, rawWanted: boolean): FieldValue | typeof INVALID {
  if (first === QUOTE) {
    if (!hasBackslash(buf, v0 + 1, v1 - 1)) return buf.toString('utf8', v0 + 1, v1 - 1);
    try {
      return JSON.parse(buf.toString('utf8', v0, v1)) as string;
    } catch {
      return INVALID;
    }
  }
  if (first === 0x7b || first === 0x5b) return rawWanted ? buf.toString('utf8', v0, v1) : undefined;
  // Small non-negative integers (seq, turn, token counts) without making a string.
  if (v1 - v0 <= 15 && first >= 0x30 && first <= 0x39 && (first !== 0x30 || v1 - v0 === 1)) {
    let n = 0;
    let p = v0;
    for (; p < v1; p++) {
      const d = buf[p] - 0x30;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (p === v1) return n;
  }
  const text = buf.toString('latin1', v0, v1);
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return INVALID;
  return Number(text);
}
