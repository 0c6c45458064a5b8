// Per-event lookup tables built once per log (O(n)): running totals, the tool call each event
// belongs to, the model reply of each turn, the latest gate and progress snapshot at each point,
// and the writes per file. They make conditions and scopes O(1) at any position, in either
// direction, without folding state. Built one event at a time (EventIndexBuilder) from the few
// fields it needs (IndexFacts), so a big log is indexed from a cheap line scan while it streams by.
import { totalTokens } from '../protocol/content';
import { judgeCallsOf } from '../protocol/totals';
import type { EventKind, EventOf, KiteEvent } from '../protocol/events';
import { UNUSUAL_STOPS } from './breakpoints';
import { argPath } from './eventSummary';
import { eventList, type EventList } from './eventList';
import { f64, i32, u8, type Grow, type TypedArray } from '../events/growArray';

export interface CallInfo {
  id: string;
  name: string;
  start: number; // index of the first event of the call (proposed, else whatever came first)
  proposed: number;
  policy: number;
  approvalRequest: number;
  approval: number;
  intent: number;
  tool: number; // -1 when absent
}

export interface WriteInfo {
  index: number; // the tool event
  path: string; // workspace-relative
  /** Event whose `args` are the final args (the intent, after a person's edit; else the tool). */
  argsAt: number;
}

export interface EventGroup {
  turn: number; // 0 for the events before the first model call
  first: number; // event index
  last: number; // event index (inclusive)
}

/**
 * What the index reads of one event. A whole KiteEvent fits; a line scan fills the same fields.
 * session_start, compaction and gate are always read whole (`full`), they are rare and the index keeps
 * or sums more of them.
 */
export interface IndexFacts {
  kind: EventKind;
  turn?: number;
  stop?: string;
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  cost_usd?: number;
  id?: string;
  name?: string;
  passed?: boolean;
  is_error?: boolean;
  error_code?: string | null;
  decision?: string;
  effect?: string;
  path?: string | null;
  /** The path in the call's args (only needed when the event has no `path`). */
  argsPath?: string | null;
}

const WRITE_TOOLS = new Set(['write_file', 'edit_file']);

function turnField(e: IndexFacts): number | null {
  return e.kind === 'model' || e.kind === 'model_retry' || e.kind === 'proposed' ? (e.turn ?? 0) : null;
}

/** The facts of a whole event (argsPath from its args). */
export function factsOfEvent(e: KiteEvent): IndexFacts {
  return 'args' in e ? Object.assign({ argsPath: argPath(e.args) }, e as IndexFacts) : (e as IndexFacts);
}

export class EventIndex {
  readonly events: EventList;
  private readonly b: EventIndexBuilder;

  /** Index of whole events (small logs, tests). */
  constructor(events: readonly KiteEvent[] | EventList);
  /**
   * Index fed by a line scan (lazyLog.ts), possibly still being fed: every table is read live, so
   * the index covers the events indexed so far (events.length) and grows with them.
   */
  constructor(events: EventList, built: EventIndexBuilder);
  constructor(events: readonly KiteEvent[] | EventList, built?: EventIndexBuilder) {
    this.events = eventList(events);
    let b = built;
    if (!b) {
      b = new EventIndexBuilder();
      for (let i = 0; i < this.events.length; i++) b.add(factsOfEvent(this.events.at(i)), this.events);
      b.finish();
    }
    this.b = b;
  }

  // Cumulative after event i.
  get tokens(): Float64Array { return this.b.tables.tokens.view; }
  get cost(): Float64Array { return this.b.tables.cost.view; }
  get turns(): Int32Array { return this.b.tables.turns.view; }
  get gateFailures(): Int32Array { return this.b.tables.gateFailures.view; }
  get tokenDetail(): { input: Float64Array; output: Float64Array; cache_write: Float64Array; cache_read: Float64Array } {
    const t = this.b.tables;
    return { input: t.input.view, output: t.output.view, cache_write: t.cacheWrite.view, cache_read: t.cacheRead.view };
  }
  get retries(): Int32Array { return this.b.tables.retries.view; }
  get warnings(): Int32Array { return this.b.tables.warnings.view; }
  /** Index into calls, -1 when the event is not part of a call. */
  get callOfEvent(): Int32Array { return this.b.tables.callOfEvent.view; }
  get calls(): CallInfo[] { return this.b.calls; }
  /** Event index of the group's model reply, -1 if none (yet). */
  get modelOfGroup(): Int32Array { return this.b.modelOfGroup.view; }
  /** For a model event: how many model events came before it. */
  get modelOrdinal(): Int32Array { return this.b.tables.modelOrdinal.view; }
  get groupOfEvent(): Int32Array { return this.b.tables.groupOfEvent.view; }
  get groups(): EventGroup[] { return this.b.groups; }
  /** Index of the latest gate event at or before i, -1 if none. */
  get lastGate(): Int32Array { return this.b.tables.lastGate.view; }
  /** Latest progress or session_start at or before i. */
  get lastProgress(): Int32Array { return this.b.tables.lastProgress.view; }
  /** 1 where classify() may report something (a failed gate, a tool error, a refusal, …): scans skip the rest unparsed. */
  get notable(): Uint8Array { return this.b.tables.notable.view; }
  get writesByPath(): Map<string, WriteInfo[]> { return this.b.writesByPath; }
  get sessionStart(): EventOf<'session_start'> | null { return this.b.sessionStart; }
  /** Index of the last session_end, -1 if none. */
  get lastSessionEnd(): number { return this.b.lastSessionEnd; }
  get hasCompaction(): boolean { return this.b.hasCompaction; }

