// The extension's side of the JSON-RPC connection to the harness server (dist/harnessServer.js),
// a child process: the loop never runs in the extension host. When the process dies we say so,
// start a new one, and report which runs were interrupted so the caller can offer to resume them.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  AnswerApprovalResultSchema,
  ApprovalRequestedSchema,
  ApprovalWithdrawnSchema,
  ConfirmUnsandboxedParamsSchema,
  ConfirmDoneParamsSchema,
  type ConfirmDoneParams,
  type ConfirmDoneResult,
  EventNotificationSchema,
  PersonEditedResultSchema,
  ResolvedSettingsSchema,
  Rpc,
  RunEndedSchema,
  ServerInfoSchema,
  ServerLogSchema,
  StartRunResultSchema,
  StopRunResultSchema,
  SteerResultSchema,
  StreamNotificationSchema,
  type SteerResult,
  type StreamNotification,
  type ApprovalRequested,
  type ApprovalWithdrawn,
  type ConfirmUnsandboxedParams,
  type ConfirmUnsandboxedResult,
  type EventNotification,
  type ResolvedSettings,
  type ResolveSettingsParams,
  type ResumeRunParams,
  type RunEnded,
  type StartRunParams,
  type WireApprovalAnswer,
  AddEvalResultSchema,
  EvalCaseEndedSchema,
  RunEvalsResultSchema,
  TrustStatusSchema,
  TrustWorkspaceResultSchema,
  McpServersResultSchema,
  type McpServersResult,
  type AddEvalParams,
  type AddEvalResult,
  type EvalCaseEnded,
  type RunEvalsParams,
  type RunEvalsResult,
  type TrustStatusWire,
  type TrustWorkspaceResult,
} from '../harness/protocol/rpc';
import type { z } from 'zod';
import { LmRequestParamsSchema, type LmReplyPart, type LmRequestParams, type LmRequestResult } from '../harness/protocol/languageModel';

/** Answers one language-model request of the server (languageModels/answerLmRequest.ts). */
export type LmAnswerer = (q: LmRequestParams, onPart: (part: LmReplyPart) => void, token: vscode.CancellationToken) => Promise<LmRequestResult>;

export interface ServerDeath {
  /** Tokens of runs that were going when the process died (their logs can be resumed). */
  interrupted: string[];
  /** Their logs, where known (a run that died before its first event has none). */
  logs: string[];
  /** False when the server kept crashing and was left stopped (the next command starts one). */
  restarted: boolean;
}

const CRASH_WINDOW_MS = 60_000;
const MAX_CRASHES = 3;

export class HarnessClient implements vscode.Disposable {
  private client: LanguageClient | null = null;
  private crashes: number[] = []; // times of unexpected exits, to stop a restart loop
  private envStale = false; // the key changed while runs were going
  private starting: Promise<LanguageClient> | null = null;
  private stopping = false;
  private disposed = false;
  private pid: number | null = null;
  readonly active = new Map<string, string | null>(); // token → log, for runs the server is driving

  private readonly onEventEmitter = new vscode.EventEmitter<EventNotification>();
  private readonly onApprovalEmitter = new vscode.EventEmitter<ApprovalRequested>();
  private readonly onWithdrawnEmitter = new vscode.EventEmitter<ApprovalWithdrawn>();
  private readonly onRunEndedEmitter = new vscode.EventEmitter<RunEnded>();
  private readonly onDiedEmitter = new vscode.EventEmitter<ServerDeath>();
  private readonly onStreamEmitter = new vscode.EventEmitter<StreamNotification>();
  /** The reply being generated (throttled deltas; the `model` event follows with all of it). */
  readonly onStream = this.onStreamEmitter.event;
  private readonly onEvalCaseEmitter = new vscode.EventEmitter<EvalCaseEnded>();
  /** One eval case finished (while runEvals is going). */
  readonly onEvalCaseEnded = this.onEvalCaseEmitter.event;
  readonly onEvent = this.onEventEmitter.event;
  readonly onApprovalRequested = this.onApprovalEmitter.event;
  readonly onApprovalWithdrawn = this.onWithdrawnEmitter.event;
  readonly onRunEnded = this.onRunEndedEmitter.event;
  /** Fired after an unexpected exit, once a new server process is up again (or when it crash-loops). */
  readonly onDidRestart = this.onDiedEmitter.event;

