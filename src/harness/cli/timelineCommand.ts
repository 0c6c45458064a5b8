// `kite timeline <run id | LOG>` — one row per model turn, tool call and gate, then how the run ended.
// Streams: each event is folded and its row printed as it is read, so no event array is held and a
// 1M-event log prints in memory bounded by its longest line (issue 17).
import { resolveRunLog } from '../events/logFiles';
import { streamLog } from '../events/reader';
import { TimelineFormatter } from '../events/timeline';
import { applyEvent, initialRunState, type RunState } from '../protocol/reducer';
import type { LogFormat } from '../events/reader';
import { parseArgs, UsageError } from './args';
import type { Command } from './commands';
import { reportError } from './reportCommands';
import { stdio, type Out } from './output';

/** Rows are written in chunks of about this many characters: one write per row would dominate. */
const CHUNK_CHARS = 1 << 16;

const USAGE = 'usage: kite timeline <run id | LOG>\n\nPrints the timeline of one run: model turns, tool calls, gates and the end. A run id is looked up in the log folder of the current project (log_dir). Reads logs of the original Kite too.';

export async function timelineMain(argv: string[], out: Out = stdio): Promise<number> {
  try {
    const args = parseArgs(argv, [], 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const log = args.positionals[0];
    if (!log) throw new UsageError('which log? give a run id or the path of a .jsonl run log');
    const path = resolveRunLog(log, process.cwd());
    // The timeline shows no conversation sizes: the fold skips the context tally (5% of a big log).
    const s = initialRunState({ conversation: false, contextTally: false });
    const formatter = new TimelineFormatter();
    let rows: string[] = [];
    let chars = 0;
    const { problems, format } = await streamLog(path, (e) => {
      applyEvent(s, e);
      const row = formatter.row(e);
      if (row === null) return;
      rows.push(row);
      chars += row.length + 1;
      if (chars >= CHUNK_CHARS) {
        out.out(rows.join('\n'));
        rows = [];
        chars = 0;
      }
    }, { validation: 'structural' });
    if (rows.length) out.out(rows.join('\n'));
    for (const p of problems) out.err(`kite: ${path}: ${p.message} (skipped)`);
    out.out(timelineTail(s, format));
    return 0;
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}

/** The last line: how the run ended (or where it stopped), from the fold of its log. */
export function timelineTail(s: RunState, format: LogFormat): string {
  const tail = s.outcome
    ? `${s.meta?.feature ?? '?'}: ${s.outcome.status} in ${s.turns} turns, ${s.tokens.total.toLocaleString('en-US')} tokens, $${s.cost_usd.toFixed(4)}${s.outcome.commit ? `. Commit ${s.outcome.commit.slice(0, 7)}` : ''}.`
    : `${s.meta?.feature ?? '?'}: ${s.paused ? `paused for approval (${s.paused.pending.join(', ')})` : 'unfinished'} after ${s.turns} turns — continue with kite resume ${s.meta?.run ?? ''}`.trimEnd();
  return `${tail}${format === 'python-kite' ? ' (original Kite log)' : ''}`;
}

export const timelineCommand: Command = { name: 'timeline', summary: 'print the timeline of a run log', run: (argv) => timelineMain(argv) };
