// The observation budget: how many tokens tool results may put into the conversation over a run
// (`budget.observation_tokens`, and per tool `budget.per_tool`). Checked before a result enters
// the conversation, so a flood of output is stopped before anyone pays for it on every later turn.
import type { BudgetStop } from '../budget/budget';
import { estimateTokens, type ContextTally } from '../protocol/contextTally';
import type { Limits } from '../protocol/events';

/** The stop this result would cause, or null when it may enter the conversation. */
export function observationStop(limits: Pick<Limits, 'observation_tokens' | 'per_tool'>, tally: ContextTally, tool: string, output: string): BudgetStop | null {
  const perTool = limits.per_tool?.[tool];
  if (perTool !== undefined && perTool !== null) {
    const used = estimateTokens((tally.observationCharsByTool[tool] ?? 0) + output.length, tally.ratio);
    if (used > perTool) return { limit: 'observation_tokens', used, max: perTool, tool, per_tool: true };
  }
  const max = limits.observation_tokens;
  if (max !== undefined && max !== null) {
    const used = estimateTokens(tally.observationChars + output.length, tally.ratio);
    if (used > max) return { limit: 'observation_tokens', used, max, tool };
  }
  return null;
}

/** What the model's log shows in place of a withheld result (the run ends right after it). */
export function withheldResult(stop: BudgetStop, outputChars: number, ratio: number): string {
  return (
    `[Kite] This result (~${estimateTokens(outputChars, ratio).toLocaleString('en-US')} tokens) was withheld and did NOT enter the conversation: ` +
    `it would exceed ${stop.per_tool ? `the observation budget for ${stop.tool}` : "the run's observation budget"} (${stop.max.toLocaleString('en-US')} tokens). The run stops here.`
  );
}