  constructor(
    private readonly serverModule: string,
    private readonly log: vscode.LogOutputChannel,
    /** Secrets for the server's environment (the API key), read at each launch. They go in the
     *  process environment rather than in request params, which JSON-RPC tracing would log. */
    private readonly secretEnv: () => Promise<NodeJS.ProcessEnv> = async () => ({}),
    /** Answers the server's "run without a sandbox?" (a modal); anything but true is no. */
    private readonly confirmUnsandboxed: (q: ConfirmUnsandboxedParams) => Promise<boolean> = async () => false,
    /** Answers "mark this verify-none feature done without a check?" (a modal); anything but true is no. */
    private readonly confirmDone: (q: ConfirmDoneParams) => Promise<boolean> = async () => false,
    /** VS Code's language models for `vscode-lm:` runs; absent: every such request is refused. */
    private readonly answerLm: LmAnswerer | null = null,
  ) {}

  /** After the key changed: a server with no runs is stopped, so the next command starts one with the new key. */
  async restartIfIdle(): Promise<boolean> {
    if (!this.client) return false;
    if (this.active.size > 0) {
      this.envStale = true; // restarted before the next run instead
      return false;
    }
    this.envStale = false;
    await this.stop();
    this.log.info('harness server stopped to pick up the new API key; the next run starts a fresh one');
    return true;
  }

  get serverPid(): number | null {
    return this.pid;
  }

  /** What the harness makes of the settings here (the model, where values come from, problems). */
  async resolveSettings(params: ResolveSettingsParams): Promise<ResolvedSettings> {
    const c = await this.ensure();
    return this.check(ResolvedSettingsSchema, await c.sendRequest(Rpc.resolveSettings, params), Rpc.resolveSettings);
  }

  async startRun(params: StartRunParams): Promise<string> {
    if (this.envStale) await this.restartIfIdle();
    const c = await this.ensure();
    const { token } = this.check(StartRunResultSchema, await c.sendRequest(Rpc.startRun, params), Rpc.startRun);
    if (!this.active.has(token)) this.active.set(token, null);
    return token;
  }

  async resumeRun(params: ResumeRunParams): Promise<string> {
    if (this.envStale) await this.restartIfIdle();
    const c = await this.ensure();
    const { token } = this.check(StartRunResultSchema, await c.sendRequest(Rpc.resumeRun, params), Rpc.resumeRun);
    if (!this.active.has(token)) this.active.set(token, params.log);
    return token;
  }

  async stopRun(token: string): Promise<boolean> {
    const c = await this.ensure();
    return this.check(StopRunResultSchema, await c.sendRequest(Rpc.stopRun, { token }), Rpc.stopRun).stopped;
  }

  /** The person saved these files; returns how many running runs recorded it. */
  async personEdited(paths: readonly string[]): Promise<number> {
    const c = await this.ensure();
    return this.check(PersonEditedResultSchema, await c.sendRequest(Rpc.personEdited, { paths }), Rpc.personEdited).runs;
  }

  /** A person's message for the run's next turn; queued false when the run is gone. */
  async steer(token: string, text: string): Promise<SteerResult> {
    const c = await this.ensure();
    return this.check(SteerResultSchema, await c.sendRequest(Rpc.steer, { token, text }), Rpc.steer);
  }

  async answer(token: string, id: string, answer: WireApprovalAnswer): Promise<boolean> {
    const c = await this.ensure();
    return this.check(AnswerApprovalResultSchema, await c.sendRequest(Rpc.answerApproval, { token, id, answer }), Rpc.answerApproval).accepted;
  }

  /** Runs eval cases in the server; cancelling `token` stops the running cases and starts no new one. */
  async runEvals(params: RunEvalsParams, token?: vscode.CancellationToken): Promise<RunEvalsResult> {
    const c = await this.ensure();
    return this.check(RunEvalsResultSchema, await c.sendRequest(Rpc.runEvals, params, token), Rpc.runEvals);
  }

