// `kite cost`: tokens by kind, list-price dollars (every input token at the full input price, no
// cache) and billed dollars (cache writes at 1.25x, reads at 0.1x), per run, per feature, total.
// Dollars are computed from the logged usage with the one price table (model/pricing.ts), so old
// Python-Kite logs (which recorded no cost) are priced the same way. Each model is listed with its
// provider; another provider's model the table does not list keeps the cost its run logged (priced
// by that project's config `prices`), or is "price unknown" when the run could not price it.
import { costOf, knownPriceOf, providerOf, uncachedCostOf, type PriceTable } from '../model/pricing';
import type { KiteEvent } from '../protocol/events';
import { addTokens, emptyTokenTotals, judgeCallsOf, type TokenTotals } from '../protocol/totals';
import { observationTokens } from '../protocol/contextTally';
import { foldEvents } from '../protocol/reducer';


export interface RunCost {
  run: string;
  log: string;
  feature: string;
  model: string;
  /** Who answered: "anthropic", "openai", "ollama"…, "script" for a scripted run. */
  provider: string;
  /** A model of the run has no known price: its dollars are not counted (shown as "price unknown"). */
  price_unknown: boolean;
  /** Some token counts are Kite's estimates (VS Code's language models report no usage): shown with "~". */
  tokens_estimated: boolean;
  outcome: string; // 'unfinished' when the log has no session_end
  turns: number;
  tokens: TokenTotals;
  list_usd: number;
  billed_usd: number;
  replay: boolean; // replays re-use recorded replies: listed, never counted in totals
  /** Tokens tool results put into the conversation (estimated, corrected by reported usage). */
  observation_tokens: number;
  observation_limit: number | null; // budget.observation_tokens the run started with
  compactions: number;
  /** Judged checks' model calls (their tokens and dollars are in the totals above). */
  judge_calls: number;
}

export interface CostGroup {
  runs: number;
  tokens: TokenTotals;
  list_usd: number;
  billed_usd: number;
}

export interface ModelGroup extends CostGroup {
  provider: string;
  model: string;
  price_unknown: boolean;
  tokens_estimated: boolean;
}

export interface CostReport {
  runs: RunCost[];
  features: Record<string, CostGroup>;
  /** Keyed by the answering model id, with its provider. */
  models: Record<string, ModelGroup>;
  total: CostGroup;
}

const group = (): CostGroup => ({ runs: 0, tokens: emptyTokenTotals(), list_usd: 0, billed_usd: 0 });

export function costOfRun(events: readonly KiteEvent[], log: string, prices: PriceTable = {}): RunCost {
  const r: RunCost = { run: '', log, feature: '?', model: '', provider: '', price_unknown: false, tokens_estimated: false, outcome: 'unfinished', turns: 0, tokens: emptyTokenTotals(), list_usd: 0, billed_usd: 0, replay: false, observation_tokens: 0, observation_limit: null, compactions: 0, judge_calls: 0 };
  for (const e of events) {
    if (!r.run) r.run = e.run;
    if (e.kind === 'session_start') {
      r.feature = e.feature;
      r.model = e.model.replace(/^anthropic:/, '');
      r.provider = providerOf(e.model);
      r.replay = e.replay_of !== null;
    } else if (e.kind === 'model') {
      const usage = { input_tokens: e.input_tokens, output_tokens: e.output_tokens, cache_creation_input_tokens: e.cache_creation_input_tokens, cache_read_input_tokens: e.cache_read_input_tokens };
      const price = knownPriceOf(e.model, prices);
      r.turns = Math.max(r.turns, e.turn);
      r.model = e.model;
      r.provider = providerOf(e.model);
      addTokens(r.tokens, e);
      if (e.estimated) r.tokens_estimated = true;
      if (price) {
        r.list_usd += uncachedCostOf(usage, price);
        r.billed_usd += costOf(usage, price);
      } else if (e.price_unknown) r.price_unknown = true;
      else {
        // Priced at run time by the project's config `prices` (a local model at 0, say).
        r.list_usd += e.cost_usd;
        r.billed_usd += e.cost_usd;
      }
    } else if (e.kind === 'compaction' && e.summary) {
      // A compaction's summary is a model call: billed like a reply (at the cost logged when no price is listed).
      const price = knownPriceOf(e.summary.model, prices);
      addTokens(r.tokens, e.summary);
      r.list_usd += price ? uncachedCostOf(e.summary, price) : e.summary.cost_usd;
      r.billed_usd += price ? costOf(e.summary, price) : e.summary.cost_usd;
    } else if (e.kind === 'gate') {
      // A judged check's call is a model call too, at the cost logged when it answered (priced by the model that answered).
      for (const j of judgeCallsOf(e)) {
        addTokens(r.tokens, j);
        if (j.price_unknown) r.price_unknown = true;
        r.list_usd += j.cost_usd;
        r.billed_usd += j.cost_usd;
        r.judge_calls++;
      }
    } else if (e.kind === 'session_end') r.outcome = e.status;
  }
  const s = foldEvents(events, { conversation: false }); // the one count of observation tokens
  r.observation_tokens = observationTokens(s.context);
  r.observation_limit = s.start?.limits.observation_tokens ?? null;
  r.compactions = s.compactions.length;
  return r;
}

