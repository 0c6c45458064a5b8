// A run's running totals, counted in one place. The reducer, the debugger, the transcript, the
// extension's status bar and Runs view and the timeline webview all add model usage with these
// helpers, so they agree by construction.
import type { EventOf, JudgeResult } from './events';

/** Token counts as a reply reports them (the Anthropic usage field names). */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface TokenTotals {
  input: number;
  output: number;
  cache_write: number;
  cache_read: number;
  /** Every token a reply was billed for: input + output + cache writes + cache reads. */
  total: number;
}

export interface RunTotals {
  tokens: TokenTotals;
  cost_usd: number;
}

/** The one token total of a reply: what budgets, the status bar and `kite cost` count. */
export function tokensOf(u: ModelUsage): number {
  return u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}

export function emptyTokenTotals(): TokenTotals {
  return { input: 0, output: 0, cache_write: 0, cache_read: 0, total: 0 };
}

export function emptyTotals(): RunTotals {
  return { tokens: emptyTokenTotals(), cost_usd: 0 };
}

/** Adds one reply's usage to token totals. */
export function addTokens(t: TokenTotals, u: ModelUsage): void {
  t.input += u.input_tokens;
  t.output += u.output_tokens;
  t.cache_write += u.cache_creation_input_tokens ?? 0;
  t.cache_read += u.cache_read_input_tokens ?? 0;
  t.total += tokensOf(u);
}

/** Adds one `model` event (its tokens and its cost) to a run's totals. */
export function addModelEvent(t: RunTotals, e: Pick<EventOf<'model'>, 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cost_usd'>): void {
  addTokens(t.tokens, e);
  t.cost_usd += e.cost_usd;
}

/** The judge calls of a gate event (judged checks): model calls that count like replies, not turns. */
export function judgeCallsOf(e: Pick<EventOf<'gate'>, 'checks'>): JudgeResult[] {
  return e.checks.flatMap((c) => (c.judge ? [c.judge] : []));
}