  /** `kite eval add` in the server: a case from a run log. */
  async addEval(params: AddEvalParams): Promise<AddEvalResult> {
    const c = await this.ensure();
    return this.check(AddEvalResultSchema, await c.sendRequest(Rpc.addEval, params), Rpc.addEval);
  }

  async trustStatus(root: string): Promise<TrustStatusWire> {
    const c = await this.ensure();
    return this.check(TrustStatusSchema, await c.sendRequest(Rpc.trustStatus, { root }), Rpc.trustStatus);
  }

  async trustWorkspace(root: string, digest: string): Promise<TrustWorkspaceResult> {
    const c = await this.ensure();
    return this.check(TrustWorkspaceResultSchema, await c.sendRequest(Rpc.trustWorkspace, { root, digest }), Rpc.trustWorkspace);
  }

  /** The workspace's MCP servers; tools: the server starts each approved one (sandboxed) to list its tools. */
  async mcpServers(root: string, tools: boolean): Promise<McpServersResult> {
    const c = await this.ensure();
    return this.check(McpServersResultSchema, await c.sendRequest(Rpc.mcpServers, { root, tools }), Rpc.mcpServers);
  }

  /** Starts the server process if it is not running (lazily: activation does not pay for it). */
  ensure(): Promise<LanguageClient> {
    if (this.client) return Promise.resolve(this.client);
    this.starting ??= this.launch().finally(() => (this.starting = null));
    return this.starting;
  }

