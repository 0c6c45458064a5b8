// The harness server's state: the runs it is driving and the approvals they wait for. Transport-free
// (main.ts binds it to JSON-RPC), so unit tests drive it with fake runners and a recording notifier.
import { dirname, join, resolve } from 'node:path';
import { addAlwaysAllowRule } from './alwaysAllow';
import type { ConfigOverrides } from '../config/config';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../host';
import type { KiteEvent, Limits, Mode } from '../protocol/events';
import type {
  ApprovalRequested,
  ConfirmUnsandboxedParams,
  ApprovalWithdrawn,
  EventNotification,
  ResumeRunParams,
  RunEnded,
  RunErrorCode,
  RunSummaryWire,
  ServerLog,
  StartRunParams,
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
}
export interface ResumeOptions {
  log: string;
  mode?: Mode;
  limits?: Partial<Limits>;
  overrides?: ConfigOverrides;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
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
  /** Asks the extension whether this run's commands may run without a sandbox (a modal there).
   *  Absent, rejecting or false: no — commands are refused (runSandbox.ts fails closed). */
  confirmUnsandboxed?(q: ConfirmUnsandboxedParams, signal: AbortSignal): Promise<boolean>;
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
  /** Commands the person chose "Always allow" for: the run's policy was built before the rule
   *  existed, so later identical requests in this run are answered here instead of asking again. */
  alwaysAllowed: Set<string>;
}

/** A thrown error that carries a wire code; anything else maps to 'failed'. */
function errorCodeOf(err: unknown): RunErrorCode {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'no_feature':
    case 'unknown_feature':
      return 'no_feature';
    case 'dirty':
      return 'dirty_tree';
    case 'not_a_repo':
    case 'not_found':
      return code;
    case 'corrupt_log':
    case 'not_started':
    case 'already_finished':
    case 'is_replay':
      return 'cannot_resume';
    case 'missing_key':
    case 'auth':
      return 'missing_key';
    case 'invalid_json':
    case 'invalid_config':
    case 'invalid_progress':
    case 'script_invalid':
      return 'invalid_config';
    default:
      return 'failed';
  }
}

// Compile-time guard: the wire shapes must stay assignable to the Host contract in host.ts.
const _reqCheck: (r: WireApprovalRequest) => ApprovalRequest = (r) => r;
const _ansCheck: (a: WireApprovalAnswer) => ApprovalAnswer = (a) => a;
void _reqCheck;
void _ansCheck;

