// Builds the loop's collaborators for one feature in one work tree, around the run's state: every
// collaborator writes through one sink that folds into it. runFeature gives it the empty state,
// resume the fold of the log; both then call the same runLoop.
import { relative } from 'node:path';
import type { KiteConfig } from '../config/config';
import { LoggedGate } from '../events/loggedGate';
import { workspaceLogDir } from '../events/logFiles';
import { LoggedModel } from '../events/loggedModel';
import type { EventSink } from '../events/sink';
import { Gate } from '../gate/gate';
import type { Host, StreamDelta } from '../host';
import type { Model, ToolSpec } from '../model/model';
import { knownPriceOf } from '../model/pricing';
import { LivePolicy } from '../policy/livePolicy';
import { existingProtected, isGateDefining, protectionOf } from '../policy/protect';
import { changedSince } from '../progress/changedFiles';
import { existsAtCommit } from '../progress/git';
import type { Limits, Mode } from '../protocol/events';
import { isVerifyNone, PROGRESS_FILE, verifyOf, type Feature, type ProgressFile } from '../progress/progressFile';
import type { RunState } from '../protocol/reducer';
import { agentsMdUncommitted, buildBriefing, readAgentsMd } from '../prompts/briefing';
import { FoldingSink } from './foldingSink';
import { SecretGuard } from '../secrets/secretGuard';
import { RecordedAnswerHost, RecordedCallSink } from './recorded';
import { createRunner } from '../sandbox/runner';
import { RunSandbox } from '../sandbox/runSandbox';
import { createToolbox } from '../tools/index';
import type { ProcessRunner } from '../sandbox/types';
import type { Toolbox } from '../tools/types';
import type { LoopDeps } from './session';
import { SYSTEM_PROMPT } from '../prompts/system';
import { ContractMonitor } from '../policy/contracts';
import { ContractGate, ContractPolicy, ContractSink } from '../policy/contractChecks';
import type { KiteEvent } from '../protocol/events';
import { hasHooks } from '../hooks/hookConfig';
import { HookRunner } from '../hooks/hookRunner';
import { StopHookGate } from '../hooks/stopHookGate';
import { isTrusted } from '../hooks/trust';
import { observationStop, withheldResult } from '../context/observationBudget';
import { contextWindowOf } from '../model/contextWindows';
import { RecordedResumes, type SteerSource } from './steer';
import { judgeForRun } from '../gate/judgeForRun';

export interface AssembleInput {
  root: string; // absolute work tree root
  config: KiteConfig;
  feature: Feature;
  mode: Mode;
  limits: Limits;
  model: Model; // the raw model, positioned at its next reply
  /** The run's state: empty for a new run, the fold of the log for a resume. */
  state: RunState;
  log: EventSink;
  host: Host;
  /** The progress file now and as it was when the run started: the opening progress update and
   *  the briefing are written from them when the log does not have them yet. */
  progress?: { now: ProgressFile; atStart: ProgressFile };
  now: () => number;
  runner?: ProcessRunner; // injected by tests
  toolbox?: Toolbox; // injected by tests
  env?: NodeJS.ProcessEnv;
  /** Tests: a sandbox that pretends the machine has none (fail-closed paths). */
  sandbox?: RunSandbox;
  /** A resume: the log so far, folded into the contracts' automata as into the state. */
  priorEvents?: readonly KiteEvent[];
  /** A person's messages to the agent (loop/steer.ts). */
  steer?: SteerSource;
  /** A replay: the recorded run's events (its judges' verdicts answer again). */
  recordedEvents?: readonly KiteEvent[];
}

export { LivePolicy }; // moved to policy/livePolicy.ts; re-exported for existing importers

export { isVerifyNone, verifyOf }; // defined with the feature schema (progressFile.ts)

/** The tools the model is sent: only the feature's (`features[].tools`), in the toolbox's order.
 *  Policy still refuses any other name (rule feature:tools); this keeps them off the wire. */
export function wireTools(toolbox: Toolbox, feature: Feature): ToolSpec[] {
  const allowed = feature.tools;
  const all = toolbox.specs();
  return allowed ? all.filter((t) => allowed.includes(t.name)) : all;
}

