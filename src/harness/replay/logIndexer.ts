// The line scan that indexes a Kite log for replay (issue 17): reads the file in chunks, records
// each event's byte range and line, and feeds the index (eventIndex.ts) the few fields it needs,
// read by lineFields.ts without parsing the line. Between chunks it yields to the event loop, so
// the debugger stops on entry after the first chunk and answers requests while the rest is
// indexed; a request about a position not indexed yet waits for it (IndexProgress). Lines the
// scan does not understand are parsed the ordinary way at once (reader semantics: a malformed
// line is a problem, reported with its line number, and skipped).
import type { FileHandle } from 'node:fs/promises';
import { EVENT_KINDS, LOG_VERSION, type EventKind, type KiteEvent } from '../protocol/events';
import { LogLineParser, type LogProblem } from '../protocol/parse';
import { LogReadError, runIdOf } from '../events/reader';
import { EventIndexBuilder, factsOfEvent, type IndexFacts } from './eventIndex';
import type { EventList } from './eventList';
import { expectedEvents, f64, i32, trimEach } from '../events/growArray';
import { Waiters, type IndexProgress } from './indexProgress';
import { KeySet, topLevelFields, type FieldValue } from './lineFields';

// Each chunk is scanned synchronously: 128 KB (~120 events, a few ms) bounds how long indexing holds the
// event loop before requests are answered again.
const CHUNK = 128 << 10;
const NL = 0x0a;
const KINDS = new Set<string>(EVENT_KINDS);
// Read whole at open: the index keeps session_start, sums compaction summaries and judged checks' calls (gate; a few per run).
const WHOLE = new Set<string>(['session_start', 'compaction', 'gate']);
const FIELDS = new KeySet(['v', 'seq', 't', 'kind', 'turn', 'stop', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_usd', 'id', 'name', 'passed', 'is_error', 'error_code', 'decision', 'effect', 'path']);
const WRITE_TOOLS = new Set(['write_file', 'edit_file']);
const ARGS = new KeySet(['args'], ['args']);
// The fields factsOf needs, by kind: once they are read the scan stops (tool events have optional
// ones — path, error_code — so they are read to the end).
const ENVELOPE = ['v', 'seq', 't', 'kind'];
const NEEDS: Partial<Record<string, string[]>> = {
  model: [...ENVELOPE, 'turn', 'stop', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_usd'],
  model_retry: [...ENVELOPE, 'turn'],
  proposed: [...ENVELOPE, 'turn', 'id', 'name'],
  policy: [...ENVELOPE, 'id', 'name', 'decision'],
  approval_request: [...ENVELOPE, 'id', 'name'],
  approval: [...ENVELOPE, 'id', 'decision'],
  intent: [...ENVELOPE, 'id', 'name', 'effect', 'path'],
  gate: [...ENVELOPE, 'passed'],
  user: ENVELOPE,
  progress: ENVELOPE,
  warning: ENVELOPE,
};
function enough(f: Map<string, FieldValue>): boolean {
  const kind = f.get('kind');
  if (typeof kind !== 'string') return false;
  const need = NEEDS[kind];
  if (!need) return false;
  for (const k of need) if (!f.has(k)) return false;
  return true;
}

const str = (v: FieldValue): v is string => typeof v === 'string';
const num = (v: FieldValue): v is number => typeof v === 'number';

/** The index facts of a scanned line, or null when they are not all there with the right types (then the line is parsed). */
function factsOf(f: Map<string, FieldValue>): IndexFacts | null {
  const kind = f.get('kind');
  if (f.get('v') !== LOG_VERSION || !str(kind) || !KINDS.has(kind) || WHOLE.has(kind) || !num(f.get('seq')) || !num(f.get('t'))) return null;
  const k = kind as EventKind;
  const id = f.get('id');
  const name = f.get('name');
  const path = f.get('path');
  switch (k) {
    case 'model': {
      const [turn, stop, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, cost_usd] = [f.get('turn'), f.get('stop'), f.get('input_tokens'), f.get('output_tokens'), f.get('cache_creation_input_tokens'), f.get('cache_read_input_tokens'), f.get('cost_usd')];
      if (!num(turn) || !str(stop) || !num(input_tokens) || !num(output_tokens) || !num(cache_creation_input_tokens) || !num(cache_read_input_tokens) || !num(cost_usd)) return null;
      return { kind: k, turn, stop, input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens, cost_usd };
    }
    case 'model_retry':
    case 'proposed': {
      const turn = f.get('turn');
      if (!num(turn)) return null;
      return k === 'proposed' ? (str(id) && str(name) ? { kind: k, turn, id, name } : null) : { kind: k, turn };
    }
    case 'policy':
    case 'approval_request':
      return str(id) && str(name) ? { kind: k, id, name, decision: f.get('decision') as string | undefined } : null;
    case 'approval':
      return str(id) && str(f.get('decision')) ? { kind: k, id, decision: f.get('decision') as string } : null;
    case 'intent':
      if (!str(id) || !str(name) || !str(f.get('effect')) || !(path === null || str(path))) return null;
      return { kind: k, id, name, effect: f.get('effect') as string, path };
    case 'tool': {
      const err = f.get('error_code');
      if (!str(id) || !str(name) || typeof f.get('is_error') !== 'boolean' || !(path === undefined || str(path)) || !(err === undefined || err === null || str(err))) return null;
      return { kind: k, id, name, is_error: f.get('is_error') as boolean, error_code: err as string | null | undefined, path: path as string | undefined };
    }
    case 'gate':
      return typeof f.get('passed') === 'boolean' ? { kind: k, passed: f.get('passed') as boolean } : null;
    case 'budget_stop':
    case 'compaction':
    case 'divergence':
    case 'hook':
    case 'person_edit':
    case 'restore':
    case 'paused':
    case 'progress':
    case 'resumed':
    case 'session_end':
    case 'session_start':
    case 'user':
    case 'warning':
    default:
      return { kind: k };
  }
}

/** The path named in a call's args given as raw JSON (null when it names none). */
function rawArgsPath(raw: FieldValue): string | null {
  if (!str(raw)) return null;
  try {
    const a = JSON.parse(raw) as unknown;
    return a && typeof a === 'object' && typeof (a as { path?: unknown }).path === 'string' ? (a as { path: string }).path : null;
  } catch {
    return null;
  }
}

export interface IndexerOptions {
  /** Bytes scanned per chunk (tests make it small to see indexing under way). */
  chunkBytes?: number;
  /** Awaited between chunks instead of a plain yield (tests hold indexing at a chosen point). */
  pace?: () => Promise<void>;
}

export class LogIndexer implements IndexProgress {
  readonly starts = f64();
  readonly lengths = f64(); // bytes, without the line break
  readonly lines = i32(); // 1-based line number of each event
  readonly prevModel = i32(); // latest model event before each event, -1 if none
  readonly builder = new EventIndexBuilder();
  /** Lines skipped so far, in order (the last one may still be reworded by the line after it). */
  readonly problems: LogProblem[] = [];
  /** A line in the Python Kite format was seen: the log is to be read whole. */
  python = false;
  completeLines = 0;
  private done = false;
  private failure: unknown = null;
  private readonly waiters = new Waiters();
  private readonly parser: LogLineParser;
  private lineNo = 0;
  private lastBadBytes: number | null = null;
  private lastModel = -1;
  private readonly scratch = new Map<string, FieldValue>();
  private whole: KiteEvent | null = null;
  // The builder reads session_start, compaction and gate whole: they are parsed on the spot (WHOLE).
  private readonly current: EventList;
  private chunksSeen = 0;
  private stopped = false;
  private firstChunk = new Waiters();

  constructor(
    readonly path: string,
    private readonly opts: IndexerOptions = {},
  ) {
    this.parser = new LogLineParser(runIdOf(path), 'structural');
    const starts = this.starts;
    this.current = {
      get length() {
        return starts.length;
      },
      at: (i) => {
        if (!this.whole || i !== starts.length - 1) throw new Error(`event ${i} is not the one being indexed`);
        return this.whole;
      },
    };
  }

  get count(): number {
    return this.starts.length;
  }

  get complete(): boolean {
    return this.done;
  }

  /** Why indexing stopped early (an unsupported version line, a read error), or null. */
  get error(): unknown {
    return this.failure;
  }

  until(ready: () => boolean): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.done || ready()) return Promise.resolve();
    return this.waiters.add(ready);
  }

  /** Problems that no later line can reword any more (a torn line is reworded when a `resumed` event follows it). */
  get settledProblems(): number {
    return this.lastBadBytes === null || this.done ? this.problems.length : this.problems.length - 1;
  }

  /** Stop at the next chunk (the replay ended): waiters are rejected, the file is closed. */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves after the first chunk has been scanned (or the file is done), rejects if that failed. */
  firstChunkScanned(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.chunksSeen > 0 || this.done) return Promise.resolve();
    return this.firstChunk.add(() => true);
  }

  /** Scan the file to its end (as far as it goes while being read), then close it. `afterChunk` sees every advance. */
  async run(fh: FileHandle, afterChunk: () => void = () => {}): Promise<void> {
    const size = this.opts.chunkBytes ?? CHUNK;
    try {
      let carry: Buffer | null = null;
      let carryAt = 0; // file offset of carry[0]
      let pos = 0;
      const buf = Buffer.allocUnsafe(size);
      for (;;) {
        if (this.stopped) throw new Error(`indexing of ${this.path} stopped: the replay was closed`);
        const { bytesRead } = await fh.read(buf, 0, size, pos);
        if (bytesRead === 0) break;
        const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
        const base = carry ? carryAt : pos;
        pos += bytesRead;
        let s = 0;
        for (let nl = data.indexOf(NL, s); nl !== -1; nl = data.indexOf(NL, s)) {
          this.line(data, s, nl, base, true);
          if (this.python) {
            // Known from the first chunk: the opener reads such a log whole. Later it cannot be (lines are normalized in order).
            if (this.chunksSeen === 0) return this.finish(afterChunk);
            throw new LogReadError('not_a_log', `${this.path}:${this.lineNo}: a line in the original Python Kite format inside a Kite log`, this.path, this.lineNo);
          }
          s = nl + 1;
        }
        carry = s < data.length ? Buffer.from(data.subarray(s)) : null;
        carryAt = base + s;
        if (this.chunksSeen === 0) await this.reserveFor(fh, pos);
        this.chunksSeen++;
        afterChunk();
        this.firstChunk.check(true);
        this.waiters.check(false);
        await (this.opts.pace ? this.opts.pace() : new Promise<void>((r) => setImmediate(r)));
      }
      if (carry) this.line(carry, 0, carry.length, carryAt, false);
      // The spare capacity goes one table per task (readers meanwhile use the tables as they are,
      // valid up to their length), so when the index says it is done its tables are exact.
      await trimEach([...this.builder.growing(), this.starts, this.lengths, this.lines, this.prevModel]);
      this.finish(afterChunk);
    } catch (e) {
      this.failure = (e as NodeJS.ErrnoException).code === 'EISDIR' ? new LogReadError('not_a_log', `${this.path} is a directory, not a log file`, this.path) : e;
      this.done = true;
      afterChunk();
      this.firstChunk.fail(this.failure);
      this.waiters.fail(this.failure);
    } finally {
      await fh.close();
    }
  }

  /**
   * Sizes the per-event tables for the whole file from the first chunk's bytes per event (a tenth
   * more for the rest, the spare is trimmed at the end): grown by doubling instead, every table
   * doubled on the same event — at 512K events ~50 ms in one task, on the loop that answers
   * requests (and in the extension host, for its transcript documents).
   */
  private async reserveFor(fh: FileHandle, scanned: number): Promise<void> {
    const events = this.starts.length;
    if (events === 0 || scanned === 0) return;
    const fileBytes = (await fh.stat()).size;
    const expected = expectedEvents(fileBytes, scanned, events);
    if (expected <= 2 * events) return;
    for (const g of [...this.builder.perEvent(), this.starts, this.lengths, this.lines, this.prevModel]) g.reserve(expected);
  }

  private finish(afterChunk: () => void): void {
    this.done = true;
    afterChunk();
    this.firstChunk.check(true);
    this.waiters.check(true);
  }

  private line(buf: Buffer, a: number, b: number, fileOffset: number, terminated: boolean): void {
    const lineNo = ++this.lineNo;
    let end = b;
    if (end > a && buf[end - 1] === 0x0d) end--;
    let p = a;
    while (p < end && (buf[p] === 0x20 || buf[p] === 0x09)) p++;
    if (p === end) return;
    if (terminated) this.completeLines++;
    const fields = topLevelFields(buf, a, end, FIELDS, this.scratch, enough);
    let facts = fields && terminated ? factsOf(fields) : null; // a torn last line is judged by the parser
    this.whole = null;
    if (facts && fields) {
      // The rare write whose events name no path: the index needs the path in its args.
      if ((facts.kind === 'tool' && facts.path === undefined && WRITE_TOOLS.has(facts.name ?? '')) || (facts.kind === 'intent' && facts.effect === 'write' && facts.path === null)) {
        facts.argsPath = rawArgsPath(topLevelFields(buf, a, end, ARGS)?.get('args'));
      }
    }
    if (!facts) {
      const r = this.parser.parse(buf.toString('utf8', a, b), lineNo);
      if (!r.ok) {
        this.lastBadBytes = b - a;
        if (r.unsupportedVersion !== undefined) throw new LogReadError('unsupported_version', `${this.path}: ${r.problem.message}`, this.path, lineNo, r.unsupportedVersion);
        if (!terminated) this.problems.push({ line: lineNo, message: `line ${lineNo}: torn last line, the writer stopped mid-event (${b - a} bytes ignored)` });
        else this.problems.push(r.problem);
        return;
      }
      if (r.format === 'python-kite') {
        this.python = true;
        return;
      }
      this.whole = r.event;
      facts = factsOfEvent(this.whole);
    }
    const i = this.starts.length;
    const prev = this.problems.at(-1);
    if (facts.kind === 'resumed' && prev && prev.line === lineNo - 1 && this.lastBadBytes !== null) {
      prev.message = `line ${prev.line}: torn line left by a crash (the run was resumed after it; ${this.lastBadBytes} bytes ignored)`;
    }
    this.lastBadBytes = null;
    this.starts.push(fileOffset + a);
    this.lengths.push(end - a);
    this.lines.push(lineNo);
    this.prevModel.push(this.lastModel);
    if (facts.kind === 'model') this.lastModel = i;
    this.builder.add(facts, this.current);
  }
}