/** The settings' parts of start/resume params, in the shape runFeature lays over .kite/config.json. */
export function overridesOf(p: { maxGateFailures?: number; policy?: StartRunParams['policy']; sandbox?: StartRunParams['sandbox'] }): ConfigOverrides | undefined {
  const policy = p.policy && (p.policy.deny?.length || p.policy.allowAttended?.length) ? { deny: p.policy.deny ?? [], allow_attended: p.policy.allowAttended ?? [] } : undefined;
  if (p.maxGateFailures === undefined && !policy && p.sandbox === undefined) return undefined;
  return {
    ...(p.maxGateFailures !== undefined ? { max_gate_failures: p.maxGateFailures } : {}),
    ...(policy ? { policy } : {}),
    // The host's switch replaces the workspace file's "off" (config.ts applyOverrides).
    ...(p.sandbox !== undefined ? { sandbox: p.sandbox } : {}),
  };
}

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
    const env = this.envWithSecrets(params.secrets);
    const opts: StartOptions = {
      root: params.root,
      featureId: params.featureId,
      mode: params.mode,
      model: params.model,
      limits: params.limits,
      allowDirty: params.allowDirty,
      overrides: overridesOf(params),
      signal: run.controller.signal,
      env,
    };
    this.drive(run, () => this.starters.runFeature(opts, this.hostFor(run)));
    return run.token;
  }

  resume(params: ResumeRunParams): string {
    // Logs live in <root>/.kite/runs/, so the root of a resumed run is two folders up.
    const run = this.newRun(resolve(dirname(params.log), '..', '..'), null);
    run.log = params.log;
    const opts: ResumeOptions = { log: params.log, mode: params.mode, limits: params.limits, overrides: overridesOf(params), signal: run.controller.signal, env: this.envWithSecrets(params.secrets) };
    this.drive(run, () => this.starters.resumeRun(opts, this.hostFor(run)));
    return run.token;
  }

  stop(token: string): boolean {
    const run = this.runs.get(token);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  answer(token: string, id: string, answer: WireApprovalAnswer): boolean {
    const pending = this.runs.get(token)?.pending.get(id);
    if (!pending) return false;
    this.runs.get(token)?.pending.delete(id);
    const root = this.runs.get(token)?.root;
    if (answer.decision === 'approve' && answer.always && pending.request.kind === 'command' && root) {
      this.runs.get(token)?.alwaysAllowed.add(pending.request.command.trim());
      const r = addAlwaysAllowRule(root, pending.request.command);
      if ('error' in r) this.notify.log({ level: 'warn', message: r.error });
      else this.notify.log({ level: 'info', message: r.added ? `added policy rule ${r.ruleId} to ${r.file}` : `policy rule ${r.ruleId} already in ${r.file}` });
    }
    pending.resolve(answer);
    return true;
  }

  list(): { token: string; log: string | null; feature: string | null }[] {
    return [...this.runs.values()].map((r) => ({ token: r.token, log: r.log, feature: r.feature }));
  }

  private newRun(root: string | null, feature: string | null): ActiveRun {
    const token = `r${++this.counter}-${Date.now().toString(36)}`;
    const run: ActiveRun = { token, root, log: null, feature, controller: new AbortController(), pending: new Map(), alwaysAllowed: new Set() };
    this.runs.set(token, run);
    return run;
  }

  private envWithSecrets(secrets: StartRunParams['secrets']): NodeJS.ProcessEnv {
    // The model adapter reads the key from this (dedicated) process's environment; the command
    // runner scrubs it from every child it starts. It is never written anywhere.
    if (secrets?.anthropicApiKey) this.env.ANTHROPIC_API_KEY = secrets.anthropicApiKey;
    return { ...this.env };
  }

  private drive(run: ActiveRun, go: () => Promise<RunSummaryWire>): void {
    // Deferred a tick so the startRun response (the token) reaches the client before any event.
    setImmediate(() => {
      go().then(
        (summary) => this.finish(run, { token: run.token, log: summary.logPath, summary, error: null }),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          this.notify.log({ level: 'error', message: `run ${run.token} failed: ${message}` });
          this.finish(run, { token: run.token, log: run.log, summary: null, error: { code: errorCodeOf(err), message } });
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
    this.runs.delete(run.token);
    this.notify.runEnded(ended);
  }

  private hostFor(run: ActiveRun): Host {
    return {
      approve: (request: ApprovalRequest, signal: AbortSignal) =>
        new Promise<ApprovalAnswer>((resolve, reject) => {
          if (signal.aborted) return reject(new Error('cancelled'));
          if (request.kind === 'command' && run.alwaysAllowed.has(request.command.trim())) {
            this.notify.log({ level: 'info', message: `"${request.command}" is always allowed (chosen earlier in this run)` });
            return resolve({ decision: 'approve', always: true });
          }
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
      onEvent: (event: KiteEvent) => {
        if (event.kind === 'session_start') {
          run.root = event.root;
          run.feature = event.feature;
          run.log ??= join(event.root, '.kite', 'runs', `${event.run}.jsonl`);
        }
        if (run.log === null && run.root) run.log = join(run.root, '.kite', 'runs', `${event.run}.jsonl`);
        this.notify.event({ token: run.token, log: run.log ?? '', event });
      },
    };
  }
}
