// The log's hash chain: every event carries `prev`, the sha256 of the previous line's exact bytes
// (without its line break), so an edited, removed or inserted line breaks the chain at the line
// after it. Hashed on bytes, not decoded text: an edit that makes a line invalid UTF-8 still counts.
import type { LogProblem } from '../protocol/parse';
import { sha256 } from '../tools/hash';

/** The hash of a line's exact bytes, without its line break: what the next event's `prev` is. */
export const lineHash = (bytes: Buffer): string => sha256(bytes);

const isBlank = (bytes: Buffer): boolean => bytes.toString('utf8').trim() === '';

/**
 * The hash of the last non-blank line in the end of a log (null when there is none): what the next
 * event's `prev` must be. `window` holds that whole line (the writer's tail read guarantees it);
 * its first piece may be cut unless the window starts at the file's start (`fromStart`).
 */
export function lastLineHash(window: Buffer, fromStart: boolean): string | null {
  const lines = splitLines(window);
  const whole = fromStart ? lines : lines.slice(1);
  for (let i = whole.length - 1; i >= 0; i--) if (!isBlank(whole[i])) return lineHash(whole[i]);
  return null;
}

function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a, start)) {
    out.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  out.push(buf.subarray(start));
  return out;
}

/** Checks each line's `prev` against the line before it, in file order. */
export class ChainChecker {
  /** Starting mid-file: `previous` is the hash of the line before, `chainedSince` a line at or before it. */
  constructor(
    private previous: string | null = null, // hash of the last non-blank line seen
    private chainedSince: number | null = null, // line of the first event that carried `prev`
  ) {}

  /** Every non-blank line, parsed or not (a bad line is still a link of the chain), after event(). */
  line(bytes: Buffer): void {
    this.previous = lineHash(bytes);
  }

  /** Whether the 64 bytes at `at` of `bytes` spell the hash the next event's prev must be (no string made). */
  expects(bytes: Uint8Array, at: number): boolean {
    const want = this.previous;
    if (want === null || at + want.length > bytes.length) return false;
    for (let k = 0; k < want.length; k++) if (bytes[at + k] !== want.charCodeAt(k)) return false;
    return true;
  }

  /** The hash the next event's prev must be (null: no line yet). */
  get expected(): string | null {
    return this.previous;
  }

  /** An event that parsed, before its own line() call; `prev` undefined: it carries none. The problem, or null. */
  event(prev: string | null | undefined, line: number): LogProblem | null {
    if (prev === undefined) {
      if (this.chainedSince === null) return null; // an older log (or its older part): nothing to check yet
      return broken(line, `the event carries no "prev" although the log is chained since line ${this.chainedSince} (a line added or rewritten by something other than Kite)`);
    }
    this.chainedSince ??= line;
    if (prev === this.previous) return null;
    const before = this.previous === null ? 'there is no line before it' : `the line before it hashes to ${this.previous.slice(0, 12)}…`;
    return broken(line, `hash chain broken: "prev" is ${prev === null ? 'null' : `${prev.slice(0, 12)}…`} but ${before} (a line before it was edited, removed or inserted)`);
  }
}

function broken(line: number, what: string): LogProblem {
  return { line, message: `line ${line}: ${what}`, chain: true };
}
