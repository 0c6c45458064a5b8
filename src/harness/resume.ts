// Resume = fold + continue. Rebuilds the run from its log alone (model spec, mode, limits, the
// conversation), finishes the calls a crash or a pause left open without asking the model
// (resume/finishCalls.ts), then continues with the same loop a new run uses. Appends to the
// same log after a `resumed` event; the outcome and the progress file are written once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mergeLimits } from './budget/budget';
import { applyOverrides, loadConfig, type ConfigOverrides } from './config/config';
import { EventWriter, monotonicClock, type Clock } from './events/writer';
import { streamLog } from './events/reader';
import type { Host } from './host';
import { assembleLoop } from './loop/assemble';
import { runLoop, type LoopResult } from './loop/session';
import { repeatsFromEvents } from './loop/repetition';
import { totalTokensOf, type LoopState } from './loop/state';
import { createModel } from './model/index';
import type { Model } from './model/model';
import { ScriptedModel } from './model/scripted';
import { buildBriefing, readAgentsMd } from './prompts/briefing';
import { repoStateProblem } from './progress/git';
import { currentFeature, loadProgress, PROGRESS_FILE, type ProgressFile } from './progress/progressFile';
import { assertNever, type KiteEvent, type Limits, type Mode, type Outcome } from './protocol/events';
import { foldEvents, type RunState } from './protocol/reducer';
import { finishRun, type RunSummary } from './run';
import type { ProcessRunner } from './sandbox/types';
import type { Toolbox } from './tools/types';
import { finishUnfinishedCalls } from './resume/finishCalls';
import { RecordedAnswerHost, ResumeSink } from './resume/resumeSink';
import { closingOf } from './resume/closing';

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
  const events: KiteEvent[] = [];
  const resumedAt = new Set<number>(); // line numbers of `resumed` events
  const { problems, torn, format } = await streamLog(opts.log, (e, line) => {
    events.push(e);
    if (e.kind === 'resumed') resumedAt.add(line);
  });
  if (format === 'python-kite') throw new ResumeError('old_format', `${opts.log} was written by the original Python Kite; it can be read (kite timeline) but not resumed`);
  // Tolerated: a torn last line (the crash we resume from), and lines that were torn last lines
  // when an earlier resume began (the writer ended them with a newline; a `resumed` event follows).
  const bad = (torn ? problems.slice(0, -1) : problems).filter((p) => !resumedAt.has(p.line + 1));
  if (bad.length) {
    throw new ResumeError('corrupt_log', `${opts.log} has unreadable lines (${bad.map((p) => p.message).join('; ')}); resuming could repeat or skip work, so Kite will not`);
  }
  const state = foldEvents(events);
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
    const sink = new ResumeSink(writer);
    const answering = new RecordedAnswerHost(host);
    const deps = assembleLoop({ root, config, feature, mode, limits, model, turnsSoFar: state.turns, log: sink, host: answering, now: clock, runner: opts.runner, toolbox: opts.toolbox, env: opts.env });
    writer.append({
      kind: 'resumed',
      after_seq: state.lastSeq,
      pid: process.pid,
      mode,
      limits,
      note: paused ? `continuing a run paused for approval (${state.paused?.pending.join(', ')})` : `continuing after the process stopped at seq ${state.lastSeq} (${state.phase})`,
      sandbox: deps.sandbox.info,
    });
    deps.sandbox.announce();
    const loop = loopStateOf(state, events);
    const finishCtx = { root, config, progressPath, startProgress: startProgressOf(progress, state), feature, writer, commits: true };
    const finish = (outcome: Outcome, summary: string, error: string | null = null) =>
      finishRun(finishCtx, outcome, summary, error, loop.turns, totalTokensOf(loop.usage), loop.usage.cost_usd);
    const signal = opts.signal ?? new AbortController().signal;

    // A crash between the closing progress update and session_end: only the end is missing.
    if (onlyEndMissing) {
      const c = closingOf(state, root);
      writer.append({ kind: 'session_end', status: c.outcome, turns: loop.turns, tokens: totalTokensOf(loop.usage), cost_usd: loop.usage.cost_usd, commit: c.commit, summary: c.summary, error: null });
      return { feature: feature.id, outcome: c.outcome, turns: loop.turns, tokens: totalTokensOf(loop.usage), cost_usd: loop.usage.cost_usd, commit: c.commit, logPath: writer.path, proposals: [] };
    }
    if (state.progressCount === 0) writer.append({ kind: 'progress', features: progress.features.map((f) => ({ id: f.id, title: f.title, status: f.status })), proposals: [] });
    if (!state.briefed) {
      // Byte-identical to the briefing runFeature would have written (same inputs), so a run that
      // crashed before its briefing resumes into the conversation an uncrashed run would have had.
      const briefing = buildBriefing({
        progress: finishCtx.startProgress,
        feature,
        checks: config.checks,
        commandTimeoutS: config.command_timeout,
        agentsMd: readAgentsMd(root),
        mode,
        limits,
        maxGateFailures: config.max_gate_failures,
      });
      writer.append({ kind: 'user', reason: 'briefing', text: briefing });
      loop.conversation.addUserText(briefing);
    }

    const calls = await finishUnfinishedCalls({ run: state, events, deps, sink, log: writer, host: answering, loop, signal });
    if (calls.kind === 'paused') return pausedSummary(feature.id, loop, writer.path, calls.message);
    if (calls.kind === 'stuck') return finish('stuck', calls.message);

    if (state.feedbackOwed !== null) {
      writer.append({ kind: 'user', reason: 'gate_feedback', text: state.feedbackOwed });
      loop.conversation.addUserText(state.feedbackOwed);
    }
    let result: LoopResult;
    switch (state.phase) {
      case 'finishing': {
        const c = closingOf(state, root);
        return finish(c.outcome, c.summary);
      }
      case 'awaiting_gate': {
        // The model said done; the gate had not run yet.
        const verdict = await deps.gate.check({ attempt: loop.gateFailures + 1, maxAttempts: deps.maxGateFailures, signal });
        if (verdict.passed) return finish('done', loop.lastText || 'done (no closing summary)');
        loop.gateFailures++;
        if (loop.gateFailures >= deps.maxGateFailures) return finish('gate_failed', `the gate failed ${loop.gateFailures} times`);
        writer.append({ kind: 'user', reason: 'gate_feedback', text: verdict.feedback });
        loop.conversation.addUserText(verdict.feedback);
        result = await runLoop(deps, loop, signal);
        break;
      }
      case 'not_started':
      case 'awaiting_model':
      case 'tools':
        if (state.lastStop === 'refusal' && state.phase === 'awaiting_model') return finish('refused', loop.lastText || 'the model declined to continue (stop_reason refusal)');
        if (state.lastStop === 'model_context_window_exceeded') return finish('context_exceeded', "the conversation no longer fits the model's context window");
        result = await runLoop(deps, loop, signal);
        break;
      case 'ended':
        throw new ResumeError('already_finished', `run ${meta.run} has already ended`);
      default:
        return assertNever(state.phase, 'phase');
    }
    if (result.paused) return pausedSummary(feature.id, result.state, writer.path, result.summary);
    return finishRun(finishCtx, result.outcome, result.summary, result.error, loop.turns, totalTokensOf(loop.usage), loop.usage.cost_usd, result.modelUnavailable);
  } finally {
    unsubscribe();
  }
}

