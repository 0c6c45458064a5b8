// The harness server's state: the runs it is driving and the approvals they wait for. Transport-free
// (main.ts binds it to JSON-RPC), so unit tests drive it with fake runners and a recording notifier.
import { join } from 'node:path';
import { workspaceLogDir, workspaceOfLog } from '../events/logFiles';
import type { ConfigOverrides } from '../config/config';
import { layerSettings, SettingsError, type LayeredSettings } from '../config/settingsLayer';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../host';
import type { KiteEvent, Limits, Mode } from '../protocol/events';
import type { LmReplyPart, LmRequestParams, LmRequestResult } from '../protocol/languageModel';
import { wireDirtyPaths, wireErrorCode, wireLockHolder } from './wireErrorCode';
import { SteerQueue, type SteerSource } from '../loop/steer';
import { StreamThrottle } from './streamThrottle';
import type {
  ApprovalRequested,
  ConfirmUnsandboxedParams,
  ConfirmDoneParams,
  ApprovalWithdrawn,
  EventNotification,
  RawSettings,
  ResumeRunParams,
  RunEnded,
  RunSummaryWire,
  ServerLog,
  StartRunParams,
  StreamNotification,
  WireApprovalAnswer,
  WireApprovalRequest,
} from '../protocol/rpc';

/** What the server needs from runFeature's options (a structural subset of RunOptions). */
export interface StartOptions {
  root: string;
  featureId?: string;
  mode: Mode;
  model: string;
  limits?: Partial<Limits>;
  allowDirty?: boolean;
  overrides?: ConfigOverrides;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  steer?: SteerSource;
}
export interface ResumeOptions {
  log: string;
  mode?: Mode;
  overrides?: ConfigOverrides;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  steer?: SteerSource;
}

export interface RunStarters {
  runFeature(opts: StartOptions, host: Host): Promise<RunSummaryWire>;
  resumeRun(opts: ResumeOptions, host: Host): Promise<RunSummaryWire>;
}

export interface Notifier {
  event(n: EventNotification): void;
  approvalRequested(n: ApprovalRequested): void;
  approvalWithdrawn(n: ApprovalWithdrawn): void;
  runEnded(n: RunEnded): void;
  log(l: ServerLog): void;
  /** The reply being generated, throttled (absent: nobody shows it). */
  stream?(n: StreamNotification): void;
  /** Asks the extension whether this run's commands may run without a sandbox (a modal there).
   *  Absent, rejecting or false: no — commands are refused (runSandbox.ts fails closed). */
  confirmUnsandboxed?(q: ConfirmUnsandboxedParams, signal: AbortSignal): Promise<boolean>;
  /** Asks the extension whether a "verify": "none" feature may be marked done. Absent or false: unverified. */
  confirmDoneWithoutCheck?(q: ConfirmDoneParams, signal: AbortSignal): Promise<boolean>;
  /** Asks the extension for one reply of a VS Code language model (server/lmRelay.ts). Absent: vscode-lm: models are refused. */
  languageModel?(params: Omit<LmRequestParams, 'requestId'>, onPart: (part: LmReplyPart) => void, signal: AbortSignal): Promise<LmRequestResult>;
}

interface Pending {
  request: ApprovalRequest;
  resolve(answer: ApprovalAnswer): void;
  reject(err: Error): void;
}

interface ActiveRun {
  token: string;
  root: string | null;
  log: string | null;
  feature: string | null;
  controller: AbortController;
  pending: Map<string, Pending>;
  /** The run's subscribers to the person's saves (the run filters them to its workspace). */
  personListeners: Set<(absPaths: readonly string[]) => void>;
  /** What the person said to the agent, waiting for its next turn. */
  steer: SteerQueue;
  stream: StreamThrottle;
}

// Compile-time guard: the wire shapes must stay assignable to the Host contract in host.ts.
const _reqCheck: (r: WireApprovalRequest) => ApprovalRequest = (r) => r;
const _ansCheck: (a: WireApprovalAnswer) => ApprovalAnswer = (a) => a;
void _reqCheck;
void _ansCheck;

export class RunManager {
  private readonly runs = new Map<string, ActiveRun>();
  private counter = 0;

