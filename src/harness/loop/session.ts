// The agent loop. Budget check → model → tool calls (see toolCall.ts) → … ; a reply without tool
// calls claims done and runs the gate. Every stop reason has a defined outcome. The loop only
// knows interfaces (Model, Toolbox, Policy, Host, Gate, EventSink): whether it is logged,
// replayed or resumed is decided by whoever builds its collaborators.
import { checkBudget, describeStop } from '../budget/budget';
import type { GateLike } from '../gate/gate';
import { ModelError, type Model, type ModelErrorCode, type ToolSpec } from '../model/model';
import type { Reply, ToolUseBlock } from '../protocol/content';
import { assertNever, type Limits, type Outcome } from '../protocol/events';
import type { EventSink } from '../events/sink';
import type { LoopState } from './state';
import { totalTokensOf } from './state';
import { CancelledError, handleToolUse, type ToolCallDeps } from './toolCall';

export interface LoopDeps extends ToolCallDeps {
  model: Model; // positioned at its next reply; usually a LoggedModel
  gate: GateLike; // usually a LoggedGate
  log: EventSink;
  system: string;
  tools: ToolSpec[];
  maxTokens: number;
  limits: Limits;
  maxGateFailures: number;
  /** Cost of the reply just received (LoggedModel knows it; plain models price to 0). */
  costOfLast: (reply: Reply) => number;
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
  state: LoopState;
}

const MODEL_UNAVAILABLE: ReadonlySet<ModelErrorCode> = new Set(['missing_key', 'auth', 'network', 'overloaded']);

const CUT_NOTICE = (max: number) =>
  `[Kite] Your last reply was cut off because it reached the max_tokens limit (${max} tokens per reply). ` +
  `Any tool call in it that was incomplete did NOT run. Continue from where you stopped, in smaller steps ` +
  `(for example, write a large file in parts with edit_file).`;

export async function runLoop(deps: LoopDeps, state: LoopState, signal: AbortSignal): Promise<LoopResult> {
  const startMs = deps.now();
  const end = (outcome: Outcome, summary: string, error: string | null = null): LoopResult => ({ outcome, summary, error, state });
  try {
    for (;;) {
      if (signal.aborted) return end('cancelled', 'the run was cancelled');
      const stop = checkBudget(deps.limits, {
        turns: state.turns,
        tokens: totalTokensOf(state.usage),
        usd: state.usage.cost_usd,
        wall_s: state.elapsedBeforeS + (deps.now() - startMs) / 1000,
      });
      if (stop) {
        deps.log.append({ kind: 'budget_stop', limit: stop.limit, used: stop.used, max: stop.max });
        return end('budget_exceeded', describeStop(stop));
      }

      let reply: Reply;
      try {
        reply = await deps.model.complete({ system: deps.system, messages: state.conversation.messages(), tools: deps.tools, max_tokens: deps.maxTokens, signal });
      } catch (e) {
        if (signal.aborted || (e instanceof ModelError && e.code === 'cancelled')) return end('cancelled', 'the run was cancelled');
        const msg = e instanceof ModelError ? `model error (${e.code}): ${e.message}` : `model error: ${(e as Error).message ?? String(e)}`;
        return { ...end('error', msg, msg), modelUnavailable: e instanceof ModelError && MODEL_UNAVAILABLE.has(e.code) };
      }
      state.turns++;
      addUsage(state, reply, deps.costOfLast(reply));
      state.conversation.addAssistant(reply.content);
      const text = reply.content
        .filter((b) => b.type === 'text')
        .map((b) => (b as { text: string }).text)
        .join('\n')
        .trim();
      if (text) state.lastText = text;
      const uses = reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');

      switch (reply.stop_reason) {
        case 'tool_use':
        case 'end_turn':
        case 'stop_sequence': {
          if (uses.length) {
            const r = await runTools(deps, state, uses, signal);
            if (r) return r;
            if (deps.sandbox?.fatal) return end('error', deps.sandbox.fatal, deps.sandbox.fatal);
            continue;
          }
          // No tool call: the model claims it is done. The gate decides.
          const attempt = state.gateFailures + 1;
          const verdict = await deps.gate.check({ attempt, maxAttempts: deps.maxGateFailures, signal });
          if (signal.aborted) return end('cancelled', 'the run was cancelled during the gate');
          if (deps.sandbox?.fatal) return end('error', deps.sandbox.fatal, deps.sandbox.fatal);
          if (verdict.passed) return end('done', state.lastText || 'done (no closing summary)');
          state.gateFailures++;
          if (state.gateFailures >= deps.maxGateFailures) {
            const failing = verdict.checks.filter((c) => c.exit_code !== 0 || c.timed_out).map((c) => `\`${c.command}\``);
            return end('gate_failed', `the gate failed ${state.gateFailures} times (last failing: ${failing.join(', ') || 'none recorded'})`);
          }
          deps.log.append({ kind: 'user', reason: 'gate_feedback', text: verdict.feedback });
          state.conversation.addUserText(verdict.feedback);
          continue;
        }
        case 'max_tokens': {
          deps.log.append({ kind: 'warning', code: 'max_tokens', message: `reply of turn ${state.turns} was cut at max_tokens (${deps.maxTokens})` });
          // Every tool_use needs a result; a cut reply's calls are not trusted and do not run.
          for (const u of uses) {
            const output = `This call was part of a reply cut off at max_tokens; it did NOT run. Send it again if you still need it.`;
            deps.log.append({ kind: 'tool', id: u.id, name: u.name, args: u.input, ms: 0, is_error: true, output, error_code: 'failed' });
            state.conversation.addToolResult(u.id, output, true);
          }
          const notice = CUT_NOTICE(deps.maxTokens);
          deps.log.append({ kind: 'user', reason: 'notice', text: notice });
          state.conversation.addUserText(notice);
          continue;
        }
        case 'pause_turn':
          // The API paused a long turn: send the conversation back as is and it continues.
          continue;
        case 'refusal':
          return end('refused', state.lastText || 'the model declined to continue (stop_reason refusal)');
        case 'model_context_window_exceeded':
          return end('context_exceeded', "the conversation no longer fits the model's context window");
        default:
          return assertNever(reply.stop_reason, 'stop reason');
      }
    }
  } catch (e) {
    if (e instanceof CancelledError) return end('cancelled', 'the run was cancelled');
    const msg = `internal error: ${(e as Error).message ?? String(e)}`;
    return end('error', msg, msg);
  }
}

async function runTools(deps: LoopDeps, state: LoopState, uses: ToolUseBlock[], signal: AbortSignal): Promise<LoopResult | null> {
  for (const u of uses) {
    const r = await handleToolUse(u, state.turns, state.repeats, deps, signal);
    switch (r.kind) {
      case 'result':
        state.conversation.addToolResult(u.id, r.output, r.is_error);
        break;
      case 'stuck':
        return { outcome: 'stuck', summary: r.message, error: null, state }; // the outcome already says stuck
      case 'paused':
        return { outcome: 'cancelled', paused: true, summary: r.message, error: null, state };
      default:
        return assertNever(r, 'tool call result');
    }
  }
  return null;
}

function addUsage(state: LoopState, reply: Reply, cost: number): void {
  const u = reply.usage;
  state.usage.input_tokens += u.input_tokens;
  state.usage.output_tokens += u.output_tokens;
  state.usage.cache_creation_input_tokens += u.cache_creation_input_tokens ?? 0;
  state.usage.cache_read_input_tokens += u.cache_read_input_tokens ?? 0;
  state.usage.cost_usd += cost;
}