/** A scripted model continues at its next unused reply: one reply per `model` event. */
function positioned(model: Model, replies: number): Model {
  return model instanceof ScriptedModel ? model.startAt(replies) : model;
}

/** The loop's carried state, rebuilt from the fold (same conversation rule as the loop). */
export function loopStateOf(s: RunState, events: readonly KiteEvent[]): LoopState {
  // The same counting the live loop does (a write that changes a file resets it).
  const repeats = repeatsFromEvents(events);
  if (!s.conversation) throw new Error('resume needs the conversation');
  return {
    conversation: s.conversation,
    turns: s.turns,
    usage: { input_tokens: s.tokens.input, output_tokens: s.tokens.output, cache_creation_input_tokens: s.tokens.cache_write, cache_read_input_tokens: s.tokens.cache_read, cost_usd: s.cost_usd },
    gateFailures: s.gateFailures,
    repeats,
    lastText: s.lastText,
    elapsedBeforeS: s.lastT,
  };
}

/** The progress file as it was when the run started (features' statuses from session_start). */
function startProgressOf(p: ProgressFile, s: RunState): ProgressFile {
  const copy = structuredClone(p);
  const at = new Map((s.start?.features ?? []).map((f) => [f.id, f.status]));
  for (const f of copy.features) f.status = at.get(f.id) ?? f.status;
  return copy;
}

function pausedSummary(feature: string, loop: LoopState, logPath: string, message: string): RunSummary {
  return { feature, outcome: 'cancelled', paused: true, summary: message, turns: loop.turns, tokens: totalTokensOf(loop.usage), cost_usd: loop.usage.cost_usd, commit: null, logPath, proposals: [] };
}
