// The replay runtime: a cursor over a run's events that moves like a program counter — forwards
// and backwards — and stops where a person asked it to. No DAP and no I/O here: the debug
// session is a thin layer over this class, and benchmarks and tests drive it directly.
import type { Message } from '../protocol/content';
import type { KiteEvent } from '../protocol/events';
import {
  DEFAULT_EXCEPTION_FILTERS,
  classify,
  compileBreakpoint,
  hitMatches,
  type Breakpoint,
  type BreakpointSpec,
  type ExceptionFilterId,
  type ExceptionHit,
} from './breakpoints';
import { EventIndex } from './eventIndex';
import { eventList, indexOfSeq, type EventList } from './eventList';
import { eventLine } from './eventSummary';
import { evaluate, renderTemplate, truthy, type ExprScope } from './expressions';
import { buildScope } from './scope';
import { COMPLETE, type IndexProgress } from './indexProgress';
import { StateCursor, type StateFolder } from './stateCursor';
import { eventForLine, transcriptOf, type Transcript } from './transcript';

// The background fold holds the event loop ~4 ms at a time (a request waits at most that long for
// it), checking the clock every few events.
const FOLD_SLICE_MS = 4;
const FOLD_STEP = 8;

export type StopReason = 'entry' | 'step' | 'breakpoint' | 'function breakpoint' | 'exception' | 'goto' | 'pause';

export interface Stop {
  index: number;
  reason: StopReason;
  description: string; // shown in the Call Stack / status bar
  text?: string; // exception text
  hitBreakpointIds: number[];
  exception?: ExceptionHit;
}

export interface LineBreakpointResult {
  id: number;
  verified: boolean;
  line: number; // where it really sits (turn headers move to the turn's first event)
  message?: string;
}

export interface RuntimeOptions<S> {
  name?: string;
  folder?: StateFolder<S>;
  messagesOf?: (state: S) => Message[] | null;
  snapshotEvery?: number;
  /** How far a log still being indexed has got (default: complete, the events are all there). */
  indexing?: IndexProgress;
  /** Events expected in a log still being indexed (sets the snapshot density). */
  expectedEvents?: number;
  /** Logpoint output (already interpolated). */
  onOutput?: (text: string, index: number) => void;
}

export class ReplayRuntime<S = unknown> {
  readonly index: EventIndex;
  readonly transcript: Transcript;
  private readonly cursor: StateCursor<S> | null;
  private readonly snapshotEvery: number;
  position = 0;
  private nextId = 1;
  private lineBps = new Map<number, Breakpoint[]>(); // event index -> breakpoints (all documents)
  private readonly lineBpScopes = new Map<number, { at: number; bp: Breakpoint }[]>(); // per document
  private fnBps = new Map<string, Breakpoint[]>(); // tool name -> breakpoints
  private exceptions = new Set<ExceptionFilterId>(DEFAULT_EXCEPTION_FILTERS);
  lastStop: Stop | null = null;
  /** Live mode: the recording this run is compared with (for the divergence view). */
  recorded: EventList | null = null;
  private allMessages: Message[] | null = null;
  private assistantAt: number[] = [];

  readonly events: EventList;
  readonly indexing: IndexProgress;

  /** Events in memory, or the index of a big log (lazyLog.ts) whose events are read on demand. */
  constructor(
    source: readonly KiteEvent[] | EventIndex,
    private readonly opts: RuntimeOptions<S> = {},
  ) {
    this.index = source instanceof EventIndex ? source : new EventIndex(eventList(source));
    const events = this.index.events;
    this.events = events;
    this.indexing = opts.indexing ?? COMPLETE;
    this.transcript = transcriptOf(this.index, opts.name, this.indexing);
    // Dense snapshots: a snapshot shares finished calls and messages with the run (reducer.ts
    // cloneRunState), so it costs O(calls / 256 + open parts) and a jump anywhere costs one such
    // clone plus at most `every` reducer steps, each parsing its event from the log at most once
    // (a small cache of parsed events). At most ~2,000 snapshots, whatever the length.
    this.snapshotEvery = opts.snapshotEvery ?? Math.max(256, Math.round((opts.expectedEvents ?? events.length) / 2000));
    this.cursor = opts.folder ? new StateCursor(events, opts.folder, this.snapshotEvery) : null;
  }

