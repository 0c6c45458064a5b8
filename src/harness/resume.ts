// Resume = fold + continue. Rebuilds the run state from its log alone (model spec, mode, limits,
// the conversation, repetition counts) and hands it to the same runLoop a new run uses, which
// picks up at the state's phase: it finishes the calls a crash or a pause left open without asking
// the model (loop/toolsStep.ts), runs a gate that was owed, or asks the model. Appends to the same
// log after a `resumed` event; the outcome and the progress file are written once (endRun).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mergeLimits } from './budget/budget';
import { applyOverrides, loadConfig, type ConfigOverrides } from './config/config';
import { EventWriter, monotonicClock, type Clock } from './events/writer';
import { streamLog } from './events/reader';
import type { Host } from './host';
import { assembleLoop } from './loop/assemble';
import { runLoop } from './loop/session';
import { createModel } from './model/index';
import type { Model } from './model/model';
import { ScriptedModel } from './model/scripted';
import { repoStateProblem } from './progress/git';
import { currentFeature, loadProgress, PROGRESS_FILE, type ProgressFile } from './progress/progressFile';
import type { Limits, Mode } from './protocol/events';
import { applyEvent, initialRunState, type RunState } from './protocol/reducer';
import { endRun, type RunSummary } from './run';
import type { ProcessRunner } from './sandbox/types';
import type { Toolbox } from './tools/types';

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
}

export type ResumeErrorCode = 'corrupt_log' | 'not_started' | 'already_finished' | 'is_replay' | 'old_format' | 'no_root' | 'repo_state';

export class ResumeError extends Error {
  constructor(
    readonly code: ResumeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ResumeError';
  }
}

export async function resumeRun(opts: ResumeOptions, host: Host): Promise<RunSummary> {
  const state = initialRunState(); // the fold of the log: the state the loop continues from
  const resumedAt = new Set<number>(); // line numbers of `resumed` events
  const { problems, torn, format } = await streamLog(opts.log, (e, line) => {
    applyEvent(state, e);
    if (e.kind === 'resumed') resumedAt.add(line);
  });
  if (format === 'python-kite') throw new ResumeError('old_format', `${opts.log} was written by the original Python Kite; it can be read (kite timeline) but not resumed`);
  // Tolerated: a torn last line (the crash we resume from), and lines that were torn last lines
  // when an earlier resume began (the writer ended them with a newline; a `resumed` event follows).
  const bad = (torn ? problems.slice(0, -1) : problems).filter((p) => !resumedAt.has(p.line + 1));
  if (bad.length) {
    throw new ResumeError('corrupt_log', `${opts.log} has unreadable lines (${bad.map((p) => p.message).join('; ')}); resuming could repeat or skip work, so Kite will not`);
  }
  const meta = state.meta;
  if (!meta || !state.start) throw new ResumeError('not_started', `${opts.log} has no session_start event: there is nothing to resume`);
  if (state.outcome) throw new ResumeError('already_finished', `run ${meta.run} already ended (${state.outcome.status}); there is nothing to resume`);
  if (meta.replay_of) throw new ResumeError('is_replay', `run ${meta.run} is a replay of ${meta.replay_of}; start the replay again instead of resuming it`);

  const root = meta.root;
  if (!root || !existsSync(root)) throw new ResumeError('no_root', `run ${meta.run} worked in ${root || '(no folder recorded)'}, which no longer exists; it cannot be resumed elsewhere`);
  // A crash after the closing progress update only lacks session_end: the commit is already made.
  const onlyEndMissing = state.progressCount >= 2 && state.phase === 'finishing';
  const stateProblem = onlyEndMissing ? null : repoStateProblem(root);
  if (stateProblem) throw new ResumeError('repo_state', stateProblem);
  const config = applyOverrides(loadConfig(root), opts.overrides);
  const progressPath = join(root, PROGRESS_FILE);
  const progress = loadProgress(progressPath);
  const feature = currentFeature(progress, meta.feature);
  const mode = opts.mode ?? state.mode ?? meta.mode;
  const limits = mergeLimits(state.limits ?? meta.limits, opts.limits);
  const model = positioned(opts.modelOverride ?? createModel(meta.model, { cwd: root }), state.modelCalls);
  const clock = opts.clock ?? monotonicClock;

  const writer = EventWriter.reopen(opts.log, clock);
  const unsubscribe = host.onEvent ? writer.subscribe((e) => host.onEvent?.(e)) : () => undefined;
  try {
    const paused = state.paused !== null;
    const startProgress = startProgressOf(progress, state);
    const deps = assembleLoop({ root, config, feature, mode, limits, model, state, log: writer, host, progress: { now: progress, atStart: startProgress }, now: clock, runner: opts.runner, toolbox: opts.toolbox, env: opts.env });
    deps.log.append({
      kind: 'resumed',
      after_seq: state.lastSeq,
      pid: process.pid,
      mode,
      limits,
      note: paused ? `continuing a run paused for approval (${state.paused?.pending.join(', ')})` : `continuing after the process stopped at seq ${state.lastSeq} (${state.phase})`,
      sandbox: deps.sandbox.info,
    });
    deps.sandbox.announce();
    const result = await runLoop(deps, opts.signal ?? new AbortController().signal);
    return endRun({ root, config, progressPath, startProgress, feature, writer, log: deps.log, commits: true, closingLogged: onlyEndMissing }, result);
  } finally {
    unsubscribe();
  }
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
