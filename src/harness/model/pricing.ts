// The one per-model price table (USD per million tokens, list prices). Cache writes (5-minute TTL)
// cost 1.25x input and cache reads 0.1x input. Overridable per model with config `prices`.
// Budgets, reports and the status bar all price usage through priceOf/costOf here.
import { z } from 'zod';
import type { Usage } from '../protocol/content';

export const PriceSchema = z.object({
  input: z.number().nonnegative(), // $ per MTok
  output: z.number().nonnegative(),
  cache_write: z.number().nonnegative().optional(), // default input * CACHE_WRITE_MULTIPLIER
  cache_read: z.number().nonnegative().optional(), // default input * CACHE_READ_MULTIPLIER
});
export type Price = z.infer<typeof PriceSchema>;
export const PriceTableSchema = z.record(z.string(), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export const CACHE_WRITE_MULTIPLIER = 1.25;
export const CACHE_READ_MULTIPLIER = 0.1;

/** Exact ids first; family prefixes (longest match wins) cover dated snapshots like -20251001. */
export const DEFAULT_PRICES: PriceTable = {
  'claude-opus-5-5': { input: 5, output: 25 },
  'claude-opus-5': { input: 5, output: 25 },
  'claude-opus-4-8': { input: 5, output: 25 },
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-5-5': { input: 3, output: 15 },
  'claude-sonnet-5': { input: 3, output: 15 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-5-5': { input: 1, output: 5 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
};

/** The current default model (claude-sonnet-4-5 reaches end of life on 2026-11-30). */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** Price for a model id; scripted/unknown models fall back to the default model's price. */
export function priceOf(model: string, overrides: PriceTable = {}): Price {
  const id = model.replace(/^anthropic:/, '');
  const table = { ...DEFAULT_PRICES, ...overrides };
  if (table[id]) return table[id];
  const family = Object.keys(table)
    .filter((k) => id.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return table[family ?? DEFAULT_MODEL] ?? { input: 3, output: 15 };
}

/** Billed dollars for one reply's usage (cache-aware). */
export function costOf(usage: Usage, price: Price): number {
  const perTok = (perMTok: number) => perMTok / 1_000_000;
  const write = price.cache_write ?? price.input * CACHE_WRITE_MULTIPLIER;
  const read = price.cache_read ?? price.input * CACHE_READ_MULTIPLIER;
  return (
    usage.input_tokens * perTok(price.input) +
    usage.output_tokens * perTok(price.output) +
    (usage.cache_creation_input_tokens ?? 0) * perTok(write) +
    (usage.cache_read_input_tokens ?? 0) * perTok(read)
  );
}

/** What the same usage would cost at list input price with no caching (for reports). */
export function uncachedCostOf(usage: Usage, price: Price): number {
  const input = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  return (input * price.input + usage.output_tokens * price.output) / 1_000_000;
}
