// `kite timeline <run id | LOG>` — one row per model turn, tool call and gate, then how the run ended.
// Streams: each event's row is printed as it is read (and folded when the last line needs it), so no
// event array is held and a 1M-event log prints in memory bounded by its longest line (issue 17). A big log is read on two
// threads when asked (events/timelineSplit.ts): same rows, same messages, same exit code.
import { resolveRunLog } from '../events/logFiles';
import { LogRangeReader, openLogFile } from '../events/reader';
import { SKIPPED_BY_TIMELINE, TimelineFormatter } from '../events/timeline';
import { foldForTail, timelineTail } from '../events/timelineTail';
import { planSplit, SPLIT_MIN_BYTES, startSplitWorker } from '../events/timelineSplit';
import { initialRunState } from '../protocol/reducer';
import { parseArgs, UsageError } from './args';
import { reportError } from './reportCommands';
import { stdio, type Out } from './output';

/** Rows are written in chunks of about this many characters: one write per row would dominate. */
const CHUNK_CHARS = 1 << 16;

const USAGE = 'usage: kite timeline <run id | LOG>\n\nPrints the timeline of one run: model turns, tool calls, gates and the end. A run id is looked up in the log folder of the current project (log_dir). Reads logs of the original Kite too.';

export interface TimelineRunOptions {
  /** Logs from this size on are read on two threads (default: only with KITE_TIMELINE_THREADS=2). */
  splitMinBytes?: number;
  /** Told how a split read went: the worker's part was used, or read here (and why). */
  onSplit?: (used: boolean, why: string) => void;
}

export async function timelineMain(argv: string[], out: Out = stdio, opts: TimelineRunOptions = {}): Promise<number> {
  try {
    const args = parseArgs(argv, [], 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const log = args.positionals[0];
    if (!log) throw new UsageError('which log? give a run id or the path of a .jsonl run log');
    const path = resolveRunLog(log, process.cwd());
    // Folded for the last line only (events/timelineTail.ts): no conversation, no context tally.
    const s = initialRunState({ conversation: false, contextTally: false });
    const formatter = new TimelineFormatter();
    let rows: string[] = [];
    let chars = 0;
    const flush = () => {
      if (rows.length) out.out(rows.join('\n'));
      rows = [];
      chars = 0;
    };
    const reader = new LogRangeReader(path, (e) => {
      foldForTail(s, e);
      const row = formatter.row(e);
      if (row === null) return;
      rows.push(row);
      chars += row.length + 1;
      if (chars >= CHUNK_CHARS) flush();
    }, { validation: 'structural', skip: SKIPPED_BY_TIMELINE });
    const fh = await openLogFile(path);
    try {
      // Two threads only when asked (KITE_TIMELINE_THREADS=2): on this project's busy 2-core machine
      // the worker did not win measurably (README, "Reading big logs"); an idle machine may differ.
      const minBytes = opts.splitMinBytes ?? (process.env.KITE_TIMELINE_THREADS === '2' ? SPLIT_MIN_BYTES : Number.POSITIVE_INFINITY);
      const split = await planSplit(fh, path, (await fh.stat()).size, minBytes);
      const worker = split ? startSplitWorker(split) : null;
      let read = false;
      try {
        await reader.read(fh, 0, split ? split.start : Number.POSITIVE_INFINITY);
        read = true;
      } finally {
        if (worker && (!read || reader.count === 0)) worker.cancel(); // no events so far: one reader says what the file is
      }
      if (split && worker) {
        const part = reader.count > 0 ? await worker.result : { ok: false as const, why: 'no event before the split' };
        opts.onSplit?.(part.ok, part.ok ? '' : part.why);
        // Asked for two threads: say why it was one (the output is the same either way).
        if (!part.ok && process.env.KITE_TIMELINE_THREADS === '2') out.err(`kite: ${path}: read on one thread: ${part.why}`);
        if (part.ok) {
          flush();
          if (part.rows) out.out(part.rows);
          for (const e of part.tail) foldForTail(s, e);
        } else await reader.read(fh, split.start, Number.POSITIVE_INFINITY); // the worker found something: read its part here
      }
    } finally {
      await fh.close();
    }
    flush();
    const { problems, format } = reader.finish();
    for (const p of problems) out.err(`kite: ${path}: ${p.message} (skipped)`);
    out.out(timelineTail(s, format));
    return 0;
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}
