// The one per-model price table (USD per million tokens, list prices). Cache writes (5-minute TTL)
// cost 1.25x input and cache reads 0.1x input unless a model lists its own rates (several current
// models read the cache cheaper). Overridable per model with config `prices`.
// Budgets, reports and the status bar all price usage through priceOf/costOf here.
// Source: platform.claude.com model overviews and pricing page (checked 2026-11-29).
import { z } from 'zod';
import type { Usage } from '../protocol/content';

const RatesSchema = z.object({
  input: z.number().nonnegative(), // $ per MTok
  output: z.number().nonnegative(),
  cache_write: z.number().nonnegative().optional(), // default input * CACHE_WRITE_MULTIPLIER
  cache_read: z.number().nonnegative().optional(), // default input * CACHE_READ_MULTIPLIER
});

export const PriceSchema = RatesSchema.extend({
  /** Rates for a request whose prompt (input + cache writes + cache reads) exceeds threshold_tokens;
   *  they then apply to every token of that request, output included (e.g. Haiku 5.5). */
  long_prompt: RatesSchema.extend({ threshold_tokens: z.number().int().positive() }).optional(),
});
export type Price = z.infer<typeof PriceSchema>;
export const PriceTableSchema = z.record(z.string(), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export const CACHE_WRITE_MULTIPLIER = 1.25;
export const CACHE_READ_MULTIPLIER = 0.1;

/**
 * OpenAI (openai.com/api/pricing, standard tier): no charge for cache writes; cached prompt tokens at
 * the listed cached-input rate. Keys carry the provider: a local server's model of the same name is
 * not OpenAI's bill. Local models have no entry: price 0 only via config `prices`.
 * Each alias is listed with the dated snapshots known to cost the same. Nothing else matches: OpenAI
 * names different models by extending an id (gpt-5-pro, gpt-4o-audio-preview cost several times
 * gpt-5 and gpt-4o), and an older snapshot may be dearer (gpt-4o-2024-05-13), so a prefix is no price.
 */
function openAIPrices(): PriceTable {
  const models: [alias: string, price: Price, snapshots: string[]][] = [
    ['gpt-5', { input: 1.25, output: 10, cache_write: 1.25, cache_read: 0.125 }, ['2025-08-07']],
    ['gpt-5-mini', { input: 0.25, output: 2, cache_write: 0.25, cache_read: 0.025 }, ['2025-08-07']],
    ['gpt-5-nano', { input: 0.05, output: 0.4, cache_write: 0.05, cache_read: 0.005 }, ['2025-08-07']],
    ['gpt-4.1', { input: 2, output: 8, cache_write: 2, cache_read: 0.5 }, ['2025-04-14']],
    ['gpt-4.1-mini', { input: 0.4, output: 1.6, cache_write: 0.4, cache_read: 0.1 }, ['2025-04-14']],
    ['gpt-4.1-nano', { input: 0.1, output: 0.4, cache_write: 0.1, cache_read: 0.025 }, ['2025-04-14']],
    ['gpt-4o', { input: 2.5, output: 10, cache_write: 2.5, cache_read: 1.25 }, ['2024-08-06', '2024-11-20']],
    ['gpt-4o-mini', { input: 0.15, output: 0.6, cache_write: 0.15, cache_read: 0.075 }, ['2024-07-18']],
    ['o3', { input: 2, output: 8, cache_write: 2, cache_read: 0.5 }, ['2025-04-16']],
    ['o3-mini', { input: 1.1, output: 4.4, cache_write: 1.1, cache_read: 0.55 }, ['2025-01-31']],
    ['o4-mini', { input: 1.1, output: 4.4, cache_write: 1.1, cache_read: 0.275 }, ['2025-04-16']],
  ];
  const table: PriceTable = { 'openai:gpt-4o-2024-05-13': { input: 5, output: 15, cache_write: 5, cache_read: 5 } }; // no cached-input discount
  for (const [alias, price, snapshots] of models) for (const id of [alias, ...snapshots.map((d) => `${alias}-${d}`)]) table[`openai:${id}`] = price;
  return table;
}

/** Exact ids first; for Claude and config `prices`, family prefixes (longest match wins) cover dated snapshots like -20251001. */
export const DEFAULT_PRICES: PriceTable = {
  'claude-fable-5-1': { input: 10, output: 50, cache_write: 12.5, cache_read: 0.25 },
  'claude-mythos-5-1': { input: 10, output: 50, cache_write: 12.5, cache_read: 0.25 },
  'claude-fable-5': { input: 10, output: 50 },
  'claude-mythos-5': { input: 10, output: 50 },
  'claude-opus-5-5': { input: 4, output: 20, cache_write: 5, cache_read: 0.2 },
  'claude-opus-5': { input: 5, output: 25 },
  'claude-opus-4-8': { input: 5, output: 25 },
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  // Sonnet 5.5 cache reads were cut from 0.20 to 0.10 $/MTok on 2026-10-07.
  'claude-sonnet-5-5': { input: 2, output: 10, cache_write: 2.5, cache_read: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-5-5': {
    input: 0.1,
    output: 0.5,
    cache_write: 0.125,
    cache_read: 0.01,
    long_prompt: { threshold_tokens: 100_000, input: 0.5, output: 2.5, cache_write: 0.625, cache_read: 0.05 },
  },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  ...openAIPrices(),
};

/** The current default model (claude-sonnet-4-5 reaches end of life on 2026-11-30). */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/** Price for a model id; scripted/unknown models fall back to the default model's price. */
export function priceOf(model: string, overrides: PriceTable = {}): Price {
  return listedPrice(model, overrides) ?? { ...DEFAULT_PRICES, ...overrides }[DEFAULT_MODEL] ?? { input: 3, output: 15 };
}

/**
 * The table's entry: the exact id, else the longest family prefix among Claude's entries and the
 * person's own `prices` (another provider's built-in entries match exactly, see openAIPrices); null when none.
 */
function listedPrice(model: string, overrides: PriceTable): Price | null {
  const id = model.replace(/^anthropic:/, '');
  const table = { ...DEFAULT_PRICES, ...overrides };
  if (table[id]) return table[id];
  const family = Object.keys(table)
    .filter((k) => id.startsWith(k) && (k in overrides || !isOtherProvider(k)))
    .sort((a, b) => b.length - a.length)[0];
  return family ? (table[family] ?? null) : null;
}

/** A spec's scheme: "openai", "vscode-lm"… (a bare id has none). */
const SCHEME = /^([a-z](?:[a-z-]*[a-z])?):/;

/** Another provider's model ("openai:…", "ollama:…", "vscode-lm:…"): never priced as Claude. */
export function isOtherProvider(model: string): boolean {
  const scheme = SCHEME.exec(model)?.[1];
  return scheme !== undefined && scheme !== 'anthropic' && scheme !== 'script' && scheme !== 'replay';
}

/** The provider part of a model id: "openai", "ollama"…; a bare id is Anthropic's. */
export function providerOf(model: string): string {
  return SCHEME.exec(model)?.[1] ?? 'anthropic';
}

/** The price, or null for another provider's model the table and config `prices` do not list ("price unknown"). */
export function knownPriceOf(model: string, overrides: PriceTable = {}): Price | null {
  return listedPrice(model, overrides) ?? (isOtherProvider(model) ? null : priceOf(model, overrides));
}

/** Why a run with this model and a dollar budget must not start (its spend cannot be counted), or null. */
export function unknownPriceProblem(model: string, usdLimit: number | null, overrides: PriceTable = {}): string | null {
  if (usdLimit === null || knownPriceOf(model, overrides) !== null) return null;
  return (
    `${model} has no known price, so the dollar budget ($${usdLimit}) cannot be enforced; the run was not started. ` +
    `Add its price to .kite/config.json, e.g. "prices": {"${model}": {"input": 0, "output": 0}} for a local model (USD per million tokens).`
  );
}

const promptTokens = (u: Usage) => u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);

/** The rates that apply to this usage (a long prompt may switch a model to its long-prompt tier). */
function ratesFor(usage: Usage, price: Price): z.infer<typeof RatesSchema> {
  const long = price.long_prompt;
  return long && promptTokens(usage) > long.threshold_tokens ? long : price;
}

/** Billed dollars for one reply's usage (cache-aware). */
export function costOf(usage: Usage, price: Price): number {
  const r = ratesFor(usage, price);
  const perTok = (perMTok: number) => perMTok / 1_000_000;
  const write = r.cache_write ?? r.input * CACHE_WRITE_MULTIPLIER;
  const read = r.cache_read ?? r.input * CACHE_READ_MULTIPLIER;
  return (
    usage.input_tokens * perTok(r.input) +
    usage.output_tokens * perTok(r.output) +
    (usage.cache_creation_input_tokens ?? 0) * perTok(write) +
    (usage.cache_read_input_tokens ?? 0) * perTok(read)
  );
}

/** What the same usage would cost at list input price with no caching (for reports). */
export function uncachedCostOf(usage: Usage, price: Price): number {
  const r = ratesFor(usage, price);
  return (promptTokens(usage) * r.input + usage.output_tokens * r.output) / 1_000_000;
}
