// The one log reader (CLI, extension host, debug adapter). Streams the file in fixed-size chunks
// and splits lines on bytes, so memory stays bounded by the longest line, never the file size.
// Each line is validated (protocol/parse.ts); problems are collected with their line numbers:
// a torn last line (killed writer) and malformed middle lines are reported and skipped, the
// events after them kept. A line from a newer Kite stops reading with a typed error. The hash
// chain (events/chain.ts) is checked from the first event that carries it: a break is a problem
// marked `chain` on the line after the edit. A call's arguments stored as a reference to its model
// event (protocol/argsRef.ts) are resolved here, so every consumer sees `args`; a reference that
// does not match is a `chain` problem of its line too.
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { ArgsRefResolver } from '../protocol/argsRef';
import type { KiteEvent } from '../protocol/events';
import { LogLineParser, type LogFormat, type LogProblem, type Validation } from '../protocol/parse';
import { sha256 } from '../tools/hash';
import { ChainChecker } from './chain';
import { KindBytes, peekEnvelope, prevHex } from './envelopePeek';

export type { LogProblem, LogFormat };

export type LogReadErrorCode = 'not_found' | 'unsupported_version' | 'not_a_log';

export class LogReadError extends Error {
  constructor(
    readonly code: LogReadErrorCode,
    message: string,
    readonly path: string,
    readonly line: number | null = null,
    readonly version: number | null = null,
  ) {
    super(message);
    this.name = 'LogReadError';
  }
}

export interface StreamResult {
  problems: LogProblem[];
  format: LogFormat;
  count: number;
  /** true when the file ended without a newline on a line that did not parse (killed writer). */
  torn: boolean;
  /** Bytes read: the file's size when reading began and nothing was appended meanwhile. */
  bytes: number;
  /** What references may name at the end of the log (a writer continuing it starts from this). */
  refs: ArgsRefResolver;
}

const CHUNK = 1 << 20;
const NL = 0x0a;

/** Run id of a log path: the file name without .jsonl. */
export function runIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, '');
}

export interface StreamOptions {
  /** `structural` for views and reports that act on nothing (protocol/parse.ts); default `full`. */
  validation?: Validation;
  /**
   * Lines the caller does nothing with (`kite timeline`'s rowless ones), by kind and, for some, what
   * follows it: a line of one of them in Kite's own layout is checked for its envelope only
   * (events/envelopePeek.ts) — it counts, links the hash chain, and is not parsed or handed on.
   * Lines in any other layout are read as usual.
   */
  skip?: KindBytes;
}

/** Opens a log for reading; a missing file or a folder is a LogReadError naming the path. */
export async function openLogFile(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LogReadError('not_found', `no such log: ${path}`, path);
    if (code === 'EISDIR') throw new LogReadError('not_a_log', `${path} is a directory, not a log file`, path);
    throw e;
  }
}

export async function streamLog(path: string, onEvent: (e: KiteEvent, line: number) => void, opts: StreamOptions = {}): Promise<StreamResult> {
  const fh = await openLogFile(path);
  try {
    const reader = new LogRangeReader(path, onEvent, opts);
    await reader.read(fh, 0, Number.POSITIVE_INFINITY);
    return reader.finish();
  } finally {
    await fh.close();
  }
}

/**
 * streamLog's reading, in byte ranges read one after another: what carries from line to line (line
 * numbers, the hash chain, references, problems) stays in the reader, so reading [0, a) then
 * [a, end) is reading the file. A range starts at the start of a line. `chain` lets a reader start
 * mid-file (events/timelineSplit.ts: a worker reads the second part of a big log).
 */
export class LogRangeReader {
  private readonly parser: LogLineParser;
  private readonly problems: LogProblem[] = [];
  private format: LogFormat | null = null;
  count = 0;
  private lineNo = 0;
  private completeLines = 0;
  private torn = false;
  private lastBadBytes: number | null = null;
  private bytes = 0;
  private readonly refs = new ArgsRefResolver(sha256);
  private readonly skip: KindBytes | null;

  constructor(
    private readonly path: string,
    private readonly onEvent: (e: KiteEvent, line: number) => void,
    opts: StreamOptions = {},
    private readonly chain = new ChainChecker(),
  ) {
    this.parser = new LogLineParser(runIdOf(path), opts.validation);
    this.skip = opts.skip ?? null;
  }

