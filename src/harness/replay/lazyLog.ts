// A big run log opened for replay without parsing it (issue 17): a line scan (logIndexer.ts)
// records each event's byte range and feeds the index, in chunks, while the debugger already
// answers. An event is parsed — structural check, args references resolved — only when
// something looks at it, and a few thousand stay cached. Problems only a full parse can see (a
// line whose body is broken, a bad args reference) are reported when the line is first parsed;
// the hash chain is checked by verifyChain, later.
import { open } from 'node:fs/promises';
import { closeSync, openSync, readSync } from 'node:fs';
import { canonicalJson, isRefEvent, resolveArgsRef, type Referenced } from '../protocol/argsRef';
import { LOG_VERSION, type EventOf, type KiteEvent } from '../protocol/events';
import { LogLineParser, type LogProblem } from '../protocol/parse';
import { ChainChecker } from '../events/chain';
import { LogReadError, openLogFile, runIdOf } from '../events/reader';
import { sha256 } from '../tools/hash';
import { EventIndex } from './eventIndex';
import type { EventList } from './eventList';
import { KeySet, topLevelFields } from './lineFields';
import { LogIndexer, type IndexerOptions } from './logIndexer';

const CHUNK = 512 << 10; // the chain check's read size
const WINDOW = 256 << 10; // bytes read at once on demand: a fold reads its next events in one call
const NL = 0x0a;
const CACHE = 4096;

export interface LazyLogOptions {
  /** Problems found after open (a line that fails its full parse, a bad args reference). */
  onProblem?: (p: LogProblem) => void;
}

export class LazyLog implements EventList {
  private readonly cache = new Map<number, KiteEvent>();
  private readonly parser: LogLineParser;
  private fd: number | null;
  private index: EventIndex | null = null;
  private readonly reported = new Set<number>();

  /** The events `indexer` has indexed so far (the log grows with it). */
  constructor(
    readonly path: string,
    private readonly indexer: LogIndexer,
    private readonly opts: LazyLogOptions = {},
  ) {
    this.parser = new LogLineParser(runIdOf(path), 'structural');
    this.fd = openSync(path, 'r');
  }

  get length(): number {
    return this.indexer.starts.length;
  }

  /** 1-based line number of each event (valid below length). */
  get lines(): Int32Array {
    return this.indexer.lines.view;
  }

  /** The index this log feeds (the approval an args reference names is found through it). */
  attach(index: EventIndex): void {
    this.index = index;
  }

  at(i: number): KiteEvent {
    const hit = this.cache.get(i);
    if (hit) {
      this.cache.delete(i);
      this.cache.set(i, hit); // most recently used last
      return hit;
    }
    const e = this.parse(i);
    this.remember(i, e);
    return e;
  }

