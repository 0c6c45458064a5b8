// A big run log opened for replay without parsing it (issue 17): one pass records each event's
// byte range and feeds the index (eventIndex.ts) the few fields it needs, read by a line scan
// (lineFields.ts). An event is parsed — structural check, args references resolved — only when
// something looks at it, and a few thousand stay cached. Lines the scan does not understand are
// parsed the ordinary way at once (reader semantics: a malformed line is a problem and skipped).
// Problems only a full parse can see (a line whose body is broken, a bad args reference) are
// reported when the line is first parsed; the hash chain is checked by verifyChain, later.
import { open } from 'node:fs/promises';
import { closeSync, openSync, readSync } from 'node:fs';
import { canonicalJson, isRefEvent, resolveArgsRef, type Referenced } from '../protocol/argsRef';
import { EVENT_KINDS, LOG_VERSION, type EventKind, type EventOf, type KiteEvent } from '../protocol/events';
import { LogLineParser, type LogProblem } from '../protocol/parse';
import { ChainChecker } from '../events/chain';
import { LogReadError, openLogFile, runIdOf } from '../events/reader';
import { sha256 } from '../tools/hash';
import { EventIndex, EventIndexBuilder, factsOfEvent, type IndexFacts } from './eventIndex';
import type { EventList } from './eventList';
import { f64, i32 } from './growArray';
import { KeySet, topLevelFields, type FieldValue } from './lineFields';

// Each chunk is scanned synchronously: 512 KB (~500 events) bounds how long open holds the event loop.
const CHUNK = 512 << 10;
const WINDOW = 256 << 10; // bytes read at once on demand: a fold reads its next events in one call
const NL = 0x0a;
const CACHE = 4096;
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

  constructor(
    readonly path: string,
    private readonly starts: Float64Array,
    private readonly lengths: Float64Array, // bytes, without the line break
    readonly lines: Int32Array, // 1-based line number of each event
    private readonly prevModel: Int32Array, // latest model event before each event, -1 if none
    private readonly opts: LazyLogOptions = {},
  ) {
    this.parser = new LogLineParser(runIdOf(path), 'structural');
    this.fd = openSync(path, 'r');
  }

  get length(): number {
    return this.starts.length;
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
    const from = this.starts[i];
    const to = from + this.lengths[i];
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
    const m = this.prevModel[i];
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
  problems: LogProblem[];
  /** false when the file is not a current Kite log (a Python Kite log): read it whole instead. */
  lazy: true;
}

/** Throws LogReadError (not_found, not_a_log, unsupported_version) like the reader. null for a log to read whole (Python Kite format). */
export async function openLazyLog(path: string, opts: LazyLogOptions = {}): Promise<OpenedLazyLog | null> {
  const fh = await openLogFile(path);
  const starts = f64();
  const lengths = f64();
  const lines = i32();
  const prevModel = i32();
  const problems: LogProblem[] = [];
  const builder = new EventIndexBuilder();
  const parser = new LogLineParser(runIdOf(path), 'structural');
  let lastModel = -1;
  let lineNo = 0;
  let lastBadBytes: number | null = null;
  let completeLines = 0;
  let python = false;
  const scratch = new Map<string, FieldValue>();
  let whole: KiteEvent | null = null;
  // The builder reads session_start, compaction and gate whole: they are parsed on the spot (WHOLE).
  const current: EventList = {
    get length() {
      return starts.length;
    },
    at: (i) => {
      if (!whole || i !== starts.length - 1) throw new Error(`event ${i} is not the one being indexed`);
      return whole;
    },
  };
  const line = (buf: Buffer, a: number, b: number, fileOffset: number, terminated: boolean): void => {
    lineNo++;
    let end = b;
    if (end > a && buf[end - 1] === 0x0d) end--;
    let p = a;
    while (p < end && (buf[p] === 0x20 || buf[p] === 0x09)) p++;
    if (p === end) return;
    if (terminated) completeLines++;
    const fields = topLevelFields(buf, a, end, FIELDS, scratch, enough);
    let facts = fields && terminated ? factsOf(fields) : null; // a torn last line is judged by the parser
    whole = null;
    if (facts && fields) {
      // The rare write whose events name no path: the index needs the path in its args.
      if ((facts.kind === 'tool' && facts.path === undefined && WRITE_TOOLS.has(facts.name ?? '')) || (facts.kind === 'intent' && facts.effect === 'write' && facts.path === null)) {
        facts.argsPath = rawArgsPath(topLevelFields(buf, a, end, ARGS)?.get('args'));
      }
    }
    if (!facts) {
      const r = parser.parse(buf.toString('utf8', a, b), lineNo);
      if (!r.ok) {
        lastBadBytes = b - a;
        if (r.unsupportedVersion !== undefined) throw new LogReadError('unsupported_version', `${path}: ${r.problem.message}`, path, lineNo, r.unsupportedVersion);
        if (!terminated) problems.push({ line: lineNo, message: `line ${lineNo}: torn last line, the writer stopped mid-event (${b - a} bytes ignored)` });
        else problems.push(r.problem);
        return;
      }
      if (r.format === 'python-kite') python = true;
      whole = r.event;
      facts = factsOfEvent(whole);
    }
    const i = starts.length;
    const prev = problems.at(-1);
    if (facts.kind === 'resumed' && prev && prev.line === lineNo - 1 && lastBadBytes !== null) {
      prev.message = `line ${prev.line}: torn line left by a crash (the run was resumed after it; ${lastBadBytes} bytes ignored)`;
    }
    lastBadBytes = null;
    starts.push(fileOffset + a);
    lengths.push(end - a);
    lines.push(lineNo);
    prevModel.push(lastModel);
    if (facts.kind === 'model') lastModel = i;
    builder.add(facts, current);
  };
  try {
    let carry: Buffer | null = null;
    let carryAt = 0; // file offset of carry[0]
    let pos = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      const base = carry ? carryAt : pos;
      pos += bytesRead;
      let s = 0;
      for (let nl = data.indexOf(NL, s); nl !== -1; nl = data.indexOf(NL, s)) {
        line(data, s, nl, base, true);
        if (python) return null;
        s = nl + 1;
      }
      carry = s < data.length ? Buffer.from(data.subarray(s)) : null;
      carryAt = base + s;
    }
    if (carry) line(carry, 0, carry.length, carryAt, false);
    if (python) return null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new LogReadError('not_a_log', `${path} is a directory, not a log file`, path);
    throw e;
  } finally {
    await fh.close();
  }
  if (starts.length === 0 && completeLines > 0 && problems.length > 0) {
    throw new LogReadError('not_a_log', `${path} is not a Kite log: ${problems[0].message}`, path, problems[0].line);
  }
  const log = new LazyLog(path, starts.done(), lengths.done(), lines.done(), prevModel.done(), opts);
  const index = new EventIndex(log, builder);
  log.attach(index);
  return { log, index, problems, lazy: true };
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
