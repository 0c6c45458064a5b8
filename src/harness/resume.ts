// Resume = fold + continue. Rebuilds the run state from its log alone (model spec, mode, limits,
// the conversation, repetition counts) and hands it to the same runLoop a new run uses, which
// picks up at the state's phase: it finishes the calls a crash or a pause left open without asking
// the model (loop/toolsStep.ts), runs a gate that was owed, or asks the model. Appends to the same
// log after a `resumed` event; the outcome and the progress file are written once (endRun).
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mergeLimits } from './budget/budget';
import { applyOverrides, loadConfig, type ConfigOverrides, type KiteConfig } from './config/config';
import { EventWriter, monotonicClock, type Clock } from './events/writer';
import { streamLog, type LogProblem } from './events/reader';
import { acquireLogLock, LogLockError, type LockHolder, type LogLock } from './events/logLock';
import { workspaceLogDir } from './events/logFiles';
import { symlinkedKitePath, symlinkProblem } from './config/symlinkedKitePath';
import type { Host } from './host';
import { assembleLoop } from './loop/assemble';
import { watchPersonEdits } from './loop/personEdits';
import { runLoop, type LoopResult } from './loop/session';
import { withMcpTools } from './mcp/runMcp';
import { loadMcpServers } from './mcp/mcpConfig';
import { createModel } from './model/index';
import { unknownPriceProblem } from './model/pricing';
import type { Model } from './model/model';
import { ScriptedModel } from './model/scripted';
import { isTracked, repoIdentity, repoStateProblem } from './progress/git';
import { currentFeature, loadProgress, PROGRESS_FILE, type ProgressFile } from './progress/progressFile';
import type { KiteEvent, Limits, Mode } from './protocol/events';
import { applyEvent, initialRunState, type RunState } from './protocol/reducer';
import { endRun, type RunSummary } from './run';
import type { ProcessRunner } from './sandbox/types';
import type { Toolbox } from './tools/types';
import { logUndelivered, type SteerSource } from './loop/steer';

export interface ResumeOptions {
  log: string;
  mode?: Mode;
  limits?: Partial<Limits>;
  signal?: AbortSignal;
  modelOverride?: Model;
  /** As in RunOptions: laid over .kite/config.json. */
  overrides?: ConfigOverrides;
  /** Test seams, as in RunOptions. */
  runner?: ProcessRunner;
  toolbox?: Toolbox;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** A person's messages to the running agent (loop/steer.ts). */
  steer?: SteerSource;
  /** Continue although the log's hash chain is broken (the person has seen what is wrong). */
  acceptDamagedLog?: boolean;
}

export type ResumeErrorCode =
  | 'corrupt_log'
  | 'not_started'
  | 'already_finished'
  | 'is_replay'
  | 'old_format'
  | 'no_root'
  | 'repo_state'
  | 'broken_chain' // a line was edited, removed or inserted (events/chain.ts)
  | 'wrong_workspace' // the log is not where its run worked, or the repository is another one
  | 'locked' // another Kite is writing the log
  | 'symlink' // .kite, the log folder or kite-progress.json is a symlink
  | 'price_unknown'; // a dollar budget over a model with no known price

export class ResumeError extends Error {
  constructor(
    readonly code: ResumeErrorCode,
    message: string,
    /** code locked: the live Kite holding the log's lock (null: unknown, e.g. the log grew while read). */
    readonly holder: LockHolder | null = null,
  ) {
    super(message);
    this.name = 'ResumeError';
  }
}

