// How a run in the `finishing` phase ends: the outcome its log already decided (gate passed,
// gate attempts used up, budget stopped, the model refused or ran out of context).
import { describeStop } from '../budget/budget';
import type { Outcome } from '../protocol/events';
import type { RunState } from '../protocol/reducer';

export interface Closing {
  outcome: Outcome;
  summary: string;
}

export function closingOf(s: RunState): Closing {
  // Nothing follows a budget stop or a refusal; a gate verdict follows the last reply.
  if (s.budgetStop) return { outcome: 'budget_exceeded', summary: describeStop(s.budgetStop) };
  if (s.lastStop === 'refusal') return { outcome: 'refused', summary: s.lastText || 'the model declined to continue (stop_reason refusal)' };
  if (s.lastStop === 'model_context_window_exceeded') return { outcome: 'context_exceeded', summary: "the conversation no longer fits the model's context window" };
  const last = s.gates.at(-1);
  if (last?.unverified !== undefined && !last.passed) return { outcome: 'unverified', summary: last.unverified };
  if (last?.passed) return { outcome: 'done', summary: s.lastText || 'done (no closing summary)' };
  if (last) {
    const failing = last.checks.filter((c) => c.exit_code !== 0 || c.timed_out).map((c) => `\`${c.command}\``);
    if (last.noChange && failing.length === 0) return { outcome: 'gate_failed', summary: `the gate failed ${s.gateFailures} times (last: the run had changed no file)` };
    return { outcome: 'gate_failed', summary: `the gate failed ${s.gateFailures} times (last failing: ${failing.join(', ') || 'none recorded'})` };
  }
  return { outcome: 'error', summary: 'the run stopped before its outcome was recorded' };
}
