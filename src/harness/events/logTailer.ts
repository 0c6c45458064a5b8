// Reads a .jsonl event log from the start in chunks, then follows it: fs.watch wakes it up and it
// reads only the bytes appended since (a partial last line waits for its newline). It keeps the
// byte range of every event's line, not the events, so the full text of any event can be read
// back on demand (raw event, full output, diff) while memory stays small. No 'vscode' here.
// A call's arguments stored as a reference (protocol/argsRef.ts) are resolved in the batches as
// they stream by, and on demand (event()) by re-reading the line of the call's model event (or
// approval): the tailer keeps the seqs of model events and edited approvals, not the arguments.
// It follows through one descriptor kept open, read synchronously a chunk at a time (yielding to the
// loop between chunks): each async fs call is a job for libuv's threadpool, and on a busy 2-core
// machine the extension host's loop slept up to 70 ms queuing one (its lock and condition variable,
// issue 17) — four per append when every append opened, stat'ed, read and closed the file.
import { closeSync, fstatSync, openSync, readSync, statSync, watch, type FSWatcher } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { ArgsRefResolver, canonicalJson, isRefEvent, resolveArgsRef, type ArgsRef } from '../protocol/argsRef';
import type { KiteEvent } from '../protocol/events';
import { LogLineParser, parseEventLine, type LogProblem, type Validation } from '../protocol/parse';
import { sha256 } from '../tools/hash';
import { expectedEvents, f64, type Grow } from './growArray';

export interface TailBatch {
  events: KiteEvent[];
  problems: LogProblem[];
  /** True for the batches of the first read (the history); false for live increments. */
  initial: boolean;
  /** True on the last batch of the first read. */
  done: boolean;
  /** Bytes of the file read so far, and its size when this read began (for a progress estimate). */
  bytesRead: number;
  bytesTotal: number;
}

export interface TailerOptions {
  /** Events per batch while reading the history. */
  batchSize?: number;
  /** Events in the very first batch (small, so the first rows show at once). */
  firstBatchSize?: number;
  /** Bytes read per call. */
  chunkBytes?: number;
  /** A batch also ends once its lines hold this many bytes (what the receiver copies and posts
   *  stays small whatever the size of the events; default: no limit). */
  batchBytes?: number;
  /** Longest stretch of parsing without letting the event loop run, ms (default 10): an
   *  extension host must never be held, not even by one batch of big events. */
  sliceMs?: number;
  /** Follow appends after the first read (default true). */
  follow?: boolean;
  /** Appends within this many ms of the first one are read (and emitted) together: a run writing
   *  an event at a time costs its viewer one read and one message per stretch, not per event
   *  (default 0: each change is read at once). */
  gatherMs?: number;
  /** Safety net for filesystems where fs.watch misses changes (ms; 0 = none). */
  pollMs?: number;
  /** 'structural' (a view): the cheap shape check per line, zod only where it fails; event() still
   *  parses fully. Default 'full'. */
  validation?: Validation;
}

export type TailerEvent =
  | { type: 'batch'; batch: TailBatch }
  /** The file shrank or was replaced: everything read so far is void. */
  | { type: 'reset' }
  | { type: 'gone' }
  | { type: 'error'; message: string };

export class LogTailer {
  private offset = 0;
  private line = 0;
  private carry: Buffer = Buffer.alloc(0);
  private readonly parser: LogLineParser;
  private watcher: FSWatcher | null = null;
  /** The log, open from the first read until dispose. */
  private fd: number | null = null;
  private poller: NodeJS.Timeout | null = null;
  private gathering: NodeJS.Timeout | null = null;
  private reading = false;
  private again = false;
  private disposed = false;
  private stoppedByVersion = false;
  /** seq and byte range of each event line, in file order (seqs increase). */
  private readonly seqs = f64();
  private readonly starts = f64();
  private readonly ends = f64();
  private readonly batchSize: number;
  private readonly batchBytes: number;
  private readonly sliceMs: number;
  private emitted = false;
  private readonly chunkBytes: number;
  /** dev:ino of the file open: a path now naming another file was rotated or replaced. */
  private identity: string | null = null;
  private readonly refs = new ArgsRefResolver(sha256);
  /** Seqs of the model events, in file order: a reference "in: model" names the latest one before
   *  its line (protocol/argsRef.ts). A number per model event, not a map entry per tool call: a 1M
   *  event log has ~160k calls, heap objects every major collection on the extension host traced. */
  private readonly modelSeqs = f64();
  /** Call id -> seq of its edited approval (rare: only edits are referenced). */
  private readonly editedApproval = new Map<string, number>();