export async function resumeRun(opts: ResumeOptions, host: Host): Promise<RunSummary> {
  const state = initialRunState(); // the fold of the log: the state the loop continues from
  const resumedAt = new Set<number>(); // line numbers of `resumed` events
  const prior: KiteEvent[] = []; // for the contracts' automata (they are folded again from the start)
  const { problems, torn, format, bytes, refs } = await streamLog(opts.log, (e, line) => {
    applyEvent(state, e);
    prior.push(e);
    if (e.kind === 'resumed') resumedAt.add(line);
  });
  if (format === 'python-kite') throw new ResumeError('old_format', `${opts.log} was written by the original Python Kite; it can be read (kite timeline) but not resumed`);
  // Tolerated: a torn last line (the crash we resume from), and lines that were torn last lines
  // when an earlier resume began (the writer ended them with a newline; a `resumed` event follows).
  const bad = (torn ? problems.slice(0, -1) : problems).filter((p) => !p.chain && !resumedAt.has(p.line + 1));
  const chainBreaks = problems.filter((p) => p.chain);
  if (bad.length) {
    throw new ResumeError('corrupt_log', `${opts.log} has unreadable lines (${bad.map((p) => p.message).join('; ')}); resuming could repeat or skip work, so Kite will not`);
  }
  const meta = state.meta;
  if (!meta || !state.start) throw new ResumeError('not_started', `${opts.log} has no session_start event: there is nothing to resume`);
  if (state.outcome) throw new ResumeError('already_finished', `run ${meta.run} already ended (${state.outcome.status}); there is nothing to resume`);
  if (meta.replay_of) throw new ResumeError('is_replay', `run ${meta.run} is a replay of ${meta.replay_of}; start the replay again instead of resuming it`);
  if (chainBreaks.length && !opts.acceptDamagedLog) {
    throw new ResumeError('broken_chain', `${opts.log} was changed by something other than Kite: ${describe(chainBreaks)}; its mode, limits or conversation may be forged, so Kite will not continue from it (after checking those lines, pass --accept-damaged-log to continue anyway)`);
  }

  const root = meta.root;
  if (!root || !existsSync(root)) throw new ResumeError('no_root', `run ${meta.run} worked in ${root || '(no folder recorded)'}, which no longer exists; it cannot be resumed elsewhere`);
  const config = applyOverrides(loadConfig(root), opts.overrides);
  loadMcpServers(root, config.mcp); // a bad MCP file is a config error before the log is touched
  checkWorkspace(opts.log, root, config, state.start.repo_id);
  // A crash after the closing progress update only lacks session_end: the commit is already made.
  const onlyEndMissing = state.progressCount >= 2 && state.phase === 'finishing';
  const stateProblem = onlyEndMissing ? null : repoStateProblem(root);
  if (stateProblem) throw new ResumeError('repo_state', stateProblem);
  const progressPath = join(root, PROGRESS_FILE);
  const progress = loadProgress(progressPath);
  const feature = currentFeature(progress, meta.feature);
  // Mode and limits are the person's: session_start's, changed only by this resume's flags, never
  // by `resumed` events in the log (a forged one could make a run unattended with a huge budget).
  const mode = opts.mode ?? meta.mode;
  const limits = mergeLimits(meta.limits, opts.limits);
  const unpriced = unknownPriceProblem(meta.model, limits.usd, config.prices);
  if (unpriced) throw new ResumeError('price_unknown', unpriced);
  const model = positioned(opts.modelOverride ?? createModel(meta.model, { cwd: root, providers: config.providers, env: opts.env, languageModels: host.languageModels }), state.modelCalls);
  const clock = opts.clock ?? monotonicClock;

  const lock = lockLog(opts.log, bytes);
  let unsubscribe = (): void => undefined;
  try {
    const writer = EventWriter.reopen(opts.log, clock, undefined, refs);
    if (host.onEvent) unsubscribe = writer.subscribe((e) => host.onEvent?.(e));
    const paused = state.paused !== null;
    const startProgress = startProgressOf(progress, state);
    const assembled = assembleLoop({ root, config, feature, mode, limits, model, state, log: writer, host, progress: { now: progress, atStart: startProgress }, now: clock, runner: opts.runner, toolbox: opts.toolbox, env: opts.env, priorEvents: prior, steer: opts.steer });
    // The approved MCP servers start again; an interrupted MCP call is not re-run (toolsStep.ts).
    const { deps, mcp } = await withMcpTools(assembled, { root, config, feature, mode, env: opts.env ?? process.env, toolboxInjected: opts.toolbox !== undefined });
    deps.log.append({
      kind: 'resumed',
      after_seq: state.lastSeq,
      pid: process.pid,
      mode,
      limits,
      note: paused ? `continuing a run paused for approval (${state.paused?.pending.join(', ')})` : `continuing after the process stopped at seq ${state.lastSeq} (${state.phase})`,
      sandbox: deps.sandbox.info,
    });
    if (chainBreaks.length) deps.log.append({ kind: 'warning', code: 'damaged_log_accepted', message: `resumed with --accept-damaged-log although ${describe(chainBreaks)}` });
    const dead = lock.tookOverFrom;
    if (dead) deps.log.append({ kind: 'warning', code: 'stale_lock', message: `took over the log's lock from pid ${dead.pid} on ${dead.host} (since ${dead.started_at}), which is no longer running` });
    deps.sandbox.announce();
    const unwatch = watchPersonEdits({ host, root, logDir: workspaceLogDir(root, config), log: deps.log });
    mcp.attach(deps.log);
    let result: LoopResult;
    try {
      result = await runLoop(deps, opts.signal ?? new AbortController().signal);
      logUndelivered(opts.steer, deps.log);
    } finally {
      await mcp.close();
      unwatch(); // endRun commits before its first await: no save can slip in between the last event and the commit
    }
    return endRun({ root, config, progressPath, startProgress, feature, writer, log: deps.log, commits: true, closingLogged: onlyEndMissing, secrets: deps.secrets, ...(deps.hooks ? { hooks: deps.hooks } : {}) }, result);
  } finally {
    unsubscribe();
    lock.release();
  }
}