  callAt(i: number): CallInfo | null {
    const c = this.callOfEvent[i];
    return c >= 0 ? this.calls[c] : null;
  }

  /** The path a write call edits, when the event at i belongs to one (any of its events). */
  writePathAt(i: number): string | null {
    const call = this.callAt(i);
    if (!call) return null;
    const intent = call.intent >= 0 ? (this.events.at(call.intent) as EventOf<'intent'>) : null;
    if (intent) return intent.effect === 'write' ? intent.path ?? argPath(intent.args) : null;
    if (!WRITE_TOOLS.has(call.name)) return null;
    const e = this.events.at(i);
    return 'args' in e ? argPath(e.args) : argPath((this.events.at(call.start) as { args?: unknown }).args);
  }
}

/** Whether classify() (breakpoints.ts) can report anything for an event with these facts. */
function isNotable(e: IndexFacts): boolean {
  switch (e.kind) {
    case 'gate':
      return e.passed === false;
    case 'tool':
      return e.is_error === true && e.error_code !== 'denied';
    case 'policy':
    case 'approval':
      return e.decision === 'deny';
    case 'budget_stop':
    case 'divergence':
      return true;
    case 'model':
      return e.stop !== undefined && UNUSUAL_STOPS.has(e.stop);
    case 'approval_request':
    case 'compaction':
    case 'hook':
    case 'person_edit':
    case 'restore':
    case 'intent':
    case 'model_retry':
    case 'paused':
    case 'progress':
    case 'proposed':
    case 'resumed':
    case 'session_end':
    case 'session_start':
    case 'user':
    case 'warning':
    default:
      return false;
  }
}

/** Feeds an EventIndex one event at a time, in log order. */
export class EventIndexBuilder {
  readonly tables = {
    tokens: f64(), cost: f64(), turns: i32(), gateFailures: i32(), input: f64(), output: f64(), cacheWrite: f64(), cacheRead: f64(),
    retries: i32(), warnings: i32(), callOfEvent: i32(), modelOrdinal: i32(), groupOfEvent: i32(), lastGate: i32(), lastProgress: i32(), notable: u8(),
  };
  readonly calls: CallInfo[] = [];
  readonly groups: EventGroup[] = [];
  readonly modelOfGroup: Grow<Int32Array> = i32();
  readonly writesByPath = new Map<string, WriteInfo[]>();
  sessionStart: EventOf<'session_start'> | null = null;
  lastSessionEnd = -1;
  hasCompaction = false;
  private readonly callById = new Map<string, number>();
  private readonly intents = new Map<number, { effect?: string; path?: string | null; argsPath?: string | null }>(); // by call, until its tool event
  private n = 0;
  private sums = { tokens: 0, cost: 0, turns: 0, gateFailures: 0, input: 0, output: 0, cacheWrite: 0, cacheRead: 0, retries: 0, warnings: 0, models: 0, gate: -1, progress: -1 };
  private group: EventGroup | null = null;