  constructor(
    readonly path: string,
    /** A batch's promise (when it returns one) is awaited before the next batch is read: the
     *  receiver's backpressure (a webview still taking the previous messages). */
    private readonly emit: (e: TailerEvent) => void | Promise<void>,
    private readonly opts: TailerOptions = {},
  ) {
    this.parser = new LogLineParser(basename(path).replace(/\.jsonl$/, ''), opts.validation ?? 'full');
    this.batchSize = opts.batchSize ?? 5000;
    this.batchBytes = opts.batchBytes ?? Infinity;
    this.sliceMs = opts.sliceMs ?? 10;
    this.chunkBytes = opts.chunkBytes ?? 1 << 20;
  }

  /** Number of events read so far. */
  get count(): number {
    return this.seqs.length;
  }

  /** Reads the history (emitting `initial` batches), then follows the file. */
  async start(): Promise<void> {
    await this.readMore(true);
    if (this.disposed || this.opts.follow === false) return;
    try {
      this.watcher = watch(this.path, { persistent: false }, (kind) => {
        if (kind === 'rename') this.checkGone();
        this.kick();
      });
      this.watcher.on('error', () => this.kick());
    } catch (e) {
      void this.emit({ type: 'error', message: `cannot watch ${this.path}: ${String(e)}` });
    }
    const poll = this.opts.pollMs ?? 1000;
    if (poll > 0) {
      this.poller = setInterval(() => this.kick(), poll);
      this.poller.unref();
    }
  }

