// The agent loop, driven by the run's own state. Every event the loop's collaborators write is
// folded into one RunState (loop/foldingSink.ts), and each step is chosen from RunState.phase:
//   awaiting_model → (budget check, model call) → tools | awaiting_gate | finishing
//   tools          → every unfinished call of the last reply (toolsStep.ts) → awaiting_model
//   awaiting_gate  → the gate (the model said done) → finishing | awaiting_model (feedback owed)
//   finishing      → the outcome the log already decided (closing.ts)
// A fresh run enters with the fold of its session_start, a resume with the fold of its log, a
// replay with recorded replies: one code path. The loop only knows interfaces (Model, Toolbox,
// Policy, Host, Gate, EventSink); whether it is logged, replayed or resumed is decided by whoever
// builds its collaborators (assemble.ts).
import { checkBudget, describeStop } from '../budget/budget';
import type { GateLike } from '../gate/gate';
import { ModelError, type Model, type ModelErrorCode, type ToolSpec } from '../model/model';
import type { ToolUseBlock } from '../protocol/content';
import { assertNever, type Limits, type Outcome } from '../protocol/events';
import type { RunState } from '../protocol/reducer';
import { closingOf } from './closing';
import { compactIfNeeded, type CompactionDeps } from '../context/compactor';
import type { RecordedAnswerHost, RecordedCallSink } from './recorded';
import { CancelledError, type ToolCallDeps } from './toolCall';
import { answerCutCalls, toolsStep } from './toolsStep';
import type { RecordedResumes, SteerSource } from './steer';
import type { StreamDelta } from '../host';
import { deliverSteer, replayedResumeHooks, replyHooks, startHooks } from './hookSteps';

export interface LoopDeps extends ToolCallDeps {
  model: Model; // positioned at its next reply; usually a LoggedModel
  gate: GateLike; // usually a LoggedGate (its `gate` event moves the phase on)
  system: string;
  tools: ToolSpec[];
  maxTokens: number;
  limits: Limits;
  maxGateFailures: number;
  /** The run's state; `log` folds every event into it. */
  state: RunState;
  /** What finishing an interrupted call replays instead of logging or asking again. */
  recorded: { sink: RecordedCallSink; host: RecordedAnswerHost };
  /** The start of a run's conversation, written once when the log does not have it yet (a fresh
   *  run, or a crash before it): the opening progress update and the briefing. */
  opening: { progress: () => void; briefing: () => string } | null;
  /** Compaction before each model call (context/compactor.ts); absent: the conversation only grows. */
  compaction?: CompactionDeps;
  /** A person's messages to the agent, delivered at the next turn (steer.ts, hookSteps.ts); absent: none. */
  steer?: SteerSource;
  /** A replay of a resumed run: where the recording resumed (steer.ts RecordedResumes); absent: not a replay. */
  resumes?: RecordedResumes;
  /** The reply's deltas as they stream (Host.onStream); absent: nobody watches. */
  stream?: (delta: StreamDelta) => void;
}

export interface LoopResult {
  /** Waiting for an approval nobody could give: no outcome yet; `kite resume` continues it. */
  paused?: boolean;
  outcome: Outcome;
  /** The model could not be used (no or rejected key, network, overload): the feature itself did
   *  not fail, so it stays in_progress for the next run instead of being marked error. */
  modelUnavailable?: boolean;
  summary: string; // the agent's closing words, or why the run stopped
  error: string | null;
  state: RunState;
}

const MODEL_UNAVAILABLE: ReadonlySet<ModelErrorCode> = new Set(['missing_key', 'auth', 'network', 'overloaded']);

const CUT_NOTICE = (max: number) =>
  `[Kite] Your last reply was cut off because it reached the max_tokens limit (${max} tokens per reply). ` +
  `Any tool call in it that was incomplete did NOT run. Continue from where you stopped, in smaller steps ` +
  `(for example, write a large file in parts with edit_file).`;