  /**
   * Reads the lines in bytes [start, end) of the open log (end: Infinity for the rest of the file).
   * Two buffers: the next chunk is read on the thread pool while this one is split and parsed, so
   * the reads' waits overlap the parsing (they were ~10% of `kite timeline`'s wall time, issue 17).
   */
  async read(fh: FileHandle, start: number, end: number): Promise<void> {
    const size = Math.min(CHUNK, Math.max(1, end - start)); // a short range (what a live log appended) needs no full chunk
    const bufs = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
    const readAt = (buf: Buffer, pos: number) => (pos < end ? fh.read(buf, 0, Math.min(size, end - pos), pos) : Promise.resolve({ bytesRead: 0 }));
    let pending = readAt(bufs[0], start);
    try {
      let partial: Buffer[] = []; // pieces of a line longer than what is left of a chunk
      for (let pos = start, which = 0; ; which ^= 1) {
        const buf = bufs[which];
        const { bytesRead } = await pending;
        if (bytesRead === 0) break;
        pos += bytesRead;
        this.bytes += bytesRead;
        pending = readAt(bufs[which ^ 1], pos); // never into `buf`: its lines are handled below
        let from = 0;
        for (;;) {
          const nl = buf.indexOf(NL, from);
          if (nl === -1 || nl >= bytesRead) break;
          if (partial.length) {
            partial.push(buf.subarray(from, nl));
            this.handle(Buffer.concat(partial), true);
            partial = [];
          } else this.handle(buf.subarray(from, nl), true);
          from = nl + 1;
        }
        if (from < bytesRead) partial.push(Buffer.from(buf.subarray(from, bytesRead))); // copy: buf is reused
      }
      if (partial.length) this.handle(Buffer.concat(partial), false);
    } catch (e) {
      pending.catch(() => undefined); // a read still in flight when a line threw: its outcome no longer matters
      // Linux opens a directory fine and fails on the first read.
      if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new LogReadError('not_a_log', `${this.path} is a directory, not a log file`, this.path);
      throw e;
    }
  }

  /** Lines read so far, and the problems found in them (in line order; finish() returns the same). */
  get linesRead(): number {
    return this.lineNo;
  }
  get problemsSoFar(): readonly LogProblem[] {
    return this.problems;
  }

  /** After the last range: the result, or the not_a_log error when no line was an event. */
  finish(): StreamResult {
    const { problems, path } = this;
    if (this.count === 0 && this.completeLines > 0 && problems.length > 0) {
      throw new LogReadError('not_a_log', `${path} is not a Kite log: ${problems[0].message}`, path, problems[0].line);
    }
    return { problems, format: this.format ?? 'kite', count: this.count, torn: this.torn, bytes: this.bytes, refs: this.refs };
  }

  private handle(raw: Buffer, terminated: boolean): void {
    const { problems, chain } = this;
    const lineNo = ++this.lineNo;
    if (terminated && this.skip !== null && this.skipped(raw, lineNo)) return;
    const text = raw.toString(); // utf8; without arguments Node skips its encoding lookup (every line of every log)
    if (text.trim() === '') return;
    if (terminated) this.completeLines++;
    const r = this.parser.parse(text, lineNo);
    const broken = r.ok ? chain.event(r.event.prev, lineNo) : null;
    chain.line(raw);
    if (r.ok) {
      this.format ??= r.format;
      this.count++;
      // A bad line right before a `resumed` event was the torn last line of an earlier crash.
      const prev = problems.at(-1);
      if (r.event.kind === 'resumed' && prev && prev.line === lineNo - 1 && this.lastBadBytes !== null) {
        prev.message = `line ${prev.line}: torn line left by a crash (the run was resumed after it; ${this.lastBadBytes} bytes ignored)`;
      }
      this.lastBadBytes = null;
      if (broken) problems.push(broken);
      const badRef = this.refs.event(r.event, lineNo);
      if (badRef) problems.push(badRef);
      this.onEvent(r.event, lineNo);
      return;
    }
    this.lastBadBytes = Buffer.byteLength(text);
    if (r.unsupportedVersion !== undefined) {
      throw new LogReadError('unsupported_version', `${this.path}: ${r.problem.message}`, this.path, lineNo, r.unsupportedVersion);
    }
    if (!terminated) {
      this.torn = true;
      problems.push({ line: lineNo, message: `line ${lineNo}: torn last line, the writer stopped mid-event (${Buffer.byteLength(text)} bytes ignored)` });
    } else problems.push(r.problem);
  }

  /** A line of a skipped kind, in Kite's layout: its envelope checked, its chain link kept. */
  private skipped(raw: Buffer, lineNo: number): boolean {
    const peek = peekEnvelope(raw, this.skip!);
    if (peek === null) return false;
    const { chain } = this;
    let prev: string | null = null;
    if (peek.prevAt !== null) {
      // The expected hash compared as bytes (the common case makes no string); any other prev as text.
      prev = chain.expects(raw, peek.prevAt) ? chain.expected : prevHex(raw, peek.prevAt);
      if (prev === null) return false; // not hex: not Kite's layout, parse it
    }
    this.completeLines++;
    const broken = chain.event(prev, lineNo);
    chain.line(raw);
    this.format ??= 'kite';
    this.count++;
    this.lastBadBytes = null;
    if (broken) this.problems.push(broken);
    return true;
  }
}

export interface ReadResult {
  events: KiteEvent[];
  problems: LogProblem[];
  format: LogFormat;
  torn: boolean;
}

export async function readLog(path: string, opts: StreamOptions = {}): Promise<ReadResult> {
  const events: KiteEvent[] = [];
  const r = await streamLog(path, (e) => events.push(e), opts);
  return { events, problems: r.problems, format: r.format, torn: r.torn };
}
