// A cheap summary of one run log for the Runs view: the first line (session_start) and the last
// few kilobytes (session_end, whose totals are the fold's). Only a run that never ended and whose
// log is longer than the tail is folded for its counts (as the reducer counts them), so its totals
// are the log's, as in the status bar, the timeline and the debugger; once, and then from where
// the last fold stopped (OpenLogTotals). No 'vscode' here: unit-tested in plain Node.
import { open as openFile, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { EVENT_KINDS, type EventKind } from '../protocol/events';
import { initialRunState, type RunState } from '../protocol/reducer';
import { tokensOf } from '../protocol/totals';
import { LogRangeReader } from './reader';
import { KindBytes } from './envelopePeek';
import { foldForTail, TAIL_KINDS } from './timelineTail';

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
  /** An unfinished log read from its head and tail only: its totals are still being counted. */
  counting?: true;
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
      case 'approval_request':
      case 'approval':
      case 'tool': {
        const r = Id.safeParse(e);
        if (r.success) trackPending(pending, e.kind, r.data.id);
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

/**
 * Reads the first line and the last TAIL_BYTES of a log. An unfinished run longer than that is
 * folded for its totals; `open` keeps those folds between calls (a view that asks again and again).
 * `open` null: not folded, the summary says its totals are `counting` (the view shows a big log at
 * once and its totals when the fold is done).
 */
export async function readLogSummary(file: string, open: OpenLogTotals | null = new OpenLogTotals()): Promise<RunLogSummary> {
  const fh = await openFile(file, 'r');
  try {
    const { size, ino } = await fh.stat();
    const headBuf = Buffer.alloc(Math.min(size, 256 * 1024));
    await fh.read(headBuf, 0, headBuf.length, 0);
    const headText = headBuf.toString('utf8');
    const nl = headText.indexOf('\n');
    const head = nl >= 0 ? headText.slice(0, nl) : headText;
    const from = Math.max(0, size - TAIL_BYTES);
    const tailBuf = Buffer.alloc(size - from);
    await fh.read(tailBuf, 0, tailBuf.length, from);
    const summary = summarizeLog(file, head, tailBuf.toString('utf8'), from === 0);
    if (summary.outcome !== 'open' || from === 0) return summary;
    return open ? { ...summary, ...(await open.totals(file, fh, size, ino)) } : { ...summary, counting: true };
  } finally {
    await fh.close();
  }
}

/** Approvals asked and not answered, as the reducer keeps them: a request adds its call; an approval
 *  or the call's result (a call cancelled or refused while it waited) answers it. */
function trackPending(pending: Set<string>, kind: 'approval_request' | 'approval' | 'tool', id: string): void {
  if (kind === 'approval_request') pending.add(id);
  else pending.delete(id);
}

type OpenTotals = Pick<RunLogSummary, 'turns' | 'tokens' | 'costUsd' | 'pendingApprovals'>;

/** One unfinished log folded up to `pos` (the start of a line): the reader keeps line numbers, chain and references. */
interface OpenFold {
  ino: number;
  pos: number;
  reader: LogRangeReader;
  state: RunState;
  pending: Set<string>;
}

/**
 * The totals of unfinished runs (turns, tokens and cost as the reducer counts them, approvals
 * asked and not answered), each log folded once and then only from where its last fold stopped.
 * A running log grows a line per event and the Runs view asks again at every change: folding it
 * whole each time cost the extension host's loop 81 ms a refresh at 10,000 events and 328 ms at
 * 50,000, several times a second (issue 17). Complete lines only: a line being written is folded once it ends.
 * A log replaced or cut shorter is folded again from its start, and so is one rewritten in place:
 * its first new line then does not go on from the last one folded (a chain break, or not a line).
 */
export class OpenLogTotals {
  private readonly folds = new Map<string, OpenFold>();
  /** The call in progress per log: two refreshes at once must not fold the same lines twice. */
  private readonly busy = new Map<string, Promise<unknown>>();
  /** Bytes folded over all calls (what a refresh costs: the bench and tests read it). */
  bytesFolded = 0;

  /** The totals of the unfinished log `file`, open as `fh`, `size` bytes long now, on inode `ino`. */
  totals(file: string, fh: FileHandle, size: number, ino: number): Promise<OpenTotals> {
    const mine = (this.busy.get(file) ?? Promise.resolve()).then(() => this.foldOn(file, fh, size, ino));
    const settled = mine.catch(() => undefined);
    this.busy.set(file, settled);
    void settled.then(() => this.busy.get(file) === settled && this.busy.delete(file));
    return mine;
  }

  private async foldOn(file: string, fh: FileHandle, size: number, ino: number): Promise<OpenTotals> {
    let f = this.folds.get(file);
    if (!f || f.ino !== ino || size < f.pos) {
      f = newFold(file, ino);
      this.folds.set(file, f);
    }
    const end = await afterLastNewline(fh, f.pos, size);
    if (end > f.pos) {
      const firstLine = f.reader.linesRead + 1;
      const known = f.reader.problemsSoFar.length;
      await f.reader.read(fh, f.pos, end);
      this.bytesFolded += end - f.pos;
      if (f.pos > 0 && f.reader.problemsSoFar.slice(known).some((p) => p.line === firstLine)) {
        // The first new line does not go on from what was folded (not a line, or its chain link
        // names another line): the log was rewritten in place. Fold it again from its start.
        f = newFold(file, ino);
        this.folds.set(file, f);
        await f.reader.read(fh, 0, end);
        this.bytesFolded += end;
      }
      f.pos = end;
    }
    return { turns: f.state.turns, tokens: f.state.tokens.total, costUsd: f.state.cost_usd, pendingApprovals: [...f.pending] };
  }

  /** Whether `file` has been folded (or is being folded) since it was last listed. */
  has(file: string): boolean {
    return this.folds.has(file) || this.busy.has(file);
  }

  /** Forgets the folds of logs not in `files` (ended, deleted, no longer listed). */
  retain(files: ReadonlySet<string>): void {
    for (const file of this.folds.keys()) if (!files.has(file)) this.folds.delete(file);
  }
}

/** What the fold of an unfinished log reads: the counts' kinds, and the approvals asked and answered. */
const COUNTED: ReadonlySet<EventKind> = new Set<EventKind>([...TAIL_KINDS, 'approval_request', 'approval', 'tool']);
const NOT_COUNTED = EVENT_KINDS.filter((k) => !COUNTED.has(k));

function newFold(file: string, ino: number): OpenFold {
  // The counts only (events/timelineTail.ts): no call table, conversation or files to keep.
  const state = initialRunState({ conversation: false, contextTally: false });
  const pending = new Set<string>();
  // Lines of the other kinds, and a call's result while no approval waits (the longest lines: their
  // output), are read for their envelope only (events/envelopePeek.ts): counted and chained, not parsed.
  const skip = new KindBytes(NOT_COUNTED, { tool: () => pending.size === 0 });
  const reader = new LogRangeReader(
    file,
    (e) => {
      foldForTail(state, e);
      if (e.kind === 'approval_request' || e.kind === 'approval' || e.kind === 'tool') trackPending(pending, e.kind, e.id);
    },
    { validation: 'structural', skip },
  );
  return { ino, pos: 0, reader, state, pending };
}

/** Where the last complete line in [from, size) ends (after its newline), or `from` when none does. */
async function afterLastNewline(fh: FileHandle, from: number, size: number): Promise<number> {
  const buf = Buffer.allocUnsafe(Math.min(TAIL_BYTES, Math.max(0, size - from)));
  for (let end = size; end > from; ) {
    const start = Math.max(from, end - buf.length);
    const { bytesRead } = await fh.read(buf, 0, end - start, start);
    const nl = buf.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl !== -1) return start + nl + 1;
    end = start;
  }
  return from;
}