export async function runLoop(deps: LoopDeps, signal: AbortSignal): Promise<LoopResult> {
  const s = deps.state;
  const end = (outcome: Outcome, summary: string, error: string | null = null): LoopResult => ({ outcome, summary, error, state: s });
  const clock = { startMs: deps.now(), elapsedBeforeS: s.lastT }; // wall time spent before this process took over (resume)
  try {
    // SessionStart hooks, then (once per run) the opening progress update and the briefing.
    const blocked = await startHooks(deps, signal);
    if (blocked !== null) return end('error', blocked, blocked);
    for (;;) {
      if (signal.aborted) return end('cancelled', 'the run was cancelled');
      if (deps.sandbox?.fatal) return end('error', deps.sandbox.fatal, deps.sandbox.fatal);
      const resumeBlocked = await replayedResumeHooks(deps, signal);
      if (resumeBlocked !== null) return end('error', resumeBlocked, resumeBlocked);
      switch (s.phase) {
        case 'awaiting_model': {
          const calls = s.modelCalls;
          const r = await modelStep(deps, clock, signal);
          if (r) return { ...r, state: s };
          if (s.modelCalls === calls) throw new Error('the model reply was not logged (the loop needs a LoggedModel)');
          break;
        }
        case 'tools': {
          await replyHooks(deps, signal); // after a resume, unless the log has their verdict
          const r = await toolsStep(deps, signal);
          if (r.kind === 'stuck') return end('stuck', r.message); // the outcome already says stuck
          if (r.kind === 'paused') return { ...end('cancelled', r.message), paused: true };
          break;
        }
        case 'awaiting_gate':
          // A person's message sent while the model finished, or a PostModelReply block of the reply:
          // the model answers it first (the reducer moves the phase back).
          if (await deliverSteer(deps, signal)) break;
          if (await replyHooks(deps, signal)) break;
          // The model claims it is done. The gate decides; its `gate` event moves the phase on.
          await deps.gate.check({ attempt: s.gateFailures + 1, maxAttempts: deps.maxGateFailures, signal });
          if (signal.aborted) return end('cancelled', 'the run was cancelled during the gate');
          if (s.phase === 'awaiting_gate' && !deps.sandbox?.fatal) throw new Error('the gate verdict was not logged (the loop needs a LoggedGate)');
          break;
        case 'finishing': {
          const c = closingOf(s);
          return end(c.outcome, c.summary);
        }
        case 'not_started':
          throw new Error('the run has no session_start event');
        case 'ended':
          throw new Error('the run has already ended');
        default:
          return assertNever(s.phase, 'phase');
      }
    }
  } catch (e) {
    if (e instanceof CancelledError) return end('cancelled', 'the run was cancelled');
    const msg = `internal error: ${(e as Error).message ?? String(e)}`;
    return end('error', msg, msg);
  }
}

type StepEnd = Omit<LoopResult, 'state'> | null;

/** Feedback the last gate owes the model, the budget check, one model call. */
async function modelStep(deps: LoopDeps, clock: { startMs: number; elapsedBeforeS: number }, signal: AbortSignal): Promise<StepEnd> {
  const s = deps.state;
  if (s.feedbackOwed !== null) deps.log.append({ kind: 'user', reason: 'gate_feedback', text: s.feedbackOwed });
  await deliverSteer(deps, signal);
  const stop = checkBudget(deps.limits, { turns: s.turns, tokens: s.tokens.total, usd: s.cost_usd, wall_s: clock.elapsedBeforeS + (deps.now() - clock.startMs) / 1000 });
  if (stop) {
    deps.log.append({ kind: 'budget_stop', limit: stop.limit, used: stop.used, max: stop.max });
    return { outcome: 'budget_exceeded', summary: describeStop(stop), error: null };
  }
  if (deps.compaction) await compactIfNeeded(s, deps.compaction, deps.log, signal);
  if (signal.aborted) return { outcome: 'cancelled', summary: 'the run was cancelled', error: null };
  if (!s.conversation) throw new Error('the run state has no conversation');
  let content;
  let stopReason;
  try {
    const turn = s.turns + 1;
    const stream = deps.stream;
    const observer = stream ? { onText: (text: string) => stream({ turn, kind: 'text', text }), onThinking: (text: string) => stream({ turn, kind: 'thinking', text }) } : undefined;
    const reply = await deps.model.complete({ system: deps.system, messages: s.conversation.messages(), tools: deps.tools, max_tokens: deps.maxTokens, signal }, observer);
    content = reply.content;
    stopReason = reply.stop_reason;
  } catch (e) {
    if (signal.aborted) return { outcome: 'cancelled', summary: 'the run was cancelled', error: null };
    // Cancelled on the model's side (VS Code cancelled a vscode-lm request): its own words say why.
    if (e instanceof ModelError && e.code === 'cancelled') return { outcome: 'cancelled', summary: e.message, error: null };
    if (e instanceof ModelError && e.code === 'context_exceeded') {
      // The provider refused the request as too long: the run cannot go on, the feature did not fail.
      deps.log.append({ kind: 'warning', code: 'context_exceeded', message: e.message });
      return { outcome: 'context_exceeded', summary: e.message, error: null };
    }
    const msg = e instanceof ModelError ? `model error (${e.code}): ${e.message}` : `model error: ${(e as Error).message ?? String(e)}`;
    return { outcome: 'error', summary: msg, error: msg, modelUnavailable: e instanceof ModelError && MODEL_UNAVAILABLE.has(e.code) };
  }
  await replyHooks(deps, signal);
  if (stopReason === 'max_tokens') {
    deps.log.append({ kind: 'warning', code: 'max_tokens', message: `reply of turn ${s.turns} was cut at max_tokens (${deps.maxTokens})` });
    // Every tool_use needs a result; a cut reply's calls are not trusted and do not run.
    answerCutCalls(
      deps,
      content.filter((b): b is ToolUseBlock => b.type === 'tool_use'),
    );
    deps.log.append({ kind: 'user', reason: 'notice', text: CUT_NOTICE(deps.maxTokens) });
  }
  return null;
}
