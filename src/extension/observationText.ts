// The observation budget in the status bar (issue 14): how many tokens tool results put into the
// conversation, against `budget.observation_tokens` when the run has one. Pure, so it is unit-tested.
import { formatTokens } from './tokenText';

/** " · obs 3.2k/20.0k" when the run has an observation budget, else "" (the tooltip still says it). */
export function observationStatus(tokens: number, limit: number | null): string {
  return limit === null ? '' : ` · obs ${formatTokens(tokens)}/${formatTokens(limit)}`;
}

/** The tooltip's line: the count, and the limit when there is one. */
export function observationTooltip(tokens: number, limit: number | null): string {
  const of = limit === null ? '' : ` of ${limit.toLocaleString('en-US')} (budget.observation_tokens)`;
  return `Tool results put ~${tokens.toLocaleString('en-US')} tokens into the conversation${of}.`;
}