  constructor(
    private readonly starters: RunStarters,
    private readonly notify: Notifier,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  start(params: StartRunParams): string {
    const run = this.newRun(params.root, params.featureId ?? null);
    this.drive(run, async () => {
      // Without settings the workspace's config decides alone (model '' = its model, else the default).
      const layered = params.settings ? this.layered(params.settings, params.root) : null;
      const opts: StartOptions = {
        root: params.root,
        featureId: params.featureId,
        mode: params.mode,
        model: layered?.model ?? '',
        limits: layered?.limits,
        allowDirty: params.allowDirty,
        overrides: layered?.overrides,
        signal: run.controller.signal,
        env: { ...this.env },
        steer: run.steer,
      };
      return this.starters.runFeature(opts, this.hostFor(run));
    });
    return run.token;
  }

  resume(params: ResumeRunParams): string {
    // The workspace whose log folder (log_dir) holds the log; null when none does.
    const run = this.newRun(workspaceOfLog(params.log) ?? null, null);
    run.log = params.log;
    this.drive(run, async () => {
      // The log decides the model and limits; the settings add policy, gate failures and the sandbox switch.
      const overrides = params.settings ? this.layered(params.settings, run.root).overrides : undefined;
      const opts: ResumeOptions = { log: params.log, mode: params.mode, overrides, signal: run.controller.signal, env: { ...this.env }, steer: run.steer };
      return this.starters.resumeRun(opts, this.hostFor(run));
    });
    return run.token;
  }

  stop(token: string): boolean {
    const run = this.runs.get(token);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Queues a person's message for the run's next turn; queued false when no such run is going. */
  steer(token: string, text: string): { queued: boolean; waiting: number } {
    const run = this.runs.get(token);
    if (!run) return { queued: false, waiting: 0 };
    return { queued: true, waiting: run.steer.push(text) };
  }

  answer(token: string, id: string, answer: WireApprovalAnswer): boolean {
    const pending = this.runs.get(token)?.pending.get(id);
    if (!pending) return false;
    this.runs.get(token)?.pending.delete(id);
    // "Always allow" is the run's to carry out (policy/livePolicy.ts saves the rule and reloads).
    pending.resolve(answer);
    return true;
  }

  /** The person saved these files: tell every active run; returns how many runs listened. */
  personEdited(paths: readonly string[]): number {
    let told = 0;
    for (const run of this.runs.values()) {
      if (!run.personListeners.size) continue;
      told++;
      for (const l of run.personListeners) l(paths);
    }
    return told;
  }

  list(): { token: string; log: string | null; feature: string | null }[] {
    return [...this.runs.values()].map((r) => ({ token: r.token, log: r.log, feature: r.feature }));
  }

  private newRun(root: string | null, feature: string | null): ActiveRun {
    const token = `r${++this.counter}-${Date.now().toString(36)}`;
    const run: ActiveRun = { token, root, log: null, feature, controller: new AbortController(), pending: new Map(), personListeners: new Set(), steer: new SteerQueue(), stream: new StreamThrottle((b) => this.notify.stream?.({ token, log: run.log, ...b })) };
    this.runs.set(token, run);
    return run;
  }

  /** The settings over the workspace's config (none found: the settings alone); unusable
   *  settings end the run before it starts. */
  private layered(settings: RawSettings, root: string | null): LayeredSettings {
    const layered = layerSettings(settings, root);
    if (layered.problems.length) throw new SettingsError(layered.problems);
    this.notify.log({ level: 'info', message: `settings: ${layered.summary}` });
    return layered;
  }

  private drive(run: ActiveRun, go: () => Promise<RunSummaryWire>): void {
    // Deferred a tick so the startRun response (the token) reaches the client before any event.
    setImmediate(() => {
      go().then(
        (summary) => this.finish(run, { token: run.token, log: summary.logPath, summary, error: null }),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          this.notify.log({ level: 'error', message: `run ${run.token} failed: ${message}` });
          const holder = wireLockHolder(err);
          const paths = wireDirtyPaths(err);
          this.finish(run, { token: run.token, log: run.log, summary: null, error: { code: wireErrorCode(err), message, ...(holder ? { holder } : {}), ...(paths.length ? { paths: [...paths] } : {}) } });
        },
      );
    });
  }

  private finish(run: ActiveRun, ended: RunEnded): void {
    for (const [id, p] of run.pending) {
      p.reject(new Error('run ended'));
      this.notify.approvalWithdrawn({ token: run.token, id });
    }
    run.pending.clear();
    run.stream.drop();
    this.runs.delete(run.token);
    this.notify.runEnded(ended);
  }

  private hostFor(run: ActiveRun): Host {
    const lm = this.notify.languageModel?.bind(this.notify);
    return {
      ...(lm ? { languageModels: { request: (ask, onPart, signal) => lm({ ...ask, token: run.token }, onPart, signal) } } : {}),
      approve: (request: ApprovalRequest, signal: AbortSignal) =>
        new Promise<ApprovalAnswer>((resolve, reject) => {
          if (signal.aborted) return reject(new Error('cancelled'));
          run.pending.set(request.id, { request, resolve, reject });
          signal.addEventListener(
            'abort',
            () => {
              if (!run.pending.delete(request.id)) return;
              this.notify.approvalWithdrawn({ token: run.token, id: request.id });
              reject(new Error('cancelled'));
            },
            { once: true },
          );
          this.notify.approvalRequested({ token: run.token, log: run.log, root: run.root ?? '', request });
        }),
      confirmUnsandboxed: async (q, signal) => {
        if (!this.notify.confirmUnsandboxed || signal.aborted) return false;
        try {
          return await this.notify.confirmUnsandboxed({ token: run.token, root: run.root ?? '', reason: q.reason, fix: q.fix }, signal);
        } catch (err) {
          // No window to ask (or it went away): the answer is no.
          this.notify.log({ level: 'warn', message: `could not ask whether to run without a sandbox (${err instanceof Error ? err.message : String(err)}); not running commands` });
          return false;
        }
      },
      confirmDoneWithoutCheck: async (q, signal) => {
        if (!this.notify.confirmDoneWithoutCheck || signal.aborted) return false;
        try {
          return await this.notify.confirmDoneWithoutCheck({ token: run.token, feature: q.feature, title: q.title }, signal);
        } catch {
          return false; // nobody to ask: the run ends unverified
        }
      },
      onPersonEdit: (listener) => {
        run.personListeners.add(listener);
        return () => run.personListeners.delete(listener);
      },
      onStream: this.notify.stream ? (d) => run.stream.add(d) : undefined,
      onEvent: (event: KiteEvent) => {
        if (event.kind === 'model') run.stream.flush(); // what gathered goes out before the reply's event, nothing after it
        if (event.kind === 'session_start') {
          run.root = event.root;
          run.feature = event.feature;
          run.log ??= logPathOf(event.root, event.run);
        }
        if (run.log === null && run.root) run.log = logPathOf(run.root, event.run);
        this.notify.event({ token: run.token, log: run.log ?? '', event });
      },
    };
  }
}

/** Where the log of run `id` in `root` is written (null while the config cannot be read). */
function logPathOf(root: string, id: string): string | null {
  try {
    return join(workspaceLogDir(root), `${id}.jsonl`);
  } catch {
    return null; // the run itself reports the config error
  }
}
