// Per-turn figures the charts draw: tokens by kind, cost (and its running total), durations.
// Appending an event touches only the last turn; the charts read buckets of 2^k turns so they
// never draw more than MAX_BARS bars, whatever the length of the run.
import type { KiteEvent } from '../../src/harness/protocol/events';
import { judgeCallsOf } from '../../src/harness/protocol/totals';

export const MAX_BARS = 240;

export interface TurnPoint {
  turn: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  cost: number;
  /** Cost of the run up to and including this turn. */
  cumCost: number;
  modelMs: number;
  toolMs: number;
  gateMs: number;
}

export interface Bucket extends TurnPoint {
  /** First turn index (into `turns`) of the bucket, and one past its last. */
  from: number;
  to: number;
}

export class TurnSeries {
  readonly turns: TurnPoint[] = [];
  budgetUsd: number | null = null;
  /** Smallest turn index changed since the last `takeDirty()` (Infinity: nothing changed). */
  private dirty = Infinity;

  get totalCost(): number {
    return this.turns.length ? (this.turns[this.turns.length - 1] as TurnPoint).cumCost : 0;
  }

  /** Feeds one event; O(1). */
  add(e: KiteEvent): void {
    switch (e.kind) {
      case 'session_start':
        this.budgetUsd = e.limits.usd;
        break;
      case 'resumed':
        this.budgetUsd = e.limits.usd;
        break;
      case 'model': {
        const prev = this.totalCost;
        this.turns.push({
          turn: e.turn,
          input: e.input_tokens,
          cacheRead: e.cache_read_input_tokens,
          cacheWrite: e.cache_creation_input_tokens,
          output: e.output_tokens,
          cost: e.cost_usd,
          cumCost: prev + e.cost_usd,
          modelMs: e.ms,
          toolMs: 0,
          gateMs: 0,
        });
        this.mark(this.turns.length - 1);
        break;
      }
      case 'tool': {
        const last = this.turns[this.turns.length - 1];
        if (last) {
          last.toolMs += e.ms;
          this.mark(this.turns.length - 1);
        }
        break;
      }
      case 'gate': {
        const last = this.turns[this.turns.length - 1];
        if (last) {
          for (const c of e.checks) last.gateMs += c.ms;
          // A judged check's call is paid for: it joins the cost of the turn that claimed done.
          const judged = judgeCallsOf(e).reduce((sum, j) => sum + j.cost_usd, 0);
          last.cost += judged;
          last.cumCost += judged;
          this.mark(this.turns.length - 1);
        }
        break;
      }
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
      case 'session_end':
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

  private mark(i: number): void {
    if (i < this.dirty) this.dirty = i;
  }

  /** Returns and clears the smallest changed turn index (Infinity when nothing changed). */
  takeDirty(): number {
    const d = this.dirty;
    this.dirty = Infinity;
    return d;
  }
}

/** Turns per bar: the smallest power of two that keeps the bar count ≤ maxBars. */
export function bucketSize(turns: number, maxBars = MAX_BARS): number {
  let size = 1;
  while (turns > size * maxBars) size *= 2;
  return size;
}

/** Sums of bucket `b` (turns [b*size, (b+1)*size)); cumCost is the running total at its end. */
export function bucketAt(turns: readonly TurnPoint[], b: number, size: number): Bucket {
  const from = b * size;
  const to = Math.min(turns.length, from + size);
  const out: Bucket = { from, to, turn: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, cost: 0, cumCost: 0, modelMs: 0, toolMs: 0, gateMs: 0 };
  for (let i = from; i < to; i++) {
    const p = turns[i] as TurnPoint;
    out.input += p.input;
    out.cacheRead += p.cacheRead;
    out.cacheWrite += p.cacheWrite;
    out.output += p.output;
    out.cost += p.cost;
    out.modelMs += p.modelMs;
    out.toolMs += p.toolMs;
    out.gateMs += p.gateMs;
    out.cumCost = p.cumCost;
    out.turn = p.turn;
  }
  return out;
}

export function bucketTokens(b: Bucket): number {
  return b.input + b.cacheRead + b.cacheWrite + b.output;
}

export function bucketMs(b: Bucket): number {
  return b.modelMs + b.toolMs + b.gateMs;
}

/** A round axis maximum ≥ v: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k. */
export function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