  /** `events` reads the rare events the index keeps whole (session_start, compaction). */
  add(e: IndexFacts, events: EventList): void {
    const i = this.n++;
    const s = this.sums;
    const t = this.tables;
    const turn = turnField(e);
    if (!this.group || (turn !== null && turn !== this.group.turn)) {
      this.group = { turn: turn ?? 0, first: i, last: i };
      this.groups.push(this.group);
      this.modelOfGroup.push(-1);
    }
    this.group.last = i;
    const g = this.groups.length - 1;
    t.groupOfEvent.push(g);
    let call = -1;
    let ordinal = -1;
    switch (e.kind) {
      case 'session_start':
        this.sessionStart ??= events.at(i) as EventOf<'session_start'>;
        s.progress = i;
        break;
      case 'session_end':
        this.lastSessionEnd = i;
        break;
      case 'progress':
        s.progress = i;
        break;
      case 'model': {
        const u = { input_tokens: e.input_tokens ?? 0, output_tokens: e.output_tokens ?? 0, cache_creation_input_tokens: e.cache_creation_input_tokens ?? 0, cache_read_input_tokens: e.cache_read_input_tokens ?? 0 };
        s.tokens += totalTokens(u);
        ordinal = s.models++;
        s.input += u.input_tokens;
        s.output += u.output_tokens;
        s.cacheWrite += u.cache_creation_input_tokens;
        s.cacheRead += u.cache_read_input_tokens;
        s.cost += e.cost_usd ?? 0;
        s.turns = Math.max(s.turns, e.turn ?? 0); // as the reducer counts: the highest turn number
        if (this.modelOfGroup.get(g) < 0) this.modelOfGroup.set(g, i);
        break;
      }
      case 'model_retry':
        s.retries++;
        break;
      case 'warning':
        s.warnings++;
        break;
      case 'gate': {
        s.gate = i;
        if (!e.passed) s.gateFailures++;
        // Judged checks' calls count in the run's totals, as the reducer counts them (gates are read whole).
        for (const j of judgeCallsOf(events.at(i) as EventOf<'gate'>)) {
          s.tokens += totalTokens(j);
          s.input += j.input_tokens;
          s.output += j.output_tokens;
          s.cacheWrite += j.cache_creation_input_tokens;
          s.cacheRead += j.cache_read_input_tokens;
          s.cost += j.cost_usd;
        }
        break;
      }
      case 'proposed':
        call = this.callFor(e, i);
        this.calls[call].proposed = i;
        break;
      case 'policy':
        call = this.callFor(e, i);
        this.calls[call].policy = i;
        break;
      case 'approval_request':
        call = this.callFor(e, i);
        this.calls[call].approvalRequest = i;
        break;
      case 'approval': {
        const c = this.callById.get(e.id ?? '');
        if (c !== undefined) {
          this.calls[c].approval = i;
          call = c;
        }
        break;
      }
      case 'intent':
        call = this.callFor(e, i);
        this.calls[call].intent = i;
        this.intents.set(call, { effect: e.effect, path: e.path, argsPath: e.argsPath });
        break;
      case 'tool': {
        call = this.callFor(e, i);
        const info = this.calls[call];
        info.tool = i;
        const intent = info.intent >= 0 ? (this.intents.get(call) ?? null) : null;
        this.intents.delete(call);
        const isWrite = intent ? intent.effect === 'write' : WRITE_TOOLS.has(e.name ?? '');
        const path = e.path ?? intent?.path ?? (intent ? intent.argsPath : e.argsPath) ?? null;
        if (isWrite && !e.is_error && path) {
          const list = this.writesByPath.get(path) ?? [];
          list.push({ index: i, path, argsAt: intent ? info.intent : i });
          this.writesByPath.set(path, list);
        }
        break;
      }
      case 'compaction': {
        this.hasCompaction = true;
        // A summary is a model call: its tokens and dollars count in the run's totals (as the reducer does).
        const c = events.at(i) as EventOf<'compaction'>;
        if (c.summary) {
          s.tokens += totalTokens(c.summary);
          s.input += c.summary.input_tokens;
          s.output += c.summary.output_tokens;
          s.cacheWrite += c.summary.cache_creation_input_tokens;
          s.cacheRead += c.summary.cache_read_input_tokens;
          s.cost += c.summary.cost_usd;
        }
        break;
      }
      case 'budget_stop':
      case 'divergence':
      case 'hook':
      case 'person_edit':
      case 'restore':
      case 'paused':
      case 'resumed':
      case 'user':
      default:
        break;
    }
    t.callOfEvent.push(call);
    t.modelOrdinal.push(ordinal);
    t.tokens.push(s.tokens);
    t.cost.push(s.cost);
    t.turns.push(s.turns);
    t.gateFailures.push(s.gateFailures);
    t.input.push(s.input);
    t.output.push(s.output);
    t.cacheWrite.push(s.cacheWrite);
    t.cacheRead.push(s.cacheRead);
    t.retries.push(s.retries);
    t.warnings.push(s.warnings);
    t.lastGate.push(s.gate);
    t.lastProgress.push(s.progress);
    t.notable.push(isNotable(e) ? 1 : 0);
  }

  /** Nothing more will be added: drop the tables' spare capacity. */
  finish(): void {
    for (const g of this.growing()) g.trim();
  }

  /** The tables that grow as events are added (a big log's indexer trims them one task at a time). */
  growing(): Grow<TypedArray>[] {
    return [...this.perEvent(), this.modelOfGroup];
  }

  /** The tables with one entry per event (a big log's indexer sizes them for the whole file). */
  perEvent(): Grow<TypedArray>[] {
    return Object.values(this.tables);
  }

  private callFor(e: IndexFacts, i: number): number {
    const id = e.id ?? '';
    let c = this.callById.get(id);
    if (c === undefined) {
      c = this.calls.length;
      this.calls.push({ id, name: e.name ?? '', start: i, proposed: -1, policy: -1, approvalRequest: -1, approval: -1, intent: -1, tool: -1 });
      this.callById.set(id, c);
    }
    return c;
  }
}
