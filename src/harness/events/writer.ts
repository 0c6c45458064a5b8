// The event log writer: one JSON line per event, appended with ONE appendFileSync, so a killed
// process leaves every finished event on disk. Stamps the envelope (v, seq, run, t) and redacts
// secrets before the line is written. Each line carries `prev`, the hash of the line before it
// (events/chain.ts). A call's arguments already stored in its model event are written as a
// reference (protocol/argsRef.ts, events/storedArgs.ts). The log folder gets a `.gitignore` of `*`.
import { appendFileSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LOG_VERSION, type EventBody, type KiteEvent } from '../protocol/events';
import { lastLineHash, lineHash } from './chain';
import type { ArgsRefResolver } from '../protocol/argsRef';
import { Redactor } from './redact';
import { StoredArgs } from './storedArgs';

/** Milliseconds on a monotonic clock (injected for tests). */
export type Clock = () => number;
export const monotonicClock: Clock = () => performance.now();

export type EventListener = (event: KiteEvent) => void;

export class EventWriter {
  private seq: number;
  private readonly listeners: EventListener[] = [];
  private readonly args: StoredArgs;

  private constructor(
    readonly path: string,
    readonly runId: string,
    private readonly clock: Clock,
    private readonly startMs: number,
    firstSeq: number,
    private readonly redactor: Redactor,
    private prev: string | null,
    refs?: ArgsRefResolver,
  ) {
    this.seq = firstSeq;
    this.args = new StoredArgs(refs);
  }

  /** A new log `<logDir>/<runId>.jsonl`. */
  static create(logDir: string, runId: string, clock: Clock = monotonicClock, redactor = new Redactor()): EventWriter {
    ensureLogDir(logDir);
    const path = join(logDir, `${runId}.jsonl`);
    if (existsSync(path)) throw new Error(`log ${path} already exists; a run never writes into another run's log`);
    return new EventWriter(path, runId, clock, clock(), 0, redactor, null);
  }

  /** Continue an existing log: seq and t go on from its last complete event (used by resume).
   *  `refs`: the reader's references state at the end of the log (StreamResult.refs), so the calls
   *  of its last reply are still written by reference. */
  static reopen(path: string, clock: Clock = monotonicClock, redactor = new Redactor(), refs?: ArgsRefResolver): EventWriter {
    const { tail, endsWithNewline, size, window, fromStart } = readTail(path);
    const last = lastCompleteEvent(tail);
    // A torn last line would glue onto our first line: start on a fresh one.
    if (size > 0 && !endsWithNewline) appendFileSync(path, '\n');
    // The chain goes on from the last line as it is on disk, torn or not (the reader hashes it too).
    const prev = lastLineHash(window, fromStart);
    const seq = typeof last?.seq === 'number' ? last.seq + 1 : 0;
    const t = typeof last?.t === 'number' ? last.t : 0;
    const run = typeof last?.run === 'string' ? last.run : basename(path).replace(/\.jsonl$/, '');
    ensureLogDir(dirname(path));
    return new EventWriter(path, run, clock, clock() - t * 1000, seq, redactor, prev, refs);
  }

  /** Seconds since the run started (2 decimals), as in the original Kite. */
  now(): number {
    return Math.round(Math.max(0, this.clock() - this.startMs) / 10) / 100;
  }

  get nextSeq(): number {
    return this.seq;
  }

  append(body: EventBody): KiteEvent {
    const event = { v: LOG_VERSION, seq: this.seq, run: this.runId, t: this.now(), prev: this.prev, ...this.args.compact(body) } as KiteEvent;
    const raw = JSON.stringify(event);
    const line = this.redactor.redact(raw);
    const bytes = Buffer.from(line + '\n');
    appendFileSync(this.path, bytes);
    this.prev = lineHash(bytes.subarray(0, bytes.length - 1));
    this.seq++;
    crashForTests(event.seq);
    // Listeners see what is on disk: the redacted event when something was redacted, with a
    // reference resolved (to the stored, i.e. redacted, arguments).
    const written = line === raw ? event : (JSON.parse(line) as KiteEvent);
    this.args.stored(body, written, line !== raw);
    for (const l of this.listeners) l(written);
    return written;
  }

  /** Called with every event after it is on disk. Returns an unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}

/**
 * The end of a log, enough to hold its last complete line: a resumed 100 MB log is never read
 * whole. Starts with 64 KB and doubles until the window holds a line break before the last line.
 */
function readTail(path: string): { tail: string; endsWithNewline: boolean; size: number; window: Buffer; fromStart: boolean } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    for (let want = 64 * 1024; ; want *= 2) {
      const len = Math.min(size, want);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      const text = buf.toString('utf8');
      const endsWithNewline = text.endsWith('\n');
      const body = endsWithNewline ? text.slice(0, -1) : text;
      // Whole file read, or a complete line is in the window (something after its line break).
      if (len === size || hasCompleteLine(body)) {
        // Drop the first (possibly cut) line unless the window starts at the file's start.
        const tail = len === size ? text : text.slice(text.indexOf('\n') + 1);
        return { tail, endsWithNewline, size, window: buf, fromStart: len === size };
      }
    }
  } finally {
    closeSync(fd);
  }
}

function hasCompleteLine(body: string): boolean {
  const lines = body.split('\n').slice(1); // the first may be cut by the window
  return lines.some((l) => {
    if (!l.trim()) return false;
    try {
      JSON.parse(l);
      return true;
    } catch {
      return false;
    }
  });
}

function lastCompleteEvent(text: string): { seq?: unknown; t?: unknown; run?: unknown } | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i].trim()) continue;
    try {
      return JSON.parse(lines[i]) as { seq?: unknown; t?: unknown; run?: unknown };
    } catch {
      // a torn last line: keep looking upward for the last complete event
    }
  }
  return null;
}

// Test-only hook: KITE_TEST_CRASH_AFTER_SEQ=N makes the process SIGKILL itself right after event N
// is on disk (kill -9 at an exact event boundary; test/system/resume/crash.test.ts). Unset in real use.
function crashForTests(seq: number): void {
  const at = process.env.KITE_TEST_CRASH_AFTER_SEQ;
  if (at !== undefined && at !== '' && Number(at) === seq) process.kill(process.pid, 'SIGKILL');
}

function ensureLogDir(logDir: string): void {
  mkdirSync(logDir, { recursive: true });
  const ignore = join(logDir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '*\n');
}

/** A run id whose log does not exist yet in logDir (adds -2, -3, … on a clash within one second). */
export function uniqueRunId(logDir: string, base: string): string {
  let id = base;
  for (let n = 2; existsSync(join(logDir, `${id}.jsonl`)); n++) id = `${base}-${n}`;
  return id;
}

/** `<YYYYMMDD-HHMMSS>-<feature>` in UTC, the log file name without .jsonl. */
export function runIdFor(featureId: string, date = new Date(), suffix = ''): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
  return `${stamp}-${featureId.replace(/[^\w.-]/g, '_')}${suffix}`;
}