  /**
   * Fold the whole log in the background in slices of about FOLD_SLICE_MS, leaving the event loop
   * free between them (requests are answered in between), so the snapshots exist before anyone
   * asks for state far into the run. Slices are bounded in time, not in events: events differ
   * a hundredfold in size, and a request waits for at most the slice under way.
   */
  async warm(signal?: { cancelled: boolean; busy?: () => boolean }): Promise<void> {
    if (!this.cursor) return;
    // The index first: requests wait on it, the fold only makes later ones faster.
    try {
      await this.indexing.until(() => signal?.cancelled === true);
    } catch {
      return; // indexing stopped (the session ended, or it failed and said so): nothing more to fold for
    }
    const last = this.length - 1;
    for (let i = 0; i < last; ) {
      // Interactive requests first: while a person is stepping, the fold waits.
      while (signal?.busy?.() && !signal.cancelled) await new Promise<void>((r) => setTimeout(r, 25));
      if (signal?.cancelled) return;
      const until = performance.now() + FOLD_SLICE_MS;
      do {
        i = Math.min(i + FOLD_STEP, last);
        this.cursor.stateAfter(i);
      } while (i < last && performance.now() < until);
      if (i < last) await new Promise<void>((r) => setImmediate(r));
    }
  }

  get length(): number {
    return this.events.length;
  }

  /** The indexer added events: give them transcript lines. */
  indexAdvanced(): void {
    this.transcript.extend();
  }

  /** Resolves once `ready()` holds or the whole log is indexed (at once for a log read whole). */
  async whenIndexed(ready: () => boolean): Promise<void> {
    await this.indexing.until(ready);
    this.transcript.extend();
  }

  /**
   * Whether what the views show at event i is final: its event is indexed, and so are the rest
   * of its tool call (the frame of a write names the intent's path; its file content is as the
   * tool left it) and its turn's model reply (the turn number, the messages sent).
   */
  settledAt(i: number): boolean {
    if (this.indexing.complete) return true;
    if (i >= this.length) return false;
    const call = this.index.callAt(i);
    if (call && call.tool < 0) return false;
    const g = this.index.groupOfEvent[i];
    return this.index.modelOfGroup[g] >= 0 || this.index.groups.length > g + 1;
  }
  get current(): KiteEvent {
    return this.events.at(this.position);
  }

  /** Folded state after event i (the reducer's view of that moment). */
  stateAfter(i: number): S | null {
    return this.cursor ? this.cursor.stateAfter(i) : null;
  }

  get cursorStats(): { clones: number; applied: number; snapshots: number } | null {
    return this.cursor ? { ...this.cursor.stats, snapshots: this.cursor.snapshotCount } : null;
  }

  /**
   * Messages the model was sent for the turn of event i. The conversation is append-only, so the
   * messages before the k-th reply are the first messages of the final fold up to the k-th
   * assistant message: one fold of the whole run answers every turn (a unit test checks this
   * against a fold up to each reply).
   */
  messagesFor(i: number): Message[] | null {
    const m = this.index.modelOfGroup[this.index.groupOfEvent[i]];
    if (m < 0 || !this.cursor || !this.opts.messagesOf) return null;
    // A compaction rewrote earlier messages (stubs, a summary): the conversation is no longer
    // append-only, so each turn's messages come from the fold up to just before its reply. The
    // same while the log is still being indexed (no final fold yet; a compaction may come).
    if (this.index.hasCompaction || !this.indexing.complete) return this.messagesByFold(i);
    if (!this.allMessages) {
      const all = this.opts.messagesOf(this.cursor.stateAfter(this.length - 1));
      if (!all) return null;
      this.allMessages = all;
      this.assistantAt = [];
      all.forEach((msg, j) => msg.role === 'assistant' && this.assistantAt.push(j));
    }
    const k = this.index.modelOrdinal[m];
    return k < this.assistantAt.length ? this.allMessages.slice(0, this.assistantAt[k]) : null;
  }

  /** The same, folded up to just before the reply (slow path; used to check the fast one). */
  messagesByFold(i: number): Message[] | null {
    const m = this.index.modelOfGroup[this.index.groupOfEvent[i]];
    if (m < 0 || !this.cursor || !this.opts.messagesOf) return null;
    const msgs = this.opts.messagesOf(this.cursor.stateAfter(m - 1));
    return msgs ? [...msgs] : null;
  }

  scopeAt(i: number): ExprScope {
    return buildScope({ index: this.index, messagesFor: (j) => this.messagesFor(j), recorded: this.recorded }, i);
  }

  // ---- breakpoints -------------------------------------------------------------------------