export function assembleLoop(input: AssembleInput): LoopDeps & { logged: LoggedModel; sandbox: RunSandbox } {
  const { root, config, feature, state } = input;
  const verify = verifyOf(feature);
  // The verify files that existed when the run started are protected: a resume must not count the
  // test the agent itself created before the crash (it is the run's work, as in a fresh run).
  const startCommit = state.meta?.git_head ?? null;
  const protection0 = protectionOf(root, config.policy?.protect, feature);
  const protection = state.meta ? { ...protection0, verifyFiles: protection0.verifyFiles.filter((f) => startCommit !== null && existsAtCommit(root, startCommit, f)) } : protection0;
  // Collaborators → RecordedCallSink (drops events an interrupted call already logged) → fold → log.
  // Contracts (config + feature) watch every event the run writes (policy/contracts.ts).
  const contracts = [...config.contracts, ...(feature.contracts ?? [])];
  const monitor = contracts.length ? new ContractMonitor(contracts) : null;
  for (const e of monitor ? (input.priorEvents ?? []) : []) monitor?.observe(e);
  const sink = new RecordedCallSink(new FoldingSink(monitor ? new ContractSink(input.log, monitor) : input.log, state));
  const host = new RecordedAnswerHost(input.host);
  const sandbox =
    input.sandbox ??
    new RunSandbox({
      root,
      logDir: workspaceLogDir(root, config),
      protect: existingProtected(root, protection), // read-only to commands; files created later: the gate's check
      settings: config.sandbox,
      offBy: config.sandbox_off_by ?? undefined,
      mode: input.mode,
      env: input.env ?? process.env,
      log: sink,
      confirmUnsandboxed: (q, signal) => input.host.confirmUnsandboxed?.(q, signal ?? new AbortController().signal) ?? Promise.resolve(false),
    });
  const runner = input.runner ?? createRunner({ sandbox });
  const toolbox = input.toolbox ?? createToolbox();
  // Priced by the model that answered (recorded replies name it); a script without model names
  // is priced as the configured model, else the default one.
  // Another provider's model with no listed price is "price unknown" (null), never Claude's price.
  const fallback = input.model.id.startsWith('anthropic:') ? input.model.id : (config.model ?? input.model.id);
  const price = (answeredBy: string) => knownPriceOf(answeredBy.startsWith('script:') || answeredBy.startsWith('replay:') ? fallback : answeredBy, config.prices);
  const logged = new LoggedModel(input.model, sink, price, state.turns, input.now);
  // Compared with the run's starting commit (session_start's git_head; none: nothing to compare).
  const changedGateFiles = (): string[] => {
    const base = state.meta?.git_head ?? null;
    if (base === null) return [];
    try {
      return changedSince(root, base).filter((f) => isGateDefining(f, protection));
    } catch {
      return []; // not a repository (a replay of a copied log): no starting commit to compare with
    }
  };
  // What the run changed, Kite's own files aside (the progress file, .kite/, the log folder).
  const logRel = relative(root, workspaceLogDir(root, config)).replace(/\\/g, '/');
  const changedFiles = (): string[] | null => {
    const base = state.meta?.git_head ?? null;
    if (base === null) return null; // no starting commit: cannot tell
    try {
      return changedSince(root, base).filter((f) => f !== PROGRESS_FILE && !f.startsWith('.kite/') && !(logRel && (f === logRel || f.startsWith(`${logRel}/`))));
    } catch {
      return null;
    }
  };
  const gateOpts = {
    root,
    checks: config.checks,
    verify,
    timeoutS: config.command_timeout,
    runner,
    changedGateFiles,
    refuseChangedGateFiles: input.mode === 'unattended',
    featureId: feature.id,
    verifyNone: isVerifyNone(feature),
    // Only a person confirms done without a check: unattended runs end unverified.
    confirmWithoutCheck:
      input.mode === 'attended' && input.host.confirmDoneWithoutCheck
        ? (signal?: AbortSignal) => input.host.confirmDoneWithoutCheck?.({ feature: feature.id, title: feature.title }, signal ?? new AbortController().signal) ?? Promise.resolve(false)
        : undefined,
    changedFiles,
    expectsNoChange: feature.expects_no_change === true,
  };
  const policy = new LivePolicy(root, config, sink);
  // One guard for the run's tool results and (through the registry) its notes and commit scan.
  const secrets = new SecretGuard({ root, env: input.env ?? process.env, config: config.redaction });
  // Judged checks: the config's rubrics, then the feature's; a separate model call each (gate/judge.ts).
  const judges = [...config.judges, ...(feature.judges ?? [])];
  const judgeOpts = judges.length
    ? {
        judges,
        judge: judgeForRun({
          root,
          logDir: workspaceLogDir(root, config),
          base: () => state.meta?.git_head ?? null,
          runModelId: input.model.id,
          providers: config.providers,
          env: input.env,
          redact: (text) => secrets.redactText(text),
          price,
          maxTokens: config.max_tokens,
          priorEvents: input.priorEvents,
          recorded: input.recordedEvents,
        }),
      }
    : {};
  // Hooks not approved on this machine still "run": each blocks (fail closed, never skipped).
  // A replay runs none: each answers as the recording says.
  const hooks = hasHooks(config.hooks)
    ? new HookRunner({ hooks: config.hooks, trusted: isTrusted(root, config.hooks, input.env ?? process.env), runner, root, log: sink, sessionId: () => state.meta?.run ?? '', ...(input.recordedEvents ? { recorded: input.recordedEvents } : {}) })
    : null;
  const checked = monitor ? new ContractGate(new Gate({ ...gateOpts, ...judgeOpts }), monitor) : new Gate({ ...gateOpts, ...judgeOpts });
  const gate = new LoggedGate(hooks ? new StopHookGate(checked, hooks) : checked, sink, (text) => secrets.redactText(text));
  const progress = input.progress;
  return {
    logged,
    onAlways: (call) => policy.always(call),
    model: logged,
    gate,
    log: sink,
    state,
    recorded: { sink, host },
    opening: progress
      ? {
          progress: () => sink.append({ kind: 'progress', features: progress.now.features.map((f) => ({ id: f.id, title: f.title, status: f.status })), proposals: [] }),
          // The one briefing: a resume that crashed before it writes the same bytes a new run would.
          briefing: () =>
            buildBriefing({
              progress: progress.atStart,
              feature,
              checks: config.checks,
              commandTimeoutS: config.command_timeout,
              agentsMd: readAgentsMd(root),
              agentsMdUncommitted: agentsMdUncommitted(root),
              mode: input.mode,
              limits: input.limits,
              maxGateFailures: config.max_gate_failures,
              ...(judges.length ? { judges: judges.map((j) => j.judge) } : {}),
            }),
        }
      : null,
    toolbox,
    policy: monitor ? new ContractPolicy(policy, monitor, sink) : policy,
    policyContext: { mode: input.mode, checks: config.checks, verify, featureTools: feature.tools ?? null, verifyFiles: [...protection.verifyFiles], mayChange: [...protection.mayChange] },
    host,
    toolContext: { root, logDir: workspaceLogDir(root, config), runner, commandTimeoutS: config.command_timeout },
    now: input.now,
    system: SYSTEM_PROMPT,
    tools: wireTools(toolbox, feature),
    maxTokens: config.max_tokens,
    limits: input.limits,
    maxGateFailures: config.max_gate_failures,
    sandbox,
    secrets,
    ...(hooks ? { hooks } : {}),
    compaction: {
      settings: config.context,
      window: contextWindowOf(fallback, config.context.window),
      summaryModel: input.model, // unlogged: the compaction event records the summary and its usage
      price: (m: string) => price(m) ?? { input: 0, output: 0 }, // price unknown: its summary counts $0, like its replies
      maxTokens: config.max_tokens,
    },
    ...(input.steer ? { steer: input.steer } : {}),
    ...(input.recordedEvents ? { resumes: new RecordedResumes(input.recordedEvents) } : {}),
    ...(input.host.onStream ? { stream: (d: StreamDelta) => input.host.onStream?.(d) } : {}),
    observation: (tool, output) => {
      const stop = observationStop(input.limits, state.context, tool, output);
      return stop ? { stop, withheld: withheldResult(stop, output.length, state.context.ratio) } : null;
    },
  };
}
