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
import { unknownPriceProblem } from './model/pricing';
import type { KiteEvent, Limits, Mode, Outcome } from './protocol/events';
import type { EventSink } from './events/sink';
import { mergeLimits } from './budget/budget';
import { finishFeature } from './progress/finish';
import { runRecordOf } from './progress/commitScope';
import { asKiteFileError, kiteFileError } from './progress/kiteFileError';
import { protectingPattern, protectionOf } from './policy/protect';
import { addWorktree, dirtyPaths, snapshotPaths, gitBranch, gitHead, isGitRepo, repoIdentity, repoStateProblem } from './progress/git';
import { symlinkedKitePath, symlinkProblem } from './config/symlinkedKitePath';
import { acquireLogLock, LogLockError, type LockHolder, type LogLock } from './events/logLock';
import { currentFeature, loadProgress, PROGRESS_FILE, saveProgress, type Feature, type ProgressFile } from './progress/progressFile';
import { assembleLoop } from './loop/assemble';
import { hasHooks } from './hooks/hookConfig';
import { isTrusted } from './hooks/trust';
import type { HookRunner } from './hooks/hookRunner';
import { whyRunEnded } from './events/whyEnded';
import { workspaceLogDir } from './events/logFiles';
import { watchPersonEdits } from './loop/personEdits';
import { runLoop, type LoopResult } from './loop/session';
import { sessionStartOf } from './loop/sessionStart';
import { withMcpTools } from './mcp/runMcp';
import { loadMcpServers } from './mcp/mcpConfig';
import { initialRunState } from './protocol/reducer';
import type { ProcessRunner } from './sandbox/types';
import type { SecretGuard } from './secrets/secretGuard';
import type { Toolbox } from './tools/types';
import { logUndelivered, type SteerSource } from './loop/steer';

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
  /** A replay: the recorded events; MCP tools answer from them and no MCP server starts. */
  replayEvents?: readonly KiteEvent[];
  /** A replay with `--live-mcp`: the approved MCP servers start and answer the recorded calls live. */
  liveMcp?: boolean;
  /** Whose MCP approvals apply (a replay in a scratch worktree: the person's workspace). Default: root. */
  mcpTrustRoot?: string;
  /** Sees every event after it is on disk and may append to the log (replay divergence checks). */
  watch?: (event: KiteEvent, log: EventSink) => void;
  env?: NodeJS.ProcessEnv;
  /** Laid over .kite/config.json (the VS Code settings): max_gate_failures, policy additions. */
  overrides?: ConfigOverrides;
  /** A person's messages to the running agent (loop/steer.ts): the server's queue, a replay's recording. */
  steer?: SteerSource;
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
  /** Why the run ended as it did, one sentence from its fold (events/whyEnded.ts): the CLI's last
   *  stderr line and the VS Code notification of a run that is not done. */
  why?: string;
}

/** Problems with the request itself (exit 2 in the CLI), as opposed to a run that went badly. */
export type RunErrorCode = 'no_root' | 'not_a_repo' | 'dirty' | 'repo_state' | 'symlink' | 'locked' | 'untrusted_hooks' | 'price_unknown';