  /**
   * Replaces the line breakpoints of one document (`scope`: a transcript window, or the whole
   * transcript); those of other documents stay as they are, ids and hit counts included.
   */
  setLineBreakpoints(specs: (BreakpointSpec & { line: number })[], scope = 0): LineBreakpointResult[] {
    const placed: { at: number; bp: Breakpoint }[] = [];
    const results = specs.map((s) => {
      const bp = compileBreakpoint(this.nextId++, s);
      const at = eventForLine(this.transcript, s.line);
      if (at === null) return { id: bp.id, verified: false, line: s.line, message: `line ${s.line} is past the end of the transcript (${this.transcript.lineCount} lines)` };
      const line = this.transcript.lineOfEvent[at];
      if (bp.error) return { id: bp.id, verified: false, line, message: bp.error };
      placed.push({ at, bp });
      return { id: bp.id, verified: true, line };
    });
    this.lineBpScopes.set(scope, placed);
    this.lineBps = new Map();
    for (const list of this.lineBpScopes.values()) for (const { at, bp } of list) this.lineBps.set(at, [...(this.lineBps.get(at) ?? []), bp]);
    return results;
  }

  setFunctionBreakpoints(specs: (BreakpointSpec & { name: string })[]): { id: number; verified: boolean; message?: string }[] {
    this.fnBps = new Map();
    const known = new Set(this.index.calls.map((c) => c.name));
    return specs.map((s) => {
      const bp = compileBreakpoint(this.nextId++, s);
      const name = s.name.trim();
      if (bp.error) return { id: bp.id, verified: false, message: bp.error };
      const list = this.fnBps.get(name) ?? [];
      list.push(bp);
      this.fnBps.set(name, list);
      // Still armed when unknown (the name may be mistyped, or simply never called in this run).
      return known.has(name) ? { id: bp.id, verified: true } : { id: bp.id, verified: true, message: `no ${name} call in this run` };
    });
  }

  setExceptionFilters(filters: ExceptionFilterId[]): void {
    this.exceptions = new Set(filters);
  }

  // ---- movement ----------------------------------------------------------------------------

  entry(): Stop {
    return this.land(0, 'entry', `Entry: ${this.describe(0)}`);
  }

  /** Open at the event with this seq (the timeline's "replay from here"); the first event if absent. */
  entryAtSeq(seq: number): Stop {
    const i = indexOfSeq(this.events, seq);
    if (i < 0) return this.land(0, 'entry', `No event #${seq} in this log; stopped at the first event`);
    return this.land(i, 'entry', `Opened at ${this.describe(i)}`);
  }

  /** Without stop on entry: run from the first event to the first stop (the first event counts). */
  start(): Stop {
    this.position = 0;
    const hit = this.scan(0, this.length - 1, 1);
    return hit ?? this.land(this.length - 1, 'step', `End of the run log: ${this.describe(this.length - 1)}`);
  }

  stepIn(): Stop {
    if (this.position >= this.length - 1) return this.land(this.length - 1, 'step', `End of the run log: ${this.describe(this.length - 1)}`);
    const to = this.position + 1;
    this.logpoints(to);
    return this.land(to, 'step');
  }

  stepBack(): Stop {
    if (this.position <= 0) return this.land(0, 'entry', `Start of the run log: ${this.describe(0)}`);
    const to = this.position - 1;
    this.logpoints(to);
    return this.land(to, 'step');
  }

  /** Next turn: the first event of the following turn (or the last event). */
  next(): Stop {
    const g = this.index.groupOfEvent[this.position];
    const groups = this.transcript.groups;
    const target = g + 1 < groups.length ? groups[g + 1].first : this.length - 1;
    return this.forwardTo(target);
  }

  /** End of the turn: its last event; from there, the end of the next turn. */
  stepOut(): Stop {
    const groups = this.transcript.groups;
    let g = this.index.groupOfEvent[this.position];
    if (this.position === groups[g].last && g + 1 < groups.length) g++;
    return this.forwardTo(groups[g].last);
  }

  continue(): Stop {
    const hit = this.scan(this.position + 1, this.length - 1, 1);
    return hit ?? this.land(this.length - 1, 'step', `End of the run log: ${this.describe(this.length - 1)}`);
  }

  /**
   * continue() on a log still being indexed: scans what is indexed, waits for more, and goes on,
   * so it stops at the first breakpoint as soon as the indexer reaches it (each event is scanned once).
   */
  async continueIndexed(): Promise<Stop> {
    return (await this.scanIndexed(this.position + 1)) ?? this.land(this.length - 1, 'step', `End of the run log: ${this.describe(this.length - 1)}`);
  }

