// `kite export prometheus DIR`: metrics over many runs in the Prometheus text exposition format:
// runs by outcome, tool calls and errors by tool, a tool latency histogram, tokens by kind, cost.
import { costOf, knownPriceOf, type PriceTable } from '../model/pricing';
import type { KiteEvent } from '../protocol/events';
import { addTokens, emptyTokenTotals, judgeCallsOf } from '../protocol/totals';

export const DURATION_BUCKETS_S = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

interface Histogram {
  buckets: number[]; // cumulative counts per DURATION_BUCKETS_S
  sum: number;
  count: number;
}

export class PromMetrics {
  readonly runs = new Map<string, number>();
  readonly toolCalls = new Map<string, number>();
  readonly toolErrors = new Map<string, number>();
  readonly toolDuration = new Map<string, Histogram>();
  readonly tokens = emptyTokenTotals();
  readonly gates = new Map<string, number>();
  costUsd = 0;
  modelCalls = 0;

  constructor(private readonly prices: PriceTable = {}) {}

  /** Adds one run's events. Replays are skipped: their model replies were not paid for. */
  addRun(events: readonly KiteEvent[]): void {
    const start = events.find((e) => e.kind === 'session_start');
    if (start?.kind === 'session_start' && start.replay_of !== null) return;
    let outcome = 'unfinished';
    for (const e of events) {
      switch (e.kind) {
        case 'model': {
          this.modelCalls++;
          addTokens(this.tokens, e);
          // Another provider's model without a listed price: what the run logged (0 when unknown), never Claude's price.
          const price = knownPriceOf(e.model, this.prices);
          this.costUsd += price
            ? costOf({ input_tokens: e.input_tokens, output_tokens: e.output_tokens, cache_creation_input_tokens: e.cache_creation_input_tokens, cache_read_input_tokens: e.cache_read_input_tokens }, price)
            : e.cost_usd;
          break;
        }
        case 'tool': {
          inc(this.toolCalls, e.name);
          if (e.is_error) inc(this.toolErrors, e.name);
          const h = this.toolDuration.get(e.name) ?? { buckets: DURATION_BUCKETS_S.map(() => 0), sum: 0, count: 0 };
          const s = e.ms / 1000;
          DURATION_BUCKETS_S.forEach((le, i) => {
            if (s <= le) h.buckets[i]++;
          });
          h.sum += s;
          h.count++;
          this.toolDuration.set(e.name, h);
          break;
        }
        case 'gate': {
          inc(this.gates, String(e.passed));
          // Judged checks' calls are model calls: their tokens and dollars count (not as replies).
          for (const j of judgeCallsOf(e)) {
            addTokens(this.tokens, j);
            this.costUsd += j.cost_usd; // priced when it answered, by the model that answered
          }
          break;
        }
        case 'session_end':
          outcome = e.status;
          break;
        case 'approval_request':
        case 'approval':
        case 'budget_stop':
        case 'divergence':
        case 'intent':
        case 'model_retry':
        case 'paused':
        case 'policy':
        case 'progress':
        case 'proposed':
        case 'resumed':
        case 'session_start':
        case 'user':
        case 'warning':
        case 'hook':
        case 'person_edit':
        case 'restore':
        case 'compaction':
        default:
          break;
      }
    }
    inc(this.runs, outcome);
  }

  format(): string {
    const out: string[] = [];
    const family = (name: string, type: 'counter' | 'histogram', help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('kite_runs_total', 'counter', 'Kite runs by outcome (unfinished: no session_end, e.g. paused or crashed).');
    for (const [k, v] of sorted(this.runs)) out.push(`kite_runs_total{outcome="${esc(k)}"} ${v}`);
    family('kite_tool_calls_total', 'counter', 'Tool calls by tool (including refused and failed calls).');
    for (const [k, v] of sorted(this.toolCalls)) out.push(`kite_tool_calls_total{tool="${esc(k)}"} ${v}`);
    family('kite_tool_errors_total', 'counter', 'Tool calls whose result was an error, by tool.');
    for (const [k, v] of sorted(this.toolErrors)) out.push(`kite_tool_errors_total{tool="${esc(k)}"} ${v}`);
    family('kite_tool_duration_seconds', 'histogram', 'Tool call duration in seconds, by tool.');
    for (const [k, h] of sorted(this.toolDuration)) {
      const l = `tool="${esc(k)}"`;
      DURATION_BUCKETS_S.forEach((le, i) => out.push(`kite_tool_duration_seconds_bucket{${l},le="${le}"} ${h.buckets[i]}`));
      out.push(`kite_tool_duration_seconds_bucket{${l},le="+Inf"} ${h.count}`, `kite_tool_duration_seconds_sum{${l}} ${round(h.sum)}`, `kite_tool_duration_seconds_count{${l}} ${h.count}`);
    }
    family('kite_tokens_total', 'counter', 'Model tokens by kind (input, output, cache_write, cache_read).');
    for (const k of ['input', 'output', 'cache_write', 'cache_read'] as const) out.push(`kite_tokens_total{kind="${k}"} ${this.tokens[k]}`);
    family('kite_model_calls_total', 'counter', 'Model replies received.');
    out.push(`kite_model_calls_total ${this.modelCalls}`);
    family('kite_cost_usd_total', 'counter', 'Billed cost in US dollars (cache-aware list prices).');
    out.push(`kite_cost_usd_total ${round(this.costUsd)}`);
    family('kite_gate_attempts_total', 'counter', 'Gate attempts by verdict.');
    for (const [k, v] of sorted(this.gates)) out.push(`kite_gate_attempts_total{passed="${k}"} ${v}`);
    return out.join('\n') + '\n';
  }
}

function inc(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

function sorted<V>(m: Map<string, V>): [string, V][] {
  return [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Label value escaping of the exposition format: backslash, double quote, newline. */
function esc(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
