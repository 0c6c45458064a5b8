// Budgets, checked before every model call: turns, tokens (input + output + cache writes +
// cache reads), dollars, wall time. A budget is a hard stop, not a suggestion in the prompt.
import { assertNever, type Limits } from '../protocol/events';
import { usdLimitText } from './usdLimitText';

/** The limits checked before a model call; observation tokens are checked before a tool result
 *  enters the conversation (context/observationBudget.ts). */
export type CallLimitName = 'turns' | 'tokens' | 'usd' | 'wall_s';
export type LimitName = CallLimitName | 'observation_tokens';

export interface Usage {
  turns: number;
  tokens: number;
  usd: number;
  wall_s: number;
}

export interface BudgetStop {
  limit: LimitName;
  used: number;
  max: number;
  tool?: string; // observation_tokens: whose result was withheld
  per_tool?: boolean; // observation_tokens: the tool's own limit
}

export const NO_LIMITS: Limits = { turns: null, tokens: null, usd: null, wall_s: null };

/** Merge overrides (CLI flags) onto the configured limits; an explicit null removes a limit. */
export function mergeLimits(base: Limits, over: Partial<Limits> = {}): Limits {
  return {
    turns: over.turns !== undefined ? over.turns : base.turns,
    tokens: over.tokens !== undefined ? over.tokens : base.tokens,
    usd: over.usd !== undefined ? over.usd : base.usd,
    wall_s: over.wall_s !== undefined ? over.wall_s : base.wall_s,
    // Present only when set (older logs and configs have neither).
    ...optional('observation_tokens', over.observation_tokens !== undefined ? over.observation_tokens : base.observation_tokens),
    ...optional('per_tool', over.per_tool !== undefined ? over.per_tool : base.per_tool),
  };
}

function optional<K extends string, V>(key: K, v: V | null | undefined): Partial<Record<K, V>> {
  return v === null || v === undefined ? {} : ({ [key]: v } as Record<K, V>);
}

const ORDER: CallLimitName[] = ['turns', 'tokens', 'usd', 'wall_s'];

/** The first limit reached (used >= max), or null when another model call is allowed. */
export function checkBudget(limits: Limits, used: Usage): BudgetStop | null {
  for (const limit of ORDER) {
    const max = limits[limit];
    if (max !== null && used[limit] >= max) return { limit, used: round(used[limit], limit), max };
  }
  return null;
}

function round(v: number, limit: CallLimitName): number {
  return limit === 'usd' ? Math.round(v * 10_000) / 10_000 : limit === 'wall_s' ? Math.round(v * 100) / 100 : v;
}

export function describeStop(s: BudgetStop): string {
  switch (s.limit) {
    case 'turns':
      return `turn budget reached: ${s.used} of ${s.max} model turns used`;
    case 'tokens':
      return `token budget reached: ${s.used.toLocaleString('en-US')} of ${s.max.toLocaleString('en-US')} tokens used`;
    case 'usd':
      return `dollar budget reached: $${s.used.toFixed(4)} of ${usdLimitText(s.max)} spent`;
    case 'wall_s':
      return `wall-time budget reached: ${s.used.toFixed(0)} s of ${s.max} s`;
    case 'observation_tokens': {
      const which = s.per_tool ? `the observation budget for ${s.tool} (budget.per_tool)` : 'the observation budget (budget.observation_tokens)';
      return `observation budget reached: ${s.tool ? `a ${s.tool} result ` : 'a tool result '}would bring tool results to ~${s.used.toLocaleString('en-US')} tokens, over ${which} of ${s.max.toLocaleString('en-US')}; it was withheld and did not enter the conversation`;
    }
    default:
      return assertNever(s.limit, 'limit');
  }
}