  close(): void {
    this.indexer.stop();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private remember(i: number, e: KiteEvent): void {
    this.cache.set(i, e);
    if (this.cache.size > CACHE) this.cache.delete(this.cache.keys().next().value as number);
  }

  private window: { at: number; buf: Buffer } = { at: 0, buf: Buffer.alloc(0) };

  private lastRead = -2;

  private text(i: number): string {
    const from = this.indexer.starts.view[i];
    const to = from + this.indexer.lengths.view[i];
    let w = this.window;
    if (from < w.at || to > w.at + w.buf.length) {
      this.fd ??= openSync(this.path, 'r');
      // A fold reads on in order: then a window of what follows; a jump reads just its line.
      const sequential = i === this.lastRead + 1;
      const buf = Buffer.allocUnsafe(Math.max(sequential ? WINDOW : 0, to - from));
      const n = readSync(this.fd, buf, 0, buf.length, from);
      w = this.window = { at: from, buf: buf.subarray(0, n) };
    }
    this.lastRead = i;
    return w.buf.toString('utf8', from - w.at, to - w.at);
  }

  private parse(i: number): KiteEvent {
    const line = this.lines[i];
    const r = this.parser.parse(this.text(i), line);
    if (!r.ok) {
      this.problem(i, r.problem);
      // The line read as an event when the log was opened; now it does not parse (its body is
      // broken, or the file changed). Shown as what it is, never as a guess of its content.
      const at = i > 0 ? this.at(i - 1) : null;
      return { v: LOG_VERSION, seq: at ? at.seq + 1 : 0, run: runIdOf(this.path), t: at?.t ?? 0, kind: 'warning', code: 'unreadable_line', message: r.problem.message };
    }
    const e = r.event;
    if (isRefEvent(e) && e.args_ref !== undefined) {
      const p = resolveArgsRef(e, line, (ref) => this.referenced(i, ref.call, ref.in));
      if (p) this.problem(i, p);
    }
    return e;
  }

  private problem(i: number, p: LogProblem): void {
    if (this.reported.has(i)) return;
    this.reported.add(i);
    this.opts.onProblem?.(p);
  }

  /** What an args reference of event i names (protocol/argsRef.ts): the latest model event's input, or the call's edited approval after it. */
  private referenced(i: number, call: string, where: 'model' | 'approval'): Referenced | null {
    const m = this.indexer.prevModel.view[i];
    if (where === 'model') {
      if (m < 0) return null;
      const model = this.at(m) as EventOf<'model'>;
      const use = model.content.find((b) => b.type === 'tool_use' && b.id === call);
      if (!use || use.type !== 'tool_use') return null;
      return { value: use.input, sha256: sha256(canonicalJson(use.input)), line: this.lines[m] };
    }
    const c = this.index?.callAt(i);
    if (!c || c.id !== call || c.approval < 0 || c.approval > i || c.approval < m) return null;
    const a = this.at(c.approval) as EventOf<'approval'>;
    if (a.decision !== 'edit' || a.edited_args === undefined) return null;
    return { value: a.edited_args, sha256: sha256(canonicalJson(a.edited_args)), line: this.lines[c.approval] };
  }
}

export interface OpenedLazyLog {
  log: LazyLog;
  index: EventIndex;
  /** Lines skipped, known when open returned (all of them for openLazyLog). */
  problems: LogProblem[];
  /** How far indexing has got (complete for openLazyLog). */
  indexing: LogIndexer;
  /** false when the file is not a current Kite log (a Python Kite log): read it whole instead. */
  lazy: true;
}

export interface StartLazyLogOptions extends LazyLogOptions, IndexerOptions {
  /** Lines skipped that are found after startLazyLog returned, each reported once it is settled. */
  onScanProblem?: (p: LogProblem) => void;
  /** Called after every indexed chunk (the runtime extends its transcript). */
  onAdvance?: () => void;
}

/**
 * Start indexing a log; resolves once its first chunk is indexed (or the file is done), while
 * the rest is indexed in the background (`indexing` says how far). Throws LogReadError
 * (not_found, not_a_log, unsupported_version) like the reader when the start of the file shows
 * it; null for a log to read whole (Python Kite format).
 */
export async function startLazyLog(path: string, opts: StartLazyLogOptions = {}): Promise<OpenedLazyLog | null> {
  const fh = await openLogFile(path);
  const indexer = new LogIndexer(path, opts);
  const log = new LazyLog(path, indexer, opts);
  const index = new EventIndex(log, indexer.builder);
  log.attach(index);
  let reported = -1; // problems handed out so far; -1 until open returns
  const report = () => {
    if (reported < 0 || !opts.onScanProblem) return;
    for (; reported < indexer.settledProblems; reported++) opts.onScanProblem(indexer.problems[reported]);
  };
  void indexer.run(fh, () => {
    report();
    opts.onAdvance?.();
  });
  try {
    await indexer.firstChunkScanned();
    // Nothing readable in the first chunk: the verdict on the file needs the rest of it.
    if (indexer.count === 0 && !indexer.python) await indexer.until(() => indexer.count > 0);
  } catch (e) {
    log.close();
    throw e;
  }
  if (indexer.python) {
    log.close();
    return null;
  }
  if (indexer.count === 0 && indexer.completeLines > 0 && indexer.problems.length > 0) {
    log.close();
    throw new LogReadError('not_a_log', `${path} is not a Kite log: ${indexer.problems[0].message}`, path, indexer.problems[0].line);
  }
  reported = indexer.settledProblems;
  return { log, index, problems: indexer.problems.slice(0, reported), indexing: indexer, lazy: true };
}

/** Index the whole log, then return (the tests' and the CLI's way; the debugger uses startLazyLog). */
export async function openLazyLog(path: string, opts: LazyLogOptions = {}): Promise<OpenedLazyLog | null> {
  const opened = await startLazyLog(path, opts);
  if (!opened) return null;
  try {
    await opened.indexing.until(() => false);
  } catch (e) {
    opened.log.close();
    throw e;
  }
  return { ...opened, problems: opened.indexing.problems };
}

/**
 * The hash chain of a lazily opened log (events/chain.ts rules), checked in slices so the event
 * loop stays free; each break is reported as it is found.
 */
export async function verifyChain(log: LazyLog, onProblem: (p: LogProblem) => void, cancelled: () => boolean = () => false, busy: () => boolean = () => false): Promise<void> {
  const chain = new ChainChecker();
  let next = 0; // next event slot
  const prevOf = (bytes: Buffer): string | null | undefined => {
    const f = topLevelFields(bytes, 0, bytes.length, PREV);
    if (f) return f.get('prev') as string | null | undefined;
    try {
      return (JSON.parse(bytes.toString('utf8')) as { prev?: string | null }).prev;
    } catch {
      return undefined;
    }
  };
  const fh = await open(log.path, 'r');
  try {
    let carry: Buffer | null = null;
    let pos = 0;
    let lineNo = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      // A person stepping comes first: hashing a chunk would delay their next stop.
      while (busy() && !cancelled()) await new Promise<void>((r) => setTimeout(r, 25));
      if (cancelled()) return;
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      let s = 0;
      for (let nl = data.indexOf(NL, s); nl !== -1; nl = data.indexOf(NL, s)) {
        lineNo++;
        const raw = data.subarray(s, nl);
        s = nl + 1;
        if (raw.toString('latin1').trim() === '') continue;
        if (next < log.length && log.lines[next] === lineNo) {
          next++;
          const broken = chain.event(prevOf(raw), lineNo);
          if (broken) onProblem(broken);
        }
        chain.line(raw);
      }
      carry = s < data.length ? Buffer.from(data.subarray(s)) : null;
      await new Promise<void>((r) => setImmediate(r));
    }
  } finally {
    await fh.close();
  }
}

const PREV = new KeySet(['prev']);
