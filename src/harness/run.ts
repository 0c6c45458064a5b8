// One feature, start to finish: config → progress (current feature, in_progress) → git checks
// (dirty tree, optional worktree) → event log → briefing → loop → gate → progress + commit.
// The CLI, the harness server and tests all go through runFeature.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { applyOverrides, loadConfig, type ConfigOverrides, type KiteConfig } from './config/config';
import { runIdFor, uniqueRunId, EventWriter, monotonicClock, type Clock } from './events/writer';
import type { Host } from './host';
import { createModel, defaultModelSpec } from './model/index';
import type { Model } from './model/model';
import type { KiteEvent, Limits, Mode, Outcome } from './protocol/events';
import type { EventSink } from './events/sink';
import { mergeLimits } from './budget/budget';
import { finishFeature } from './progress/finish';
import { addWorktree, dirtyPaths, snapshotPaths, gitBranch, gitHead, isGitRepo, repoStateProblem } from './progress/git';
import { currentFeature, loadProgress, PROGRESS_FILE, saveProgress, type Feature, type ProgressFile } from './progress/progressFile';
import { assembleLoop, logDirOf, verifyOf } from './loop/assemble';
import { runLoop } from './loop/session';
import { initialLoopState, totalTokensOf } from './loop/state';
import { buildBriefing, readAgentsMd } from './prompts/briefing';
import type { ProcessRunner } from './sandbox/types';
import type { Toolbox } from './tools/types';

export interface RunOptions {
  root: string;
  featureId?: string;
  mode: Mode;
  model: string; // spec; '' = config model, else anthropic:DEFAULT_MODEL
  limits?: Partial<Limits>;
  allowDirty?: boolean;
  worktree?: boolean;
  signal?: AbortSignal;
  modelOverride?: Model; // tests
  replayOf?: string; // a replay: log name gets -replay, nothing is committed, the progress file is not written
  /** Sees every event after it is on disk and may append to the log (replay divergence checks). */
  watch?: (event: KiteEvent, log: EventSink) => void;
  env?: NodeJS.ProcessEnv;
  /** Laid over .kite/config.json (the VS Code settings): max_gate_failures, policy additions. */
  overrides?: ConfigOverrides;
  /** Test seams. */
  runner?: ProcessRunner;
  toolbox?: Toolbox;
  clock?: Clock;
  now?: Date;
}

export interface RunSummary {
  feature: string;
  outcome: Outcome;
  turns: number;
  tokens: number;
  cost_usd: number;
  commit: string | null;
  logPath: string;
  proposals: string[];
  /** The run is paused for an approval (no session_end, progress untouched): `kite resume` continues it. */
  paused?: boolean;
  summary?: string;
  /** Why a run ended `error`, in one sentence (printed on stderr by the CLI). */
  error?: string | null;
}

/** Problems with the request itself (exit 2 in the CLI), as opposed to a run that went badly. */
export type RunErrorCode = 'no_root' | 'not_a_repo' | 'dirty' | 'repo_state';

export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