  /** start() on a log still being indexed (the first event counts). */
  async startIndexed(): Promise<Stop> {
    this.position = 0;
    return (await this.scanIndexed(0)) ?? this.land(this.length - 1, 'step', `End of the run log: ${this.describe(this.length - 1)}`);
  }

  private async scanIndexed(from: number): Promise<Stop | null> {
    let next = from;
    for (;;) {
      const to = this.length - 1;
      if (next <= to) {
        const hit = this.scan(next, to, 1);
        if (hit) return hit;
        next = to + 1;
      }
      if (this.indexing.complete && next >= this.length) return null;
      // A failed index ends where it failed (the session says why): the scan ends there too.
      await this.whenIndexed(() => this.length > next).catch(() => undefined);
    }
  }

  reverseContinue(): Stop {
    const hit = this.scan(this.position - 1, 0, -1);
    return hit ?? this.land(0, 'entry', `Start of the run log: ${this.describe(0)}`);
  }

  goto(i: number): Stop {
    return this.land(Math.max(0, Math.min(i, this.length - 1)), 'goto', `Jumped to ${this.describe(i)}`);
  }

  pause(): Stop {
    return this.land(this.position, 'pause');
  }

  private forwardTo(target: number): Stop {
    if (target <= this.position) return this.land(this.position, 'step', `End of the run log: ${this.describe(this.position)}`);
    const hit = this.scan(this.position + 1, target - 1, 1);
    if (hit) return hit;
    this.logpoints(target);
    return this.land(target, 'step');
  }

  private describe(i: number): string {
    return eventLine(this.events.at(i));
  }

  private land(i: number, reason: StopReason, description?: string, extra: Partial<Stop> = {}): Stop {
    this.position = i;
    const stop: Stop = { index: i, reason, description: description ?? this.describe(i), hitBreakpointIds: [], ...extra };
    this.lastStop = stop;
    return stop;
  }

  /** Walk from..to (inclusive) in `dir`, returning the first stop; logpoints print on the way. */
  private scan(from: number, to: number, dir: 1 | -1): Stop | null {
    const checkFns = this.fnBps.size > 0;
    const checkLines = this.lineBps.size > 0;
    for (let i = from; dir > 0 ? i <= to : i >= to; i += dir) {
      let scope: ExprScope | null = null;
      const scopeAt = () => (scope ??= this.scopeAt(i));
      if (checkLines) {
        const bps = this.lineBps.get(i);
        if (bps) {
          const ids = this.fire(bps, scopeAt, i);
          if (ids.length) return this.land(i, 'breakpoint', `Breakpoint: ${this.describe(i)}`, { hitBreakpointIds: ids });
        }
      }
      if (checkFns) {
        const call = this.index.callAt(i);
        const bps = call && call.start === i ? this.fnBps.get(call.name) : undefined;
        if (bps) {
          const ids = this.fire(bps, scopeAt, i);
          if (ids.length) return this.land(i, 'function breakpoint', `Function breakpoint ${call?.name}: ${this.describe(i)}`, { hitBreakpointIds: ids });
        }
      }
      // Only events the index marks notable can be exceptions: the rest stay unparsed.
      if (this.exceptions.size && this.index.notable[i]) {
        const ex = classify(this.events.at(i));
        if (ex && this.exceptions.has(ex.filter)) return this.land(i, 'exception', ex.description, { text: ex.details, exception: ex });
      }
    }
    return null;
  }

  /** Evaluate breakpoints at an event: conditions, hit counts, logpoints. Returns ids that stop. */
  private fire(bps: Breakpoint[], scopeAt: () => ExprScope, i: number): number[] {
    const ids: number[] = [];
    for (const bp of bps) {
      if (bp.condition && !truthy(evaluate(bp.condition, scopeAt()))) continue;
      bp.hits++;
      if (bp.hit && !hitMatches(bp.hit, bp.hits)) continue;
      if (bp.log) {
        this.opts.onOutput?.(renderTemplate(bp.log, scopeAt()), i);
        continue;
      }
      ids.push(bp.id);
    }
    return ids;
  }

  /** Logpoints on the event a step lands on still print (they never stop). */
  private logpoints(i: number): void {
    const bps = this.lineBps.get(i)?.filter((b) => b.log);
    if (!bps?.length) return;
    let scope: ExprScope | null = null;
    this.fire(bps, () => (scope ??= this.scopeAt(i)), i);
  }

  /** Exception details of the current stop, for exceptionInfo. */
  exceptionAtPosition(): ExceptionHit | null {
    return this.lastStop?.exception ?? classify(this.current);
  }
}