const describe = (problems: readonly LogProblem[]): string => problems.map((p) => p.message).join('; ');

/** The log sits in the log folder of the workspace its run worked in, is not a file that came
 *  with the repository, and the repository is the one the run started in. */
function checkWorkspace(log: string, root: string, config: KiteConfig, repoId: string | null | undefined): void {
  const link = symlinkedKitePath(root, config.log_dir) ?? (lstatSync(log).isSymbolicLink() ? log : null);
  if (link) throw new ResumeError('symlink', symlinkProblem(link));
  const expected = workspaceLogDir(root, config);
  if (!existsSync(expected) || realpathSync(dirname(log)) !== realpathSync(expected)) {
    throw new ResumeError('wrong_workspace', `${log} is not in the log folder of the workspace its run worked in (${expected}); a log copied from elsewhere is not resumed, since the run would change ${root}`);
  }
  if (isTracked(root, log)) throw new ResumeError('wrong_workspace', `${log} is committed in the repository; Kite never commits its logs, so this one came with the repository and is not resumed`);
  const here = repoIdentity(root);
  if (repoId && repoId !== here) {
    throw new ResumeError('wrong_workspace', `run in ${log} started in another repository (root commit ${repoId.slice(0, 12)}, but ${root} has ${here ? here.slice(0, 12) : 'no commit'}); it is not resumed here`);
  }
}

/** This process becomes the log's one writer; the log must still be what was folded. */
function lockLog(log: string, foldedBytes: number): LogLock {
  let lock: LogLock;
  try {
    lock = acquireLogLock(log);
  } catch (e) {
    if (e instanceof LogLockError) throw new ResumeError('locked', e.message, e.holder);
    throw e;
  }
  if (statSync(log).size !== foldedBytes) {
    lock.release();
    throw new ResumeError('locked', `${log} grew while Kite read it: another Kite was writing it; resume again once it has stopped`);
  }
  return lock;
}

/** A scripted model continues at its next unused reply: one reply per `model` event. */
function positioned(model: Model, replies: number): Model {
  return model instanceof ScriptedModel ? model.startAt(replies) : model;
}

/** The progress file as it was when the run started (features' statuses from session_start). */
function startProgressOf(p: ProgressFile, s: RunState): ProgressFile {
  const copy = structuredClone(p);
  const at = new Map((s.start?.features ?? []).map((f) => [f.id, f.status]));
  for (const f of copy.features) f.status = at.get(f.id) ?? f.status;
  return copy;
}
