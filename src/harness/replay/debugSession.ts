// The Debug Adapter Protocol session over a run log: a thin layer over ReplayRuntime. It runs
// inline in the extension and stand-alone over stdio (debugAdapterMain.ts), so any DAP client can
// step through a past run. Source = the generated transcript; the current event is the current line.
import {
  Breakpoint,
  Event,
  InitializedEvent,
  LoggingDebugSession,
  OutputEvent,
  type Source,
  StoppedEvent,
  TerminatedEvent,
  Thread,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { RunState } from '../protocol/reducer';
import { DEFAULT_EXCEPTION_FILTERS, EXCEPTION_FILTERS, isExceptionFilterId, type ExceptionFilterId } from './breakpoints';
import { eventLine, summarize } from './eventSummary';
import { runLiveReplay, type LiveReplayResult } from './liveReplay';
import { ExpressionError, evaluate, parseExpression, type Expr } from './expressions';
import { parseLaunchArgs, type LaunchArgs } from './launchArgs';
import { openReplay, verifyLater, type OpenedReplay } from './openReplay';
import { indexNeedOf } from './indexWaits';
import type { LogProblem } from '../protocol/parse';
import { DapError, openErrorOf } from './dapErrors';
import { TranscriptLocator, type TranscriptWindow } from './transcriptSource';
import { LOG_PROBLEMS_EVENT, TRANSCRIPT_CHANGED_EVENT } from './transcriptWindow';
import type { ReplayRuntime, Stop } from './replayRuntime';
import { SCOPE_ROOTS } from './scope';
import { eventForLine, transcriptTextSliced, transcriptWindowText, withLogProblems } from './transcript';
import { VariableStore } from './variableStore';
import { Inspector } from './inspector';
import { WriteSources } from './writeSources';
import { writeSnapshotIndexed } from './writeSnapshot';

export const THREAD_ID = 1;

export { DapError } from './dapErrors';

export interface KiteDebugSessionOptions {
  /** Where the transcript lives for the client: VS Code passes a `kite-transcript:` URI maker.
   * Without it the transcript is served by reference (the `source` request). */
  transcriptUri?: (log: string, window: TranscriptWindow | null) => string;
  /** A log at least `minBytes` long gets its transcript in windows of `lines` lines (transcriptSource.ts). */
  transcriptWindows?: { minBytes?: number; lines?: number };
  /** Where a write frame's file content lives for the client: VS Code passes a `kite-file:` URI
   * maker (writeSnapshot.ts). Without it the content is served by reference. */
  writeUri?: (log: string, seq: number, path: string) => string;
  /** How long launch waits for configurationDone before going on without it. */
  configurationTimeoutMs?: number;
  /** How a big log is indexed after the first stop (tests hold it at a chosen point). */
  indexing?: { chunkBytes?: number; pace?: () => Promise<void> };
  /** Called when a recorded replay launches, before its log is indexed: the stand-alone adapter
   *  lowers its priority there (backgroundPriority.ts). Never set for a session inside the
   *  extension host, whose thread is the host's event loop. */
  onRecordedReplay?: () => void;
}

/** A log this big (about 20,000 events) gets a windowed transcript: each window's text is ~250 KB
 *  (it crosses the extension host's loop several times: 1 MB windows held it 50–90 ms each time). */
export const TRANSCRIPT_WINDOW_MIN_BYTES = 8 << 20;
export const TRANSCRIPT_WINDOW_LINES = 2_500;

// Answered at once, outside the request queue: they start or end the session.
const UNQUEUED = new Set(['initialize', 'launch', 'disconnect', 'terminate']);

export class KiteDebugSession extends LoggingDebugSession {
  private runtime: ReplayRuntime<RunState> | null = null;
  private get logPath(): string {
    return this.transcript.log;
  }
  private set logPath(log: string) {
    this.transcript.log = log;
  }
  private root = '';
  private terminated = false;
  private lastRequestAt = 0;
  private readonly warming = { cancelled: false, busy: () => performance.now() - this.lastRequestAt < 25 };
  private recorded: ReplayRuntime<RunState> | null = null; // live mode: the recording
  private liveAbort: AbortController | null = null;
  // Set before a live replay has produced its log: applied once it has.
  private pendingFilters: ExceptionFilterId[] | null = null;
  private pendingFunctionBps: DebugProtocol.FunctionBreakpoint[] | null = null;
  private readonly vars = new VariableStore();
  private readonly opened: OpenedReplay[] = [];
  /** Each opened log's problems found so far: served below its transcript, as the extension's document shows them. */
  private readonly problemsOf = new Map<string, LogProblem[]>();
  private readonly transcript: TranscriptLocator;
  private readonly writes: WriteSources;
  private readonly inspector = new Inspector(this.vars, {
    transcriptAt: (l) => this.transcriptAt(l),
    writeSource: (path, seq) => this.writes.source(this.logPath, path, seq),
    lineToClient: (l) => this.convertDebuggerLineToClient(l),
  });
  private configurationDone!: () => void;
  private readonly configured = new Promise<void>((r) => (this.configurationDone = r));

  constructor(private readonly opts: KiteDebugSessionOptions = {}) {
    super();
    this.transcript = new TranscriptLocator(opts.transcriptUri);
    this.writes = new WriteSources(opts.writeUri);
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /**
   * Requests are answered in order, one at a time: one about a part of the log not indexed yet
   * waits for the indexer (indexWaits.ts), and those after it wait their turn, so every answer
   * is what it would be with the whole log indexed.
   */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    this.lastRequestAt = performance.now();
    if (UNQUEUED.has(request.command)) return super.dispatchRequest(request);
    this.enqueue(async () => {
      const rt = this.runtime;
      const need = rt && !this.terminated ? indexNeedOf(request, rt, {
              line: (source, l) => this.wholeLine(source, l) ?? 0,
              writeSeq: (ref) => this.writes.seqOf(ref),
              transcriptWindow: (args) => {
                const w = this.transcript.windowOfSourceRequest(args);
                return w === undefined || w === null ? w : this.transcript.linesOf(w);
              },
            }) : null;
      if (rt && need) await rt.whenIndexed(() => this.terminated || need()).catch(() => undefined); // a failed index is reported once (indexingFailed)
      this.lastRequestAt = performance.now();
      super.dispatchRequest(request);
      const moving = this.moving;
      this.moving = null;
      if (moving) await moving;
    });
  }

  private queue: Promise<void> = Promise.resolve();
  /** A movement that scans while the log is indexed (continue): the queue waits for its stop. */
  private moving: Promise<void> | null = null;

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((e: unknown) => {
      this.sendEvent(new OutputEvent(`kite: replay adapter error: ${e instanceof Error ? e.message : String(e)}\n`, 'important'));
    });
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsStepBack: true,
      supportsGotoTargetsRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsFunctionBreakpoints: true,
      supportsExceptionInfoRequest: true,
      supportsTerminateRequest: true,
      supportsBreakpointLocationsRequest: true,
      supportsCompletionsRequest: true,
      supportsEvaluateForHovers: true,
      supportsDelayedStackTraceLoading: false,
      exceptionBreakpointFilters: EXCEPTION_FILTERS.map((f) => ({ filter: f.filter, label: f.label, description: f.description, default: f.default })),
    };
    this.sendResponse(response);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configurationDone();
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments): void {
    void this.launch(response, args).catch((e: unknown) => this.fail(response, DapError.notALog, `could not open the log: ${e instanceof Error ? e.message : String(e)}`, true));
  }

  private async launch(response: DebugProtocol.LaunchResponse, raw: unknown): Promise<void> {
    const parsed = parseLaunchArgs(raw);
    if (!parsed.ok) return this.fail(response, DapError.badLaunchArgs, parsed.message, true);
    const args: LaunchArgs = parsed.args;
    // Hidden in VS Code; says which process serves the session (inline or a separate adapter).
    const who = new OutputEvent(`kite: replay adapter pid ${process.pid}\n`, 'telemetry') as DebugProtocol.OutputEvent;
    who.body.data = { kind: 'adapter', pid: process.pid, mode: args.mode };
    this.sendEvent(who);
    if (args.log.includes('${')) return this.fail(response, DapError.badLaunchArgs, `launch attribute "log" is "${args.log}": open a .jsonl run log in the editor or set "log" to the path of one`, true);
    const log = resolve(args.log);
    if (args.mode !== 'live') this.opts.onRecordedReplay?.();
    const opened = await this.open(response, log);
    if (!opened) return;
    const windows = { minBytes: TRANSCRIPT_WINDOW_MIN_BYTES, lines: TRANSCRIPT_WINDOW_LINES, ...this.opts.transcriptWindows };
    const size = await stat(log).then((st) => st.size, () => 0);
    // Decided once, before the first frame: a window's lines never change while the session lasts.
    this.transcript.windowLines = args.mode !== 'live' && size >= windows.minBytes ? windows.lines : 0;
    const recordedRoot = opened.runtime.index.sessionStart?.root ?? '';
    this.root = args.root ? resolve(args.root) : recordedRoot;
    this.logPath = log;
    if (args.mode === 'live') {
      // The live run is compared with the whole recording.
      await opened.runtime.whenIndexed(() => false);
      return this.launchLive(response, opened.runtime, args.liveMcp === true);
    }
    this.runtime = opened.runtime;
    this.sendEvent(new InitializedEvent());
    await this.configurationFinished();
    this.sendResponse(response);
    const rt = this.runtime;
    // In the request queue: after the breakpoints set before configurationDone, whatever they waited for.
    const first = new Promise<void>((done) =>
      this.enqueue(async () => {
        try {
          this.report(args.seq !== undefined ? await this.entryAtSeq(rt, args.seq) : args.stopOnEntry ? rt.entry() : await rt.startIndexed());
        } finally {
          done();
        }
      }),
    );
    await first;
    await this.warm(this.runtime);
  }

  /** The event with this seq: Kite numbers events from 0, so it is indexed once seq + 1 events are (or the log ends). */
  private async entryAtSeq(rt: ReplayRuntime<RunState>, seq: number): Promise<Stop> {
    await rt.whenIndexed(() => rt.length > seq).catch(() => undefined);
    if (!rt.indexing.complete && rt.events.at(seq).seq !== seq) await rt.whenIndexed(() => false).catch(() => undefined);
    return rt.entryAtSeq(seq);
  }

  /** Fold the run in the background; a telemetry output (hidden in VS Code) says when it is done. */
  private async warm(rt: ReplayRuntime<RunState>): Promise<void> {
    const t0 = performance.now();
    await rt.warm(this.warming);
    if (this.warming.cancelled) return;
    const ms = Math.round(performance.now() - t0);
    const ev = new OutputEvent(`kite: folded ${rt.length} events into ${rt.cursorStats?.snapshots ?? 0} state snapshots in ${ms} ms\n`, 'telemetry') as DebugProtocol.OutputEvent;
    ev.body.data = { kind: 'snapshotsReady', events: rt.length, snapshots: rt.cursorStats?.snapshots ?? 0, ms };
    this.sendEvent(ev);
    await this.verifyOpened();
  }

  /** Read a log into a runtime, or answer the launch with an error naming the problem. */
  private async open(response: DebugProtocol.Response, log: string): Promise<OpenedReplay | null> {
    try {
      const skipped = (p: LogProblem) => {
        this.noteProblem(log, p);
        this.sendEvent(new OutputEvent(`${log}:${p.line}: ${p.message} (line skipped)\n`, 'important'));
      };
      const opened = await openReplay(log, {
        onOutput: (text, i) => this.logpointOutput(text, i),
        onProblem: (p) => this.laterProblem(log, p),
        // The first stop comes after the first chunk; lines skipped further on are reported when reached.
        incremental: { onScanProblem: skipped, ...this.opts.indexing },
      });
      for (const p of opened.problems) skipped(p);
      this.opened.push(opened);
      opened.runtime.indexing
        .until(() => this.terminated)
        .catch((e: unknown) => this.indexingFailed(log, e))
        .finally(() => this.indexedAfterHeaderServed(log));
      return opened;
    } catch (e) {
      const err = openErrorOf(log, e);
      if (!err) throw e;
      this.fail(response, err.id, err.message, true);
      return null;
    }
  }

  /** Logs whose run header was served while they were still being indexed (it said "so far"). */
  private readonly headerServedEarly = new Set<string>();

  /** Indexing is over: a document served with the header "so far" is stale, and the client hears it. */
  private indexedAfterHeaderServed(log: string): void {
    if (this.headerServedEarly.delete(log) && !this.terminated) this.sendEvent(new Event(TRANSCRIPT_CHANGED_EVENT, { log }));
  }

  /** The index stopped part-way (a line of an unsupported version, a read error): said as a failed launch would say it. */
  private indexingFailed(log: string, e: unknown): void {
    if (this.terminated) return;
    const message = openErrorOf(log, e)?.message ?? `cannot replay ${log}: ${e instanceof Error ? e.message : String(e)}`;
    const n = this.runtime?.length ?? 0;
    this.sendEvent(new OutputEvent(`${message} (the replay shows the ${n} events before it)\n`, 'important'));
  }

  /** A problem found after launch: a line first parsed when shown, or the background chain check. */
  private laterProblem(log: string, p: LogProblem): void {
    this.noteProblem(log, p);
    const what = p.chain ? '' : ' (shown as an unreadable_line warning)';
    this.sendEvent(new OutputEvent(`${log}:${p.line}: ${p.message}${what}\n`, 'important'));
  }

  /** Kept for the transcript's text; the client hears that it changed (a document of it shown is stale). */
  private noteProblem(log: string, p: LogProblem): void {
    const list = this.problemsOf.get(log) ?? [];
    list.push(p);
    this.problemsOf.set(log, list);
    this.sendEvent(new Event(LOG_PROBLEMS_EVENT, { log, count: list.length }));
  }

  /** The hash chain of lazily read logs, checked after the first stop without holding up requests. */
  private async verifyOpened(): Promise<void> {
    for (const o of this.opened) await verifyLater(o, (p) => this.laterProblem(this.logPath, p), () => this.warming.cancelled, this.warming.busy);
  }

  private async configurationFinished(): Promise<void> {
    const timeout = this.opts.configurationTimeoutMs ?? 5000;
    await Promise.race([this.configured, new Promise<void>((r) => setTimeout(r, timeout).unref())]);
  }

  /**
   * Live mode: re-run the recording in a scratch worktree (recorded replies drive live tools and
   * gate), then step through the live run's log, stopped at the first divergence.
   */
  private async launchLive(response: DebugProtocol.LaunchResponse, recorded: ReplayRuntime<RunState>, liveMcp: boolean): Promise<void> {
    const start = recorded.index.sessionStart;
    if (!start?.git_head) return this.fail(response, DapError.liveUnavailable, `cannot replay ${this.logPath} live: the log records no starting commit`, true);
    if (!this.root) return this.fail(response, DapError.liveUnavailable, `cannot replay ${this.logPath} live: set the launch attribute "root" to the workspace folder`, true);
    this.recorded = recorded;
    this.sendEvent(new InitializedEvent());
    await this.configurationFinished();
    this.sendResponse(response);
    this.sendEvent(new OutputEvent(`Kite: live replay of ${basename(this.logPath)} in a scratch worktree at ${start.git_head.slice(0, 8)}; recorded replies drive live tools and gate…\n`, 'console'));
    const abort = new AbortController();
    this.liveAbort = abort;
    let result: LiveReplayResult;
    try {
      result = await runLiveReplay({ log: this.logPath, root: this.root, signal: abort.signal, liveMcp, onEvent: (e) => this.sendEvent(new OutputEvent(`live ${eventLine(e)}\n`, 'console')) });
    } catch (e) {
      this.sendEvent(new OutputEvent(`Kite: the live replay failed: ${e instanceof Error ? e.message : String(e)}\n`, 'important'));
      this.end();
      return;
    } finally {
      this.liveAbort = null;
    }
    if (this.terminated) return;
    let live: OpenedReplay;
    try {
      live = await openReplay(result.logPath, { onOutput: (text, i) => this.logpointOutput(text, i), onProblem: (p) => this.laterProblem(result.logPath, p) });
      this.opened.push(live);
    } catch (e) {
      this.sendEvent(new OutputEvent(`Kite: cannot open the live run's log ${result.logPath}: ${e instanceof Error ? e.message : String(e)}\n`, 'important'));
      this.end();
      return;
    }
    this.runtime = live.runtime;
    this.runtime.recorded = recorded.events;
    this.logPath = result.logPath;
    this.sendEvent(
      new OutputEvent(
        result.diverged ? `Kite: ${result.message ?? 'the live run diverged'}\n` : `Kite: the live run matched the recording (live: ${result.outcome}, recorded: ${result.recordedOutcome ?? 'unknown'}).\n`,
        'important',
      ),
    );
    // First stop: the divergence itself, whatever else is enabled; then the person's settings.
    this.runtime.setExceptionFilters(['divergence']);
    const stop = result.diverged ? this.runtime.start() : this.runtime.entry();
    this.runtime.setExceptionFilters([...new Set<ExceptionFilterId>([...(this.pendingFilters ?? DEFAULT_EXCEPTION_FILTERS), 'divergence'])]);
    if (this.pendingFunctionBps) this.runtime.setFunctionBreakpoints(this.pendingFunctionBps);
    this.report(stop);
    await this.warm(this.runtime);
  }

  /** An error response; `showUser` for failures a person must see (a launch that cannot start). */
  private fail(response: DebugProtocol.Response, id: number, message: string, showUser = false): void {
    // `{name}` in a format is a placeholder only when `variables` has that name: text stays as is.
    this.sendErrorResponse(response, { id, format: message, showUser });
  }

  /** Where whole-transcript line `line` is shown to the client (its window's document when windowed). */
  private transcriptAt(line: number): { source: DebugProtocol.Source; line: number } {
    const at = this.transcript.at(line);
    return { source: at.source, line: this.convertDebuggerLineToClient(at.line) };
  }

  /** A client's line in a transcript document as a line of the whole transcript; null when it is no transcript line. */
  private wholeLine(source: DebugProtocol.Source | undefined, clientLine: number): number | null {
    const window = this.transcript.windowOf(source);
    return window === undefined ? null : this.transcript.wholeLine(window, this.convertClientLineToDebugger(clientLine));
  }

  private logpointOutput(text: string, i: number): void {
    const ev = new OutputEvent(`${text}\n`, 'console') as DebugProtocol.OutputEvent;
    if (this.runtime) {
      const at = this.transcriptAt(this.runtime.transcript.lineOfEvent[i]);
      ev.body.source = at.source;
      ev.body.line = at.line;
    }
    this.sendEvent(ev);
  }

  /**
   * The runtime, or an error response when there is none. After terminate, inspection still
   * answers (clients ask for the last stop's details while tearing down); movement does not.
   */
  private rt(response: DebugProtocol.Response, moving = false): ReplayRuntime<RunState> | null {
    if (this.runtime && !(moving && this.terminated)) return this.runtime;
    this.fail(response, DapError.notLaunched, this.terminated ? 'the replay session has ended' : 'no run log is loaded yet (launch first)');
    return null;
  }

  private report(stop: Stop): void {
    this.vars.reset();
    const ev = new StoppedEvent(stop.reason, THREAD_ID, stop.text) as DebugProtocol.StoppedEvent;
    ev.body.description = stop.description;
    if (stop.hitBreakpointIds.length) ev.body.hitBreakpointIds = stop.hitBreakpointIds;
    ev.body.allThreadsStopped = true;
    this.sendEvent(ev);
  }

  /** Movement requests answer first, then report where they stopped. */
  private move(response: DebugProtocol.Response, f: (rt: ReplayRuntime<RunState>) => Stop): void {
    const rt = this.rt(response, true);
    if (!rt) return;
    const stop = f(rt);
    this.sendResponse(response);
    this.report(stop);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    const rt = this.rt(response, true);
    if (!rt) return;
    if (rt.indexing.complete) return this.move(response, (r) => r.continue());
    // Answered at once (the client shows "running"); the stop comes when the scan, following the indexer, finds one.
    this.sendResponse(response);
    this.moving = rt.continueIndexed().then((stop) => {
      if (!this.terminated) this.report(stop);
    });
  }
  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.move(response, (rt) => rt.next());
  }
  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.move(response, (rt) => rt.stepIn());
  }
  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.move(response, (rt) => rt.stepOut());
  }
  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.move(response, (rt) => rt.stepBack());
  }
  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.move(response, (rt) => rt.reverseContinue());
  }
  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.move(response, (rt) => rt.pause());
  }

  protected override gotoTargetsRequest(response: DebugProtocol.GotoTargetsResponse, args: DebugProtocol.GotoTargetsArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    if (!this.transcript.matches(args.source)) return this.fail(response, DapError.badTarget, `${args.source.path ?? args.source.name ?? 'this source'} is not the transcript of this run`);
    const line = this.wholeLine(args.source, args.line);
    const i = line === null ? null : eventForLine(rt.transcript, line);
    if (i === null) return this.fail(response, DapError.badTarget, `line ${args.line} is past the end of the transcript`);
    // The target's line is in the requested document (a turn header's first event may be in the next window: then the header's line).
    const target = this.transcriptAt(rt.transcript.lineOfEvent[i]);
    const sameDoc = this.transcript.windowOf(target.source) === this.transcript.windowOf(args.source);
    response.body = { targets: [{ id: i + 1, label: `#${rt.events.at(i).seq} ${rt.events.at(i).kind}  ${summarize(rt.events.at(i))}`.slice(0, 120), line: sameDoc ? target.line : args.line }] };
    this.sendResponse(response);
  }

  protected override gotoRequest(response: DebugProtocol.GotoResponse, args: DebugProtocol.GotoArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    const i = args.targetId - 1;
    if (!Number.isInteger(i) || i < 0 || i >= rt.length) return this.fail(response, DapError.badTarget, `unknown goto target ${args.targetId}`);
    this.move(response, (r) => r.goto(i));
  }

  // ---- breakpoints -------------------------------------------------------------------------

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const wanted = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
    if (!this.runtime && this.recorded) {
      response.body = { breakpoints: wanted.map(() => ({ verified: false, message: 'the live run has no transcript yet: set line breakpoints once it has stopped' })) };
      return this.sendResponse(response);
    }
    const rt = this.rt(response);
    if (!rt) return;
    const window = this.transcript.windowOf(args.source);
    if (window === undefined) {
      response.body = { breakpoints: wanted.map(() => ({ verified: false, message: 'not the transcript of this run: Kite breakpoints go on transcript lines' })) };
      return this.sendResponse(response);
    }
    // A line below a window's last transcript line (its footer) is past that window's end: no event.
    const results = rt.setLineBreakpoints(
      wanted.map((b) => ({ ...b, line: this.transcript.wholeLine(window, this.convertClientLineToDebugger(b.line)) ?? Number.MAX_SAFE_INTEGER })),
      window ?? -1,
    );
    response.body = {
      breakpoints: results.map((r, k) => {
        const at = r.line === Number.MAX_SAFE_INTEGER ? { source: args.source, line: wanted[k].line } : this.transcriptAt(r.line);
        const bp = new Breakpoint(r.verified, at.line, undefined, at.source as Source) as DebugProtocol.Breakpoint;
        bp.id = r.id;
        if (r.message) bp.message = r.line === Number.MAX_SAFE_INTEGER ? `line ${wanted[k].line} is past the end of this part of the transcript` : r.message;
        return bp;
      }),
    };
    this.sendResponse(response);
  }

  protected override breakpointLocationsRequest(response: DebugProtocol.BreakpointLocationsResponse, args: DebugProtocol.BreakpointLocationsArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    const out: DebugProtocol.BreakpointLocation[] = [];
    const window = this.transcript.windowOf(args.source);
    if (window !== undefined) {
      const from = this.convertClientLineToDebugger(args.line);
      const to = args.endLine ? this.convertClientLineToDebugger(args.endLine) : from;
      for (let l = Math.max(1, from); l <= to; l++) {
        const whole = this.transcript.wholeLine(window, l);
        if (whole === null || whole > rt.transcript.lineCount) break;
        if (rt.transcript.eventOfLine[whole - 1] >= 0) out.push({ line: this.convertDebuggerLineToClient(l) });
      }
    }
    response.body = { breakpoints: out };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    if (!this.runtime && this.recorded) {
      this.pendingFunctionBps = args.breakpoints;
      response.body = { breakpoints: args.breakpoints.map(() => ({ verified: true, message: 'armed for the live run' })) };
      return this.sendResponse(response);
    }
    const rt = this.rt(response);
    if (!rt) return;
    response.body = {
      breakpoints: rt.setFunctionBreakpoints(args.breakpoints).map((r) => ({ id: r.id, verified: r.verified, ...(r.message ? { message: r.message } : {}) })),
    };
    this.sendResponse(response);
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    const ids = [...args.filters, ...(args.filterOptions ?? []).map((o) => o.filterId)];
    const unknown = ids.filter((f) => !isExceptionFilterId(f));
    if (!this.runtime && this.recorded) this.pendingFilters = ids.filter(isExceptionFilterId);
    else {
      const rt = this.rt(response);
      if (!rt) return;
      rt.setExceptionFilters(ids.filter(isExceptionFilterId));
    }
    response.body = { breakpoints: ids.map((f) => (isExceptionFilterId(f) ? { verified: true } : { verified: false, message: `unknown exception filter "${f}"` })) };
    if (unknown.length) this.sendEvent(new OutputEvent(`Ignoring unknown exception filters: ${unknown.join(', ')}\n`, 'console'));
    this.sendResponse(response);
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const rt = this.rt(response);
    if (!rt) return;
    const ex = rt.exceptionAtPosition();
    response.body = ex
      ? { exceptionId: ex.filter, description: ex.description, breakMode: 'always', details: { message: ex.details, typeName: ex.filter } }
      : { exceptionId: 'none', description: 'Not stopped on an exception', breakMode: 'never' };
    this.sendResponse(response);
  }

  // ---- inspection --------------------------------------------------------------------------

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const run = (this.runtime?.length ? this.runtime.events.at(0).run : null) ?? 'run';
    response.body = { threads: [new Thread(THREAD_ID, `run ${run}`)] };
    this.sendResponse(response);
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    const writeSeq = this.writes.seqOf(args.source?.sourceReference ?? args.sourceReference);
    if (writeSeq !== undefined) {
      // The write's content is rebuilt from the earlier writes to its file (writeResolver), found through the index.
      void writeSnapshotIndexed(rt.index, writeSeq).then(
        (w) => {
          response.body = { content: w.known ? w.content : `${w.message}\n` };
          this.sendResponse(response);
        },
        (e: unknown) => this.fail(response, DapError.badTarget, `cannot rebuild the file at event ${writeSeq}: ${e instanceof Error ? e.message : String(e)}`),
      );
      return;
    }
    const window = this.transcript.windowOfSourceRequest(args);
    if (window === undefined) return this.fail(response, DapError.badTarget, `unknown source reference ${args.sourceReference}`);
    // Built in slices, outside the request queue: stepping goes on while a big transcript is made.
    const lines = window === null ? null : this.transcript.linesOf(window);
    const text = lines === null ? transcriptTextSliced(rt.transcript) : transcriptWindowText(rt.transcript, lines);
    const log = this.logPath;
    if (lines !== null && lines.from <= 1 && !rt.indexing.complete) this.headerServedEarly.add(log);
    void text.then((content) => {
      response.body = { content: withLogProblems(content, this.problemsOf.get(log) ?? []), mimeType: 'text/x-kite-transcript' };
      this.sendResponse(response);
    });
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse): void {
    const rt = this.rt(response);
    if (!rt) return;
    const frames = this.inspector.stackFrames(rt);
    response.body = { stackFrames: frames, totalFrames: frames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    const scopes = this.inspector.scopes(rt, args.frameId);
    if (!scopes) return this.fail(response, DapError.badTarget, `unknown frame ${args.frameId}`);
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    response.body = { variables: this.inspector.variables(rt, args) };
    this.sendResponse(response);
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const rt = this.rt(response);
    if (!rt) return;
    let expr: Expr;
    try {
      expr = parseExpression(args.expression, SCOPE_ROOTS);
    } catch (e) {
      if (e instanceof ExpressionError) return this.fail(response, DapError.badExpression, e.message);
      throw e;
    }
    const value = evaluate(expr, rt.scopeAt(rt.position));
    const v = this.vars.variable(args.expression, value, expr.type === 'path' ? { root: expr.root, steps: expr.steps } : null);
    response.body = { result: v.value, variablesReference: v.variablesReference, type: v.type, ...(v.indexedVariables ? { indexedVariables: v.indexedVariables } : {}) };
    this.sendResponse(response);
  }

  protected override completionsRequest(response: DebugProtocol.CompletionsResponse, args: DebugProtocol.CompletionsArguments): void {
    const word = /[A-Za-z_]*$/.exec(args.text.slice(0, args.column - 1))?.[0] ?? '';
    response.body = { targets: SCOPE_ROOTS.filter((r) => r.startsWith(word)).map((r) => ({ label: r, type: 'variable' as const, length: word.length })) };
    this.sendResponse(response);
  }

  // ---- ending ------------------------------------------------------------------------------

  private end(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.warming.cancelled = true;
    this.liveAbort?.abort();
    for (const o of this.opened) o.lazy?.close();
    this.sendEvent(new TerminatedEvent());
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    this.end();
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments, request?: DebugProtocol.Request): void {
    this.end();
    this.configurationDone();
    super.disconnectRequest(response, args, request);
  }

  /** For tests and the benchmark: the runtime behind this session. */
  get replay(): ReplayRuntime<RunState> | null {
    return this.runtime;
  }
}
