// The run as text, one row per model turn, tool call and gate — the view of the original Kite's
// `timeline`, plus the rows a dependable harness adds (policy denials, budget stops, the end).
import { relative } from 'node:path';
import type { KiteEvent } from '../protocol/events';

const ARGS_WIDTH = 60;

function secs(t: number): string {
  return `${t.toFixed(1)}s`.padStart(8);
}

function n(v: number): string {
  return v.toLocaleString('en-US');
}

/** Compact one-line view of tool arguments: the path or command when there is one. */
export function argsPreview(args: unknown): string {
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const a = args as Record<string, unknown>;
    if (typeof a.command === 'string') return clip(a.command);
    if (typeof a.path === 'string') {
      const extra = Object.keys(a).filter((k) => k !== 'path' && k !== 'content' && k !== 'old_string' && k !== 'new_string');
      const more = typeof a.content === 'string' ? ` (${n(a.content.length)} chars)` : typeof a.old_string === 'string' ? ' (edit)' : '';
      return clip(a.path + more + (extra.length ? ` ${JSON.stringify(Object.fromEntries(extra.map((k) => [k, a[k]])))}` : ''));
    }
  }
  return clip(JSON.stringify(args) ?? '');
}

function clip(s: string, w = ARGS_WIDTH): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > w ? `${one.slice(0, w - 1)}…` : one;
}

export function formatTimeline(events: readonly KiteEvent[]): string {
  const rows: string[] = [];
  const policyById = new Map<string, { decision: string; rule: string }>();
  for (const e of events) {
    switch (e.kind) {
      case 'model': {
        const cache = e.cache_read_input_tokens || e.cache_creation_input_tokens ? ` cache r=${n(e.cache_read_input_tokens)} w=${n(e.cache_creation_input_tokens)}` : '';
        rows.push(`${secs(e.t)}  turn ${String(e.turn).padEnd(3)} ${e.stop.padEnd(9)} in=${n(e.input_tokens)} out=${n(e.output_tokens)}${cache}`);
        break;
      }
      case 'policy':
        policyById.set(e.id, { decision: e.decision, rule: e.rule });
        break;
      case 'tool': {
        const p = policyById.get(e.id);
        const flag = e.error_code === 'denied' ? 'DENY' : e.is_error ? 'ERROR' : 'ok';
        const why = e.error_code === 'denied' && p ? `  [${p.rule}]` : e.is_error && e.error_code ? `  [${e.error_code}]` : '';
        const exit = e.exit_code !== undefined && e.exit_code !== null && e.exit_code !== 0 ? ` → exit ${e.exit_code}` : '';
        rows.push(`${secs(e.t)}    ${flag.padEnd(5)} ${e.name} ${argsPreview(e.args)}${exit}${why}`);
        break;
      }
      case 'gate': {
        const checks = e.checks
          .map((c) => (c.exit_code === 0 && !c.timed_out ? `✓ ${c.command}` : `✗ ${c.command} (${c.timed_out ? 'timed out' : `exit ${c.exit_code ?? 'killed'}`})`))
          .join('  ');
        rows.push(`${secs(e.t)}  gate ${e.passed ? 'PASSED' : 'FAILED'}  ${checks}`);
        break;
      }
      case 'budget_stop':
        rows.push(`${secs(e.t)}  budget stop: ${e.limit} ${e.used} of ${e.max}`);
        break;
      case 'warning':
        if (e.code === 'repetition' || e.code === 'max_tokens') rows.push(`${secs(e.t)}    warn  ${clip(e.message, 80)}`);
        break;
      case 'approval':
        if (e.decision !== 'approve') rows.push(`${secs(e.t)}    ${e.decision === 'deny' ? 'user deny' : 'user edit'}${e.reason ? `: ${clip(e.reason)}` : ''}`);
        break;
      case 'session_end':
        rows.push(`${secs(e.t)}  end  ${e.status}`);
        break;
      default:
        break; // other kinds have no row of their own
    }
  }
  return rows.join('\n');
}

export interface SummaryLine {
  feature: string;
  outcome: string;
  turns: number;
  tokens: number;
  cost_usd: number;
  commit: string | null;
  logPath: string;
  proposals?: string[];
}

/** `F1: done in 7 turns, 9,350 tokens, $0.0412. Commit 1a2b3c4. Log .kite/runs/….jsonl` */
export function formatSummary(s: SummaryLine, cwd = process.cwd()): string {
  const rel = relative(cwd, s.logPath);
  const log = rel && !rel.startsWith('..') ? rel : s.logPath;
  const proposals = s.proposals?.length ? ` Proposed: ${s.proposals.join(', ')}.` : '';
  return `${s.feature}: ${s.outcome} in ${s.turns} turns, ${n(s.tokens)} tokens, $${s.cost_usd.toFixed(4)}. Commit ${s.commit ? s.commit.slice(0, 7) : 'none'}.${proposals} Log ${log}`;
}
