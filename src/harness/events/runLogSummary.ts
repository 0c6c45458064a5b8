// A cheap summary of one run log for the Runs view: the first line (session_start) and the last
// few kilobytes (session_end, whose totals are the fold's). Only a run that never ended and whose
// log is longer than the tail is folded whole (the reducer), so its totals are the log's, as in
// the status bar, the timeline and the debugger. No 'vscode' here: unit-tested in plain Node.
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { applyEvent, initialRunState } from '../protocol/reducer';
import { tokensOf } from '../protocol/totals';
import { streamLog } from './reader';

export const TAIL_BYTES = 64 * 1024;

export interface RunLogSummary {
  run: string; // file name without .jsonl
  feature: string;
  title: string;
  model: string;
  startedAt: string | null;
  /** An outcome from session_end; 'open' when the log has no end (running, or interrupted). */
  outcome: string;
  turns: number;
  tokens: number;
  costUsd: number;
  commit: string | null;
  /** Ids of approvals requested and never answered (an interrupted run waiting on a person). */
  pendingApprovals: string[];
  summary: string;
}

const Loose = z.looseObject({ kind: z.string() });
const Start = z.looseObject({ feature: z.string().optional(), title: z.string().optional(), model: z.string().optional(), started_at: z.string().optional() });
const End = z.looseObject({
  status: z.string(),
  turns: z.number().optional(),
  tokens: z.number().optional(),
  cost_usd: z.number().optional(),
  commit: z.string().nullable().optional(),
  summary: z.string().optional(),
});
const ModelE = z.looseObject({
  turn: z.number().optional(),
  input_tokens: z.number().default(0),
  output_tokens: z.number().default(0),
  cache_creation_input_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
  cost_usd: z.number().optional(),
});
const Id = z.looseObject({ id: z.string() });

function parseLine(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null;
  try {
    const v: unknown = JSON.parse(line);
    return Loose.safeParse(v).success ? (v as Record<string, unknown>) : null;
  } catch {
    return null; // a torn last line or a partial first line of the tail
  }
}

/** Summarizes from the head line and the tail text (which may start mid-line). */
export function summarizeLog(file: string, head: string, tail: string, tailIsWhole: boolean): RunLogSummary {
  const run = basename(file).replace(/\.jsonl$/, '');
  const start = Start.safeParse(parseLine(head.split('\n')[0] ?? '') ?? {});
  const s = start.success ? start.data : {};
  const out: RunLogSummary = {
    run,
    feature: s.feature ?? run.replace(/^\d{8}-\d{6}-/, ''),
    title: s.title ?? '',
    model: s.model ?? '',
    startedAt: s.started_at ?? null,
    outcome: 'open',
    turns: 0,
    tokens: 0,
    costUsd: 0,
    commit: null,
    pendingApprovals: [],
    summary: '',
  };
  const lines = tail.split('\n');
  if (!tailIsWhole) lines.shift(); // the tail starts mid-line
  const pending = new Set<string>();
  for (const line of lines) {
    const e = parseLine(line);
    if (!e) continue;
    switch (e.kind) {
      case 'model': {
        const m = ModelE.parse(e);
        out.turns = Math.max(out.turns, m.turn ?? out.turns + 1);
        out.tokens += tokensOf(m);
        out.costUsd += m.cost_usd ?? 0;
        break;
      }
      case 'approval_request': {
        const r = Id.safeParse(e);
        if (r.success) pending.add(r.data.id);
        break;
      }
      case 'approval': {
        const r = Id.safeParse(e);
        if (r.success) pending.delete(r.data.id);
        break;
      }
      case 'session_end': {
        const end = End.safeParse(e);
        if (!end.success) break;
        out.outcome = end.data.status;
        out.turns = end.data.turns ?? out.turns;
        out.tokens = end.data.tokens ?? out.tokens;
        out.costUsd = end.data.cost_usd ?? out.costUsd;
        out.commit = end.data.commit ?? null;
        out.summary = end.data.summary ?? '';
        pending.clear();
        break;
      }
      default:
        break;
    }
  }
  out.pendingApprovals = [...pending];
  return out;
}

/** Reads the first line and the last TAIL_BYTES of a log. */
export async function readLogSummary(file: string): Promise<RunLogSummary> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const headBuf = Buffer.alloc(Math.min(size, 256 * 1024));
    await fh.read(headBuf, 0, headBuf.length, 0);
    const headText = headBuf.toString('utf8');
    const nl = headText.indexOf('\n');
    const head = nl >= 0 ? headText.slice(0, nl) : headText;
    const from = Math.max(0, size - TAIL_BYTES);
    const tailBuf = Buffer.alloc(size - from);
    await fh.read(tailBuf, 0, tailBuf.length, from);
    const summary = summarizeLog(file, head, tailBuf.toString('utf8'), from === 0);
    return summary.outcome === 'open' && from > 0 ? { ...summary, ...(await foldedTotals(file)) } : summary;
  } finally {
    await fh.close();
  }
}

/** An unfinished run's totals and waiting approvals, from the fold of the whole log. */
async function foldedTotals(file: string): Promise<Pick<RunLogSummary, 'turns' | 'tokens' | 'costUsd' | 'pendingApprovals'>> {
  const s = initialRunState({ conversation: false });
  await streamLog(file, (e) => applyEvent(s, e));
  return { turns: s.turns, tokens: s.tokens.total, costUsd: s.cost_usd, pendingApprovals: Object.keys(s.pendingApprovals) };
}
