// Budgets, checked before every model call: turns, tokens (input + output + cache writes +
// cache reads), dollars, wall time. A budget is a hard stop, not a suggestion in the prompt.
import { assertNever, type Limits } from '../protocol/events';

export type LimitName = keyof Limits;

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
}

export const NO_LIMITS: Limits = { turns: null, tokens: null, usd: null, wall_s: null };

/** Merge overrides (CLI flags) onto the configured limits; an explicit null removes a limit. */
export function mergeLimits(base: Limits, over: Partial<Limits> = {}): Limits {
  return {
    turns: over.turns !== undefined ? over.turns : base.turns,
    tokens: over.tokens !== undefined ? over.tokens : base.tokens,
    usd: over.usd !== undefined ? over.usd : base.usd,
    wall_s: over.wall_s !== undefined ? over.wall_s : base.wall_s,
  };
}

const ORDER: LimitName[] = ['turns', 'tokens', 'usd', 'wall_s'];

/** The first limit reached (used >= max), or null when another model call is allowed. */
export function checkBudget(limits: Limits, used: Usage): BudgetStop | null {
  for (const limit of ORDER) {
    const max = limits[limit];
    if (max !== null && used[limit] >= max) return { limit, used: round(used[limit], limit), max };
  }
  return null;
}

function round(v: number, limit: LimitName): number {
  return limit === 'usd' ? Math.round(v * 10_000) / 10_000 : limit === 'wall_s' ? Math.round(v * 100) / 100 : v;
}

export function describeStop(s: BudgetStop): string {
  switch (s.limit) {
    case 'turns':
      return `turn budget reached: ${s.used} of ${s.max} model turns used`;
    case 'tokens':
      return `token budget reached: ${s.used.toLocaleString('en-US')} of ${s.max.toLocaleString('en-US')} tokens used`;
    case 'usd':
      return `dollar budget reached: $${s.used.toFixed(4)} of $${s.max.toFixed(2)} spent`;
    case 'wall_s':
      return `wall-time budget reached: ${s.used.toFixed(0)} s of ${s.max} s`;
    default:
      return assertNever(s.limit, 'limit');
  }
}