function add(g: CostGroup, r: RunCost): void {
  g.runs++;
  for (const k of ['input', 'output', 'cache_write', 'cache_read', 'total'] as const) g.tokens[k] += r.tokens[k];
  g.list_usd += r.list_usd;
  g.billed_usd += r.billed_usd;
}

export function costReport(runs: RunCost[]): CostReport {
  const report: CostReport = { runs, features: {}, models: {}, total: group() };
  for (const r of runs) {
    if (r.replay) continue;
    add((report.features[r.feature] ??= group()), r);
    const m = (report.models[r.model] ??= { ...group(), provider: r.provider, model: r.model.replace(/^[a-z](?:[a-z-]*[a-z])?:/, ''), price_unknown: false, tokens_estimated: false });
    add(m, r);
    m.price_unknown ||= r.price_unknown;
    m.tokens_estimated ||= r.tokens_estimated;
    add(report.total, r);
  }
  return report;
}

const n = (v: number) => v.toLocaleString('en-US');
const usd = (v: number) => `$${v.toFixed(4)}`;
const PRICE_UNKNOWN = 'price unknown';
/** A token count Kite estimated (the model's tokenizer), not one the provider reported. */
const est = (v: number, estimated: boolean) => (estimated ? `~${n(v)}` : n(v));

function table(rows: string[][], right: Set<number>): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}

export function formatCostReport(report: CostReport): string {
  const head = ['RUN', 'FEATURE', 'OUTCOME', 'TURNS', 'INPUT', 'OUTPUT', 'CACHE WRITE', 'CACHE READ', 'TOTAL', 'LIST $', 'BILLED $'];
  const right = new Set([3, 4, 5, 6, 7, 8, 9, 10]);
  const rows = report.runs.map((r) => [
    r.run + (r.replay ? ' (replay, not counted)' : ''),
    r.feature,
    r.outcome,
    String(r.turns),
    est(r.tokens.input, r.tokens_estimated),
    est(r.tokens.output, r.tokens_estimated),
    n(r.tokens.cache_write),
    n(r.tokens.cache_read),
    est(r.tokens.total, r.tokens_estimated),
    r.price_unknown ? PRICE_UNKNOWN : usd(r.list_usd),
    r.price_unknown ? PRICE_UNKNOWN : usd(r.billed_usd),
  ]);
  const featureRows = Object.entries(report.features)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([f, g]) => [f, `${g.runs} run${g.runs === 1 ? '' : 's'}`, '', '', n(g.tokens.input), n(g.tokens.output), n(g.tokens.cache_write), n(g.tokens.cache_read), n(g.tokens.total), usd(g.list_usd), usd(g.billed_usd)]);
  const t = report.total;
  const totalRow = ['TOTAL', `${t.runs} run${t.runs === 1 ? '' : 's'}`, '', '', n(t.tokens.input), n(t.tokens.output), n(t.tokens.cache_write), n(t.tokens.cache_read), n(t.tokens.total), usd(t.list_usd), usd(t.billed_usd)];
  const out = [table([head, ...rows], right), '', 'Per feature:', table([['FEATURE', 'RUNS', '', '', 'INPUT', 'OUTPUT', 'CACHE WRITE', 'CACHE READ', 'TOTAL', 'LIST $', 'BILLED $'], ...featureRows, totalRow], right)];
  const models = Object.values(report.models).sort((a, b) => a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model));
  if (models.length) {
    const modelRows = models.map((m) => [m.provider, m.model, String(m.runs), est(m.tokens.total, m.tokens_estimated), m.price_unknown ? PRICE_UNKNOWN : usd(m.billed_usd)]);
    out.push('', 'Per model:', table([['PROVIDER', 'MODEL', 'RUNS', 'TOKENS', 'BILLED $'], ...modelRows], new Set([2, 3, 4])));
  }
  if (report.runs.some((r) => r.tokens_estimated))
    out.push('', '~ marks estimated token counts: VS Code\'s language models (vscode-lm:) report no usage, so Kite counted the tokens with the model\'s tokenizer.');
  if (models.some((m) => m.price_unknown)) out.push('', 'A model without a known price is not counted in the dollars; give it one in .kite/config.json "prices".');
  out.push('', 'Observation tokens (what tool results put into the conversation):');
  for (const r of report.runs) {
    const limit = r.observation_limit !== null ? ` of ${n(r.observation_limit)} (budget.observation_tokens)` : '';
    const compacted = r.compactions ? ` · ${r.compactions} compaction${r.compactions === 1 ? '' : 's'}` : '';
    out.push(`  ${r.run}: ~${n(r.observation_tokens)}${limit}${compacted}`);
  }
  const judged = report.runs.filter((r) => r.judge_calls > 0);
  if (judged.length) {
    out.push('', 'Judged checks (separate model calls, counted in the tokens and dollars above):');
    for (const r of judged) out.push(`  ${r.run}: ${r.judge_calls} judge call${r.judge_calls === 1 ? '' : 's'}`);
  }
  const saved = t.list_usd - t.billed_usd;
  if (t.list_usd > 0) {
    const pct = `${((Math.abs(saved) / t.list_usd) * 100).toFixed(0)}% of the list price`;
    out.push('', saved >= 0 ? `Prompt caching saved ${usd(saved)} (${pct}).` : `Prompt caching cost ${usd(-saved)} more than it saved (${pct}): cache writes were not read back enough.`);
  }
  return out.join('\n');
}
