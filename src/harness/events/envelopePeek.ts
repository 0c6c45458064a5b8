// A look at a line's envelope without decoding or parsing it: the kind and `prev` of a line laid out
// as Kite's writer lays it out (events/writer.ts: `{"v":1,"seq":N,"run":"…","t":N,"prev":…,"kind":"…",`
// then the body). Why: `kite timeline` has no row for a third of a big log's bytes (proposed,
// approval_request, intent, model_retry; approvals that approve and policy decisions that allow or
// ask: events/timeline.ts SKIPPED_BY_TIMELINE), and decoding and JSON.parse of those lines was a tenth of its time
// (issue 17). Read byte by byte: a regex would need the line decoded first, which costs as much as
// what is saved. A line in any other layout is null and the caller parses it as usual.
// What this vouches for is the envelope only, and for some kinds the first keys of the body (their
// BodyCheck); the rest of the body is not looked at (a key repeated there would win in JSON.parse,
// but only a line rewritten by hand can hold one, and an edit breaks the hash chain at the next
// line, which the reader checks on every line all the same).
import { LOG_VERSION } from '../protocol/events';

export interface PeekedEnvelope {
  kind: string;
  /** Where prev's 64 characters start (between quotes, not yet checked: see prevHex), or null for `"prev":null`. */
  prevAt: number | null;
}

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const HEAD = bytes(`{"v":${LOG_VERSION},"seq":`);
const RUN = bytes(',"run":"');
const T = bytes('","t":');
const PREV = bytes(',"prev":');
const KIND = bytes(',"kind":"');
const NULL = bytes('null');
const QUOTE = 0x22;
const CLOSE = 0x7d;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66);
/** Printable ASCII except `"` and `\`: a string with no escape to decode (a run id, a call id, a tool name as the writer stores them). */
const isPlainChar = (c: number) => c >= 0x20 && c <= 0x7e && c !== QUOTE && c !== 0x5c;

/** Index after `lit` at `i`, or -1. */
function literal(line: Uint8Array, i: number, lit: Uint8Array): number {
  if (i < 0 || i + lit.length > line.length) return -1;
  for (let k = 0; k < lit.length; k++) if (line[i + k] !== lit[k]) return -1;
  return i + lit.length;
}

function digits(line: Uint8Array, i: number): number {
  const start = i;
  while (isDigit(line[i])) i++; // past the end: undefined, not a digit
  return i === start ? -1 : i;
}

/** Index after a non-negative JSON number at `i` (`0`, `12.5`, `1e+21`), or -1. */
function number(line: Uint8Array, i: number): number {
  if (i >= line.length) return -1;
  let j = line[i] === 0x30 ? i + 1 : digits(line, i);
  if (j === -1) return -1;
  if (line[j] === 0x2e) j = digits(line, j + 1);
  if (j !== -1 && (line[j] === 0x65 || line[j] === 0x45)) {
    j++;
    if (line[j] === 0x2b || line[j] === 0x2d) j++;
    j = digits(line, j);
  }
  return j;
}

/** The envelope of `line` when it is in Kite's layout and of one of `kinds`; otherwise null. */
export function peekEnvelope(line: Buffer, kinds: KindBytes): PeekedEnvelope | null {
  const n = line.length;
  if (n < 100 || line[n - 1] !== CLOSE) return null; // 100: shorter than any envelope with a kind and a body
  let i = literal(line, 0, HEAD);
  if (i === -1) return null;
  i = line[i] === 0x30 ? i + 1 : digits(line, i); // seq: no leading zero, as JSON writes it
  i = literal(line, i, RUN);
  if (i === -1) return null;
  while (i < n && isPlainChar(line[i])) i++;
  i = number(line, literal(line, i, T));
  i = literal(line, i, PREV);
  if (i === -1) return null;
  // The kind first (most lines are not of a wanted kind), the prev's 64 hex digits after.
  const prevAt = i;
  const isNull = line[i] === 0x6e;
  i = literal(line, isNull ? i + 4 : i + 66, KIND);
  if (i === -1) return null;
  const kind = kinds.at(line, i);
  if (kind === null) return null;
  if (isNull) return literal(line, prevAt, NULL) === -1 ? null : { kind, prevAt: null };
  if (line[prevAt] !== QUOTE || line[prevAt + 65] !== QUOTE) return null;
  return { kind, prevAt: prevAt + 1 };
}

/**
 * The prev at `at` as a string when it is 64 lowercase hex digits (Kite's layout), else null. Only
 * for a prev that is not the hash the chain expects: the expected one is compared as bytes
 * (ChainChecker.expects) and no string is made for it.
 */
export function prevHex(line: Buffer, at: number): string | null {
  for (let k = at; k < at + 64; k++) if (!isHex(line[k])) return null;
  return line.toString('latin1', at, at + 64);
}

/** What must follow a kind for its line to be wanted: a check of the bytes from `i`, just after the kind's `",`. */
export type BodyCheck = (line: Uint8Array, i: number) => boolean;

/**
 * A set of kinds matched against bytes: `at` names the kind spelled at `i` and closed by `",`, or
 * null. A kind given a BodyCheck is wanted only when its body passes it (its other lines: null).
 */
export class KindBytes {
  private readonly names: string[];
  private readonly spelled: Uint8Array[];
  private readonly checks: (BodyCheck | undefined)[];
  constructor(names: Iterable<string>, when: Readonly<Record<string, BodyCheck>> = {}) {
    this.names = [...new Set([...names, ...Object.keys(when)])];
    this.spelled = this.names.map((name) => bytes(`${name}",`));
    this.checks = this.names.map((name) => when[name]);
  }
  at(line: Uint8Array, i: number): string | null {
    const c = line[i];
    for (let k = 0; k < this.spelled.length; k++) {
      if (this.spelled[k][0] !== c) continue;
      const body = literal(line, i, this.spelled[k]);
      if (body === -1) continue;
      const check = this.checks[k];
      return check === undefined || check(line, body) ? this.names[k] : null;
    }
    return null;
  }
}

const ID = bytes('"id":"');
const APPROVES = bytes('","decision":"approve",');
const NAME = bytes('","name":"');
const DECISION = bytes('","decision":"');
const ALLOW = bytes('allow",');
const ASK = bytes('ask",');

/** Index after `key` (`"id":"`, `","name":"`) and a non-empty string of plain characters (no escape), at `i`; -1 when not there. */
function plainString(line: Uint8Array, i: number, key: Uint8Array): number {
  let j = literal(line, i, key);
  if (j === -1) return -1;
  const start = j;
  while (j < line.length && isPlainChar(line[j])) j++;
  return j > start ? j : -1;
}

/**
 * An approval that approves, as Kite's writer lays it out (`"id":"…","decision":"approve",` right
 * after the kind; the id with no escape in it). A denial or an edit, or any other layout: false.
 */
export const approvesCall: BodyCheck = (line, i) => {
  const j = plainString(line, i, ID);
  return j !== -1 && literal(line, j, APPROVES) !== -1;
};

/**
 * A policy decision that allows or asks, as Kite's writer lays it out (`"id":"…","name":"…",
 * "decision":"allow"` or `"ask"` right after the kind; no escape in the id or the name). A denial,
 * or any other layout: false.
 */
export const allowsOrAsks: BodyCheck = (line, i) => {
  let j = plainString(line, i, ID);
  j = j === -1 ? -1 : plainString(line, j, NAME);
  j = j === -1 ? -1 : literal(line, j, DECISION);
  return j !== -1 && (literal(line, j, ALLOW) !== -1 || literal(line, j, ASK) !== -1);
};