export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
    /** code locked: the live Kite holding the log's lock (null: unknown). */
    readonly holder: LockHolder | null = null,
    /** code dirty: the uncommitted paths (so an IDE can say it its own way, without parsing the message). */
    readonly paths: readonly string[] = [],
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
  // Never run without them, never run them unapproved: approval is the person's, outside the workspace.
  // A replay runs no hook command (they answer from the recording), so it needs no approval.
  if (!opts.replayOf && hasHooks(config.hooks) && !isTrusted(root, config.hooks, opts.env ?? process.env)) {
    throw new RunError('untrusted_hooks', `${root} has hooks in .kite/config.json that are not approved on this machine (new, or changed since); review and approve them with: kite trust ${root}`);
  }
  // A bad .mcp.json or .vscode/mcp.json is a config error before anything is written (ConfigError names file and key).
  loadMcpServers(root, config.mcp);
  const link = symlinkedKitePath(root, config.log_dir);
  if (link) throw new RunError('symlink', symlinkProblem(link));
  let keep: Map<string, string | null> | undefined;
  if (commits) {
    // Kite owns the progress file (it records each run there) and the log folder.
    const dirty = dirtyPaths(root, [workspaceLogDir(root, config), progressPath]);
    if (dirty.length && !opts.allowDirty) {
      const shown = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, and ${dirty.length - 5} more` : '');
      throw new RunError('dirty', `the work tree has uncommitted changes (${shown}); commit or stash them, or pass --allow-dirty`, null, dirty);
    }
    // --allow-dirty: the person's own changes stay theirs (left out of the commit unless the run touched them).
    if (dirty.length) keep = snapshotPaths(root, dirty);
  }

  // A script named on the command line is relative to the shell's folder; one in the config to the project.
  const model = opts.modelOverride ?? createModel(opts.model || defaultModelSpec(config.model), { cwd: opts.model ? process.cwd() : root, providers: config.providers, env: opts.env, languageModels: host.languageModels });
  const limits = mergeLimits(config.budget, opts.limits);
  // A dollar budget over a model with no known price would count $0 forever: refuse, with the fix.
  const unpriced = opts.replayOf ? null : unknownPriceProblem(model.id, limits.usd, config.prices);
  if (unpriced) throw new RunError('price_unknown', unpriced);
  const startProgress: ProgressFile = structuredClone(progress);
  feature.status = 'in_progress';

  const clock = opts.clock ?? monotonicClock;
  const logDir = workspaceLogDir(root, config);
  let writer: EventWriter;
  try {
    writer = EventWriter.create(logDir, uniqueRunId(logDir, runIdFor(feature.id, opts.now ?? new Date(), opts.replayOf ? '-replay' : '')), clock);
  } catch (e) {
    throw kiteFileError('create the log folder', logDir, e); // before the progress file is touched
  }
  const lock = lockNewLog(writer.path);
  const unsubscribe = host.onEvent ? writer.subscribe((e) => host.onEvent?.(e)) : () => undefined;
  const unwatch = opts.watch ? writer.subscribe((e) => opts.watch?.(e, writer)) : () => undefined;
  try {
    // Only once the log folder proved usable: a run that cannot log leaves the progress file as it was.
    if (!opts.replayOf) saveProgress(progressPath, progress); // a replay is for looking, not saving
    return await runInWriter({ opts, host, root, config, progress, startProgress, progressPath, feature, model, limits, writer, clock, commits, keep, lock });
  } catch (e) {
    // Kite's own file failed (the log: ENOSPC, EROFS…): put the progress file back as it was and say which file and errno.
    const failure = asKiteFileError(e, writer.path);
    if (failure === null) throw e;
    try {
      if (!opts.replayOf) saveProgress(progressPath, startProgress);
    } catch {
      // it keeps its last complete version (the save is atomic)
    }
    throw failure;
  } finally {
    unwatch();
    unsubscribe();
    lock.release();
  }
}

/** One writer per log, a new one included: a `kite resume` of it must wait until this run ends. */
function lockNewLog(log: string): LogLock {
  try {
    return acquireLogLock(log);
  } catch (e) {
    if (e instanceof LogLockError) throw new RunError('locked', e.message, e.holder);
    throw e;
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
  lock: LogLock;
}

async function runInWriter(c: RunContext): Promise<RunSummary> {
  const { writer, config, feature, root } = c;
  const state = initialRunState(); // a fresh run starts from the empty state
  const assembled = assembleLoop({
    root,
    config,
    feature,
    mode: c.opts.mode,
    limits: c.limits,
    model: c.model,
    state,
    log: writer,
    host: c.host,
    progress: { now: c.progress, atStart: c.startProgress },
    now: c.clock,
    runner: c.opts.runner,
    toolbox: c.opts.toolbox,
    env: c.opts.env,
    steer: c.opts.steer,
    ...(c.opts.replayOf ? { recordedEvents: c.opts.replayEvents ?? [] } : {}),
  });
  // MCP servers start before session_start: their tools are part of what it records.
  const { deps, mcp } = await withMcpTools(assembled, { root, config, feature, mode: c.opts.mode, env: c.opts.env ?? process.env, ...(c.opts.replayOf ? { replayEvents: c.opts.replayEvents ?? [], liveMcp: c.opts.liveMcp === true } : {}), ...(c.opts.mcpTrustRoot ? { trustRoot: c.opts.mcpTrustRoot } : {}), toolboxInjected: c.opts.toolbox !== undefined });
  deps.log.append({
    ...sessionStartOf({
      config,
      feature,
      mode: c.opts.mode,
      limits: c.limits,
      model: c.model.id,
      root,
      gitHead: gitHead(root),
      branch: gitBranch(root),
      replayOf: c.opts.replayOf ?? null,
      startedAt: c.opts.now ?? new Date(),
      progressAtStart: c.startProgress,
      deps,
    }),
    repo_id: repoIdentity(root), // resume refuses to continue it in another repository
  });
  const dead = c.lock.tookOverFrom;
  if (dead) deps.log.append({ kind: 'warning', code: 'stale_lock', message: `took over the log's lock from pid ${dead.pid} on ${dead.host} (since ${dead.started_at}), which is no longer running` });
  deps.sandbox.announce();
  // A replay has no person editing alongside it: its log only carries the recorded run's saves.
  const unwatch = c.opts.replayOf ? () => undefined : watchPersonEdits({ host: c.host, root, logDir: workspaceLogDir(root, config), log: deps.log });
  mcp.attach(deps.log);
  let result: LoopResult;
  try {
    result = await runLoop(deps, c.opts.signal ?? new AbortController().signal);
    logUndelivered(c.opts.steer, deps.log);
  } finally {
    await mcp.close();
    unwatch(); // endRun commits before its first await: no save can slip in between the last event and the commit
  }
  return endRun({ ...c, log: deps.log, closingLogged: false, secrets: deps.secrets, ...(deps.hooks ? { hooks: deps.hooks } : {}) }, result);
}

export type FinishContext = Pick<RunContext, 'root' | 'config' | 'progressPath' | 'startProgress' | 'feature' | 'commits' | 'keep'> & {
  writer: EventWriter;
  /** The loop's sink: the closing events fold into the run state like every other. */
  log: EventSink;
  /** Resume only: the closing progress update (and the commit) happened before the process died. */
  closingLogged: boolean;
  /** The run's secret guard: the notes and the commit scan know what the run read from secret files. */
  secrets?: SecretGuard;
  /** The run's hooks: SessionEnd runs just before session_end. */
  hooks?: HookRunner;
};

/** SessionEnd hooks, told the outcome. They cannot change it: a failure or a block is a warning.
 *  Not under the run's signal, so a cancelled run's hooks still run (each with its timeout). */
async function sessionEndHooks(c: FinishContext, outcome: Outcome, summary: string): Promise<void> {
  const v = c.hooks ? await c.hooks.sessionEnd({ outcome, summary }, new AbortController().signal) : null;
  if (v?.blocked) c.log.append({ kind: 'warning', code: 'session_end_hook', message: `a SessionEnd hook did not succeed (the outcome stays ${outcome}): ${v.blocked.reason} (hook: \`${v.blocked.command}\`)` });
}

/** The loop's result, written down: paused (nothing more), or the progress file, the commit and
 *  the closing events. Shared by a new run and a resume (same ending). */
export async function endRun(c: FinishContext, result: LoopResult): Promise<RunSummary> {
  const s = result.state;
  const totals = { turns: s.turns, tokens: s.tokens.total, cost_usd: s.cost_usd };
  if (result.paused) return { feature: c.feature.id, outcome: result.outcome, paused: true, summary: result.summary, ...totals, commit: null, logPath: c.writer.path, proposals: [], why: whyRunEnded(s) };
  if (!c.commits) {
    // A replay: no progress file, no commit; only the closing event of its own log.
    await sessionEndHooks(c, result.outcome, result.summary);
    c.log.append({ kind: 'session_end', status: result.outcome, ...totals, commit: null, summary: result.summary, error: result.error });
    return { feature: c.feature.id, outcome: result.outcome, ...totals, commit: null, logPath: c.writer.path, proposals: [], error: result.error, why: whyRunEnded(s) };
  }
  if (c.closingLogged) {
    // Only the end is missing.
    const head = result.outcome === 'done' ? gitHead(c.root) : null;
    const commit = head !== null && head !== s.meta?.git_head ? head : null;
    await sessionEndHooks(c, result.outcome, result.summary);
    c.log.append({ kind: 'session_end', status: result.outcome, ...totals, commit, summary: result.summary, error: null });
    return { feature: c.feature.id, outcome: result.outcome, ...totals, commit, logPath: c.writer.path, proposals: [], why: whyRunEnded(s) };
  }
  const fin = finishFeature({
    root: c.root,
    progressPath: c.progressPath,
    fallback: c.startProgress,
    featureId: c.feature.id,
    outcome: result.outcome,
    summary: result.summary,
    turns: totals.turns,
    tokens: totals.tokens,
    costUsd: totals.cost_usd,
    logDir: workspaceLogDir(c.root, c.config),
    commit: c.commits,
    keep: c.keep,
    secrets: c.secrets,
    // Only what the log records goes into the commit; protected files only by a recorded write.
    record: runRecordOf(s, (p) => protectingPattern(p, protectionOf(c.root, c.config.policy?.protect, c.feature)) !== null, [PROGRESS_FILE, '.kite/config.json']),
    modelUnavailable: result.modelUnavailable ?? false,
  });
  const leftOut = fin.leftOut.length ? `Left out of the commit (not recorded as this run's work): ${fin.leftOut.map((f) => `${f.path} (${f.why})`).join(', ')}.` : null;
  if (leftOut) c.log.append({ kind: 'warning', code: 'commit_left_out', message: leftOut });
  c.log.append({ kind: 'progress', features: fin.progress.features.map((f) => ({ id: f.id, title: f.title, status: f.status })), proposals: fin.proposals });
  const error = fin.error ?? result.error;
  await sessionEndHooks(c, fin.outcome, fin.error ?? result.summary);
  c.log.append({ kind: 'session_end', status: fin.outcome, ...totals, commit: fin.commit, summary: [fin.error ?? result.summary, leftOut].filter(Boolean).join('\n\n'), error });
  return { feature: c.feature.id, outcome: fin.outcome, ...totals, commit: fin.commit, logPath: c.writer.path, proposals: fin.proposals, error, why: whyRunEnded(s) };
}