export async function runFeature(opts: RunOptions, host: Host): Promise<RunSummary> {
  const root0 = resolve(opts.root);
  if (!existsSync(root0)) throw new RunError('no_root', `${root0}: no such directory`);
  if (!statSync(root0).isDirectory()) throw new RunError('no_root', `${root0} is a file; give the project folder (the one holding kite-progress.json)`);
  let root = root0;
  let config = applyOverrides(loadConfig(root), opts.overrides);
  let progressPath = join(root, PROGRESS_FILE);
  let progress = loadProgress(progressPath);
  let feature = currentFeature(progress, opts.featureId);
  const commits = !opts.replayOf;

  if (commits && !isGitRepo(root)) throw new RunError('not_a_repo', `${root} is not inside a git repository; Kite commits finished features (start one with: git init && git add -A && git commit -m "initial")`);
  // A rebase, merge… in progress or a detached HEAD: the commit would be wrong. A new worktree is on its own branch.
  const stateProblem = commits && !opts.worktree ? repoStateProblem(root) : null;
  if (stateProblem) throw new RunError('repo_state', stateProblem);
  if (opts.worktree) {
    root = addWorktree(root, feature.id);
    config = applyOverrides(loadConfig(root), opts.overrides);
    progressPath = join(root, PROGRESS_FILE);
    progress = loadProgress(progressPath);
    feature = currentFeature(progress, feature.id);
  }
  let keep: Map<string, string | null> | undefined;
  if (commits) {
    // Kite owns the progress file (it records each run there) and the log folder.
    const dirty = dirtyPaths(root, [logDirOf(root, config), progressPath]);
    if (dirty.length && !opts.allowDirty) {
      const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, and ${dirty.length - 5} more` : '');
      throw new RunError('dirty', `the work tree has uncommitted changes (${shown}); commit or stash them, or pass --allow-dirty`);
    }
    // --allow-dirty: the person's own changes stay theirs (left out of the commit unless the run touched them).
    if (dirty.length) keep = snapshotPaths(root, dirty);
  }

  // A script named on the command line is relative to the shell's folder; one in the config to the project.
  const model = opts.modelOverride ?? createModel(opts.model || defaultModelSpec(config.model), { cwd: opts.model ? process.cwd() : root });
  const limits = mergeLimits(config.budget, opts.limits);
  const startProgress: ProgressFile = structuredClone(progress);
  feature.status = 'in_progress';
  if (!opts.replayOf) saveProgress(progressPath, progress); // a replay is for looking, not saving

  const clock = opts.clock ?? monotonicClock;
  const logDir = logDirOf(root, config);
  const writer = EventWriter.create(logDir, uniqueRunId(logDir, runIdFor(feature.id, opts.now ?? new Date(), opts.replayOf ? '-replay' : '')), clock);
  const unsubscribe = host.onEvent ? writer.subscribe((e) => host.onEvent?.(e)) : () => undefined;
  const unwatch = opts.watch ? writer.subscribe((e) => opts.watch?.(e, writer)) : () => undefined;
  try {
    return await runInWriter({ opts, host, root, config, progress, startProgress, progressPath, feature, model, limits, writer, clock, commits, keep });
  } finally {
    unwatch();
    unsubscribe();
  }
}

interface RunContext {
  opts: RunOptions;
  host: Host;
  root: string;
  config: KiteConfig;
  progress: ProgressFile;
  startProgress: ProgressFile;
  progressPath: string;
  feature: Feature;
  model: Model;
  limits: Limits;
  writer: EventWriter;
  clock: Clock;
  commits: boolean;
  /** Paths dirty before the run (--allow-dirty) and their content hashes then. */
  keep?: ReadonlyMap<string, string | null>;
}

async function runInWriter(c: RunContext): Promise<RunSummary> {
  const { writer, config, feature, root } = c;
  const deps = assembleLoop({
    root,
    config,
    feature,
    mode: c.opts.mode,
    limits: c.limits,
    model: c.model,
    turnsSoFar: 0,
    log: writer,
    host: c.host,
    now: c.clock,
    runner: c.opts.runner,
    toolbox: c.opts.toolbox,
    env: c.opts.env,
  });
  writer.append({
    kind: 'session_start',
    feature: feature.id,
    title: feature.title,
    model: c.model.id,
    mode: c.opts.mode,
    limits: c.limits,
    max_gate_failures: config.max_gate_failures,
    max_tokens: config.max_tokens,
    checks: config.checks,
    verify: verifyOf(feature),
    command_timeout_s: config.command_timeout,
    git_head: gitHead(root),
    root,
    branch: gitBranch(root),
    replay_of: c.opts.replayOf ?? null,
    started_at: (c.opts.now ?? new Date()).toISOString(),
    system: deps.system,
    tools: deps.tools,
    features: c.startProgress.features.map((f) => ({ id: f.id, title: f.title, status: f.status })),
    sandbox: deps.sandbox.info,
  });
  deps.sandbox.announce();
  writer.append({ kind: 'progress', features: c.progress.features.map((f) => ({ id: f.id, title: f.title, status: f.status })), proposals: [] });

  const state = initialLoopState();
  const briefing = buildBriefing({
    progress: c.startProgress,
    feature,
    checks: config.checks,
    commandTimeoutS: config.command_timeout,
    agentsMd: readAgentsMd(root),
    mode: c.opts.mode,
    limits: c.limits,
    maxGateFailures: config.max_gate_failures,
  });
  writer.append({ kind: 'user', reason: 'briefing', text: briefing });
  state.conversation.addUserText(briefing);

  const signal = c.opts.signal ?? new AbortController().signal;
  const result = await runLoop(deps, state, signal);
  if (result.paused) {
    return { feature: feature.id, outcome: result.outcome, paused: true, summary: result.summary, turns: result.state.turns, tokens: totalTokensOf(result.state.usage), cost_usd: result.state.usage.cost_usd, commit: null, logPath: writer.path, proposals: [] };
  }
  return finishRun(c, result.outcome, result.summary, result.error, result.state.turns, totalTokensOf(result.state.usage), result.state.usage.cost_usd, result.modelUnavailable);
}

/** Progress file, commit, the closing events. Exported for resume (same ending as a new run). */
export function finishRun(
  c: Pick<RunContext, 'root' | 'config' | 'progressPath' | 'startProgress' | 'feature' | 'writer' | 'commits' | 'keep'>,
  outcome0: Outcome,
  summary: string,
  error0: string | null,
  turns: number,
  tokens: number,
  costUsd: number,
  modelUnavailable = false,
): RunSummary {
  if (!c.commits) {
    // A replay: no progress file, no commit; only the closing event of its own log.
    c.writer.append({ kind: 'session_end', status: outcome0, turns, tokens, cost_usd: costUsd, commit: null, summary, error: error0 });
    return { feature: c.feature.id, outcome: outcome0, turns, tokens, cost_usd: costUsd, commit: null, logPath: c.writer.path, proposals: [], error: error0 };
  }
  const fin = finishFeature({
    root: c.root,
    progressPath: c.progressPath,
    fallback: c.startProgress,
    featureId: c.feature.id,
    outcome: outcome0,
    summary,
    turns,
    tokens,
    costUsd,
    logDir: logDirOf(c.root, c.config),
    commit: c.commits,
    keep: c.keep,
    modelUnavailable,
  });
  c.writer.append({ kind: 'progress', features: fin.progress.features.map((f) => ({ id: f.id, title: f.title, status: f.status })), proposals: fin.proposals });
  const error = fin.error ?? error0;
  c.writer.append({ kind: 'session_end', status: fin.outcome, turns, tokens, cost_usd: costUsd, commit: fin.commit, summary: fin.error ?? summary, error });
  return { feature: c.feature.id, outcome: fin.outcome, turns, tokens, cost_usd: costUsd, commit: fin.commit, logPath: c.writer.path, proposals: fin.proposals, error };
}