  /** Reads whatever was appended (now, or once gatherMs passed); also what the watcher calls. */
  kick(): void {
    if (this.disposed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    const gather = this.opts.gatherMs ?? 0;
    if (gather <= 0) {
      void this.readMore(false);
      return;
    }
    this.gathering ??= setTimeout(() => {
      this.gathering = null;
      if (this.disposed) return;
      if (this.reading) this.again = true;
      else void this.readMore(false);
    }, gather);
  }

  /** The exact text of the line of event `seq` (null if unknown). */
  async rawLine(seq: number): Promise<string | null> {
    const lo = firstAtLeast(this.seqs, seq);
    if (lo >= this.seqs.length || this.seqs.get(lo) !== seq) return null;
    const start = this.starts.get(lo);
    const length = this.ends.get(lo) - start;
    const fh = await open(this.path, 'r');
    try {
      const buf = Buffer.alloc(length);
      await fh.read(buf, 0, length, start);
      return buf.toString('utf8').replace(/\r$/, '');
    } finally {
      await fh.close();
    }
  }

  /** The event `seq` read back from the log, its arguments resolved (null if unknown). */
  async event(seq: number): Promise<KiteEvent | null> {
    const raw = await this.rawLine(seq);
    if (raw === null) return null;
    const r = parseEventLine(raw, 0);
    if (!r.ok) return null;
    const e = r.event;
    const ref = isRefEvent(e) ? e.args_ref : undefined;
    if (!isRefEvent(e) || !ref) return e;
    const target = await this.referenced(ref, seq);
    resolveArgsRef(e, 0, () => target); // a bad reference was reported when its line streamed by: args stay unknown
    return e;
  }

  /** What `ref`, in the event `at`, names: a call of the latest model event before it, or that
   *  call's edited approval after that model event (as ArgsRefResolver resolves it streaming). */
  private async referenced(ref: ArgsRef, at: number): Promise<{ value: unknown; sha256: string; line: number } | null> {
    const m = firstAtLeast(this.modelSeqs, at) - 1;
    const modelSeq = m >= 0 ? this.modelSeqs.get(m) : -1;
    let seq: number | undefined;
    if (ref.in === 'model') seq = m >= 0 ? modelSeq : undefined;
    else {
      const edited = this.editedApproval.get(ref.call);
      seq = edited !== undefined && edited > modelSeq && edited < at ? edited : undefined;
    }
    const raw = seq === undefined ? null : await this.rawLine(seq);
    const r = raw === null ? null : parseEventLine(raw, 0);
    if (!r?.ok) return null;
    const e = r.event;
    const found = e.kind === 'model' ? e.content.find((b) => b.type === 'tool_use' && b.id === ref.call) : null;
    const value = found?.type === 'tool_use' ? found.input : e.kind === 'approval' ? e.edited_args : undefined;
    return value === undefined ? null : { value, sha256: sha256(canonicalJson(value)), line: 0 };
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.close();
    this.watcher = null;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    if (this.gathering) clearTimeout(this.gathering);
    this.gathering = null;
  }

  private checkGone(): void {
    try {
      statSync(this.path);
    } catch {
      if (!this.disposed) void this.emit({ type: 'gone' });
    }
  }

  private async readMore(initial: boolean): Promise<void> {
    this.reading = true;
    try {
      let first = initial;
      do {
        this.again = false;
        await this.readAvailable(first);
        first = false;
      } while (this.again && !this.disposed);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') void this.emit({ type: 'gone' });
      else void this.emit({ type: 'error', message: `reading ${this.path}: ${String(e)}` });
    } finally {
      this.reading = false;
    }
  }

  private async readAvailable(initial: boolean): Promise<void> {
    if (this.stoppedByVersion || this.disposed) return;
    if (this.fd === null) {
      this.fd = openSync(this.path, 'r');
      this.identity = identityOf(fstatSync(this.fd));
    }
    const fd = this.fd;
    // The file the path names now (ENOENT: gone), and the size of the one open.
    const named = identityOf(statSync(this.path));
    const { size } = fstatSync(fd);
    if (size < this.offset || named !== this.identity) {
      // Truncated, or replaced / rotated (even by a longer file): the owner starts over with a fresh tailer.
      void this.emit({ type: 'reset' });
      this.dispose();
      return;
    }
    let batch: TailBatch = { events: [], problems: [], initial, done: false, bytesRead: 0, bytesTotal: size };
    let batchStart = this.offset - this.carry.length;
    let sliceStart = performance.now();
    const buf = Buffer.alloc(Math.min(this.chunkBytes, Math.max(1, size - this.offset)));
    while (this.offset < size && !this.disposed) {
      const bytesRead = readSync(fd, buf, 0, Math.min(buf.length, size - this.offset), this.offset);
      if (bytesRead <= 0) break;
      const base = this.offset - this.carry.length;
      const data = this.carry.length ? Buffer.concat([this.carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      this.offset += bytesRead;
      let pos = 0;
      let lines = 0;
      for (let nl = data.indexOf(10, pos); nl >= 0; nl = data.indexOf(10, pos)) {
        this.line++;
        this.parseLine(data, pos, nl, base, batch);
        pos = nl + 1;
        if (initial && this.seqs.length === SIZE_AFTER) this.reserveFor(size, base + pos);
        const full = batch.events.length >= (this.emitted ? this.batchSize : (this.opts.firstBatchSize ?? this.batchSize)) || (batch.events.length > 0 && base + pos - batchStart >= this.batchBytes);
        let taken: void | Promise<void> = undefined;
        if (full) {
          this.emitted = true;
          batch.bytesRead = base + nl + 1;
          taken = this.emit({ type: 'batch', batch });
          batch = { events: [], problems: [], initial, done: false, bytesRead: 0, bytesTotal: size };
          batchStart = base + pos;
        }
        // Let the host's event loop run between batches (until the receiver took the batch, when
        // it says when), and within one when its lines are slow to parse (big events, a busy machine).
        if (full || ((++lines & 31) === 0 && performance.now() - sliceStart > this.sliceMs)) {
          await taken;
          await yieldToLoop();
          sliceStart = performance.now();
          if (this.disposed) return;
        }
        if (this.stoppedByVersion) break;
      }
      this.carry = Buffer.from(data.subarray(pos));
      if (this.stoppedByVersion) break;
    }
    if (initial && this.carry.length && !this.disposed) {
      // A last line without its newline: a writer mid-line, or one that died there.
      batch.problems.push({ line: this.line + 1, message: `line ${this.line + 1}: incomplete last line (${this.carry.length} bytes, no newline yet); it appears here once it is complete` });
    }
    batch.done = initial;
    batch.bytesRead = this.offset;
    if (!this.disposed && (batch.events.length || batch.problems.length || initial)) await this.emit({ type: 'batch', batch });
  }

  /**
   * Sizes the per-event tables for the whole log from its first lines (a tenth more for the rest).
   * Grown as they go instead, all three grew on the same line, a copy each: ~40 ms in one task at
   * 870K events, on the extension host while a big timeline loads.
   */
  private reserveFor(fileBytes: number, readBytes: number): void {
    const expected = expectedEvents(fileBytes, readBytes, this.seqs.length);
    for (const g of [this.seqs, this.starts, this.ends]) g.reserve(expected);
  }

  private parseLine(data: Buffer, from: number, nl: number, base: number, batch: TailBatch): void {
    const text = data.toString('utf8', from, nl);
    if (text.trim() === '') return;
    const r = this.parser.parse(text, this.line);
    if (r.ok) {
      const e = r.event;
      this.seqs.push(e.seq);
      this.starts.push(base + from);
      this.ends.push(base + nl);
      if (e.kind === 'model') this.modelSeqs.push(e.seq);
      if (e.kind === 'approval' && e.decision === 'edit') this.editedApproval.set(e.id, e.seq);
      const badRef = this.refs.event(e, this.line);
      if (badRef) batch.problems.push(badRef);
      batch.events.push(e);
    } else {
      batch.problems.push(r.problem);
      if (r.unsupportedVersion !== undefined) this.stoppedByVersion = true;
    }
  }
}

function identityOf(s: { dev: number; ino: number }): string {
  return `${s.dev}:${s.ino}`;
}

/** Lines read before the tables are sized for the whole log (enough to judge its bytes per event). */
const SIZE_AFTER = 1000;

/** The first index whose value is >= `v` in an increasing table (its length when none is). */
function firstAtLeast(table: Grow<Float64Array>, v: number): number {
  let lo = 0;
  let hi = table.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table.get(mid) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