  private async launch(): Promise<LanguageClient> {
    const lc = await import('vscode-languageclient/node');
    const t0 = Date.now();
    const serverOptions = {
      module: this.serverModule,
      transport: lc.TransportKind.ipc,
      options: { env: { ...process.env, ...(await this.secretEnv()), KITE_HARNESS_SERVER: '1' } },
    };
    const client = new lc.LanguageClient(
      'kite.harness',
      'Kite Harness',
      { run: serverOptions, debug: serverOptions },
      {
        outputChannel: this.log,
        // We restart ourselves (a fresh process and an offer to resume), so the client must not.
        errorHandler: {
          error: () => ({ action: lc.ErrorAction.Continue, handled: true }),
          closed: () => {
            this.onClosed(client);
            return { action: lc.CloseAction.DoNotRestart, handled: true };
          },
        },
        initializationFailedHandler: () => false,
        // The server's l10n.t messages in the window's language (l10nConfig.ts; none in English).
        initializationOptions: { l10nBundle: vscode.l10n.uri?.fsPath },
      },
    );
    client.onNotification(Rpc.event, (p: unknown) => {
      const n = EventNotificationSchema.safeParse(p);
      if (!n.success) return this.log.error(`bad ${Rpc.event} from the harness server: ${n.error.message}`);
      if (n.data.log) this.active.set(n.data.token, n.data.log);
      this.onEventEmitter.fire(n.data);
    });
    client.onNotification(Rpc.stream, (p: unknown) => this.fire(StreamNotificationSchema, p, this.onStreamEmitter));
    client.onNotification(Rpc.evalCaseEnded, (p: unknown) => this.fire(EvalCaseEndedSchema, p, this.onEvalCaseEmitter));
    client.onNotification(Rpc.approvalRequested, (p: unknown) => this.fire(ApprovalRequestedSchema, p, this.onApprovalEmitter));
    client.onNotification(Rpc.approvalWithdrawn, (p: unknown) => this.fire(ApprovalWithdrawnSchema, p, this.onWithdrawnEmitter));
    client.onNotification(Rpc.runEnded, (p: unknown) => {
      const ended = RunEndedSchema.safeParse(p);
      if (!ended.success) return this.log.error(`bad ${Rpc.runEnded} from the harness server: ${ended.error.message}`);
      this.active.delete(ended.data.token);
      this.onRunEndedEmitter.fire(ended.data);
    });
    client.onRequest(Rpc.confirmUnsandboxed, async (p: unknown): Promise<ConfirmUnsandboxedResult> => {
      const q = ConfirmUnsandboxedParamsSchema.safeParse(p);
      if (!q.success) {
        this.log.error(`bad ${Rpc.confirmUnsandboxed} from the harness server: ${q.error.message}`);
        return { run: false };
      }
      return { run: (await this.confirmUnsandboxed(q.data).catch(() => false)) === true };
    });
    client.onRequest(Rpc.confirmDoneWithoutCheck, async (p: unknown): Promise<ConfirmDoneResult> => {
      const q = ConfirmDoneParamsSchema.safeParse(p);
      if (!q.success) {
        this.log.error(`bad ${Rpc.confirmDoneWithoutCheck} from the harness server: ${q.error.message}`);
        return { done: false };
      }
      return { done: (await this.confirmDone(q.data).catch(() => false)) === true };
    });
    client.onRequest(Rpc.lmRequest, async (p: unknown, token: vscode.CancellationToken): Promise<LmRequestResult> => {
      const q = LmRequestParamsSchema.safeParse(p);
      if (!q.success) return { ok: false, code: 'unknown', message: `bad ${Rpc.lmRequest} from the harness server: ${q.error.message}` };
      if (!this.answerLm) return { ok: false, code: 'unknown', message: 'this window does not offer VS Code language models to Kite' };
      // Each part goes out at once: the server assembles the reply (and the timeline can stream it).
      const onPart = (part: LmReplyPart) => void client.sendNotification(Rpc.lmPart, { requestId: q.data.requestId, part });
      return this.answerLm(q.data, onPart, token);
    });
    client.onNotification(Rpc.serverLog, (p: unknown) => {
      const l = ServerLogSchema.safeParse(p);
      if (!l.success) return;
      this.log[l.data.level](`[server] ${l.data.message}`);
    });
    let info;
    try {
      await client.start();
      info = this.check(ServerInfoSchema, await client.sendRequest(Rpc.serverInfo), Rpc.serverInfo);
    } catch (err) {
      await client.dispose().catch(() => undefined);
      throw new Error(`the harness server (${this.serverModule}) did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.pid = info.pid;
    this.client = client;
    this.log.info(`harness server started (pid ${info.pid}, node ${info.node}) in ${Date.now() - t0} ms`);
    return client;
  }

  private onClosed(client: LanguageClient): void {
    // Only a server that was up is restarted here; one that fails while starting rejects ensure().
    if (this.client !== client) return;
    this.client = null;
    this.pid = null;
    if (this.stopping || this.disposed) return;
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    const interrupted = [...this.active.keys()];
    const logs = [...this.active.values()].filter((l): l is string => l !== null);
    this.active.clear();
    // The dead client is finished; a new one gets a new process.
    void client.dispose().catch(() => undefined);
    if (this.crashes.length > MAX_CRASHES) {
      // A crash loop: stop restarting; the next command starts a fresh server (and may tell why).
      this.log.error(`the harness server stopped unexpectedly ${this.crashes.length} times within a minute; not restarting it until the next command`);
      this.crashes = [];
      this.onDiedEmitter.fire({ interrupted, logs, restarted: false });
      return;
    }
    this.log.error(`the harness server stopped unexpectedly; ${interrupted.length} run(s) interrupted; restarting it`);
    this.ensure().then(
      () => this.onDiedEmitter.fire({ interrupted, logs, restarted: true }),
      (err: unknown) => this.log.error(`could not restart the harness server: ${String(err)}`),
    );
  }

  private fire<T>(schema: z.ZodType<T>, payload: unknown, emitter: vscode.EventEmitter<T>): void {
    const r = schema.safeParse(payload);
    if (r.success) emitter.fire(r.data);
    else this.log.error(`bad notification from the harness server: ${r.error.message}`);
  }

  private check<T>(schema: z.ZodType<T>, payload: unknown, method: string): T {
    const r = schema.safeParse(payload);
    if (!r.success) throw new Error(`${method}: unexpected answer from the harness server (${r.error.message})`);
    return r.data;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const c = this.client;
    this.client = null;
    if (c) await c.stop(2000).catch(() => undefined);
    this.stopping = false;
  }

  dispose(): void {
    this.disposed = true;
    void this.stop();
    for (const e of [this.onEventEmitter, this.onApprovalEmitter, this.onWithdrawnEmitter, this.onRunEndedEmitter, this.onDiedEmitter, this.onStreamEmitter, this.onEvalCaseEmitter]) e.dispose();
  }
}
