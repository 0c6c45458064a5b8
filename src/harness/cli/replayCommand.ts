// `kite run --replay <run id | LOG> [DIR] [--worktree] [--live-mcp] [--on-divergence stop|continue]` — replay a recorded
// run: model replies and approval answers from the log, tools/policy/gate live. Prints the
// replay's timeline, the first divergence (if any) and whether the gate sequence was reproduced.
// Exit 0 only when nothing diverged and the outcome is the recorded one.
import { resolve } from 'node:path';
import { resolveRunLog } from '../events/logFiles';
import { LogReadError, readLog } from '../events/reader';
import { formatTimeline } from '../events/timeline';
import { gitHead } from '../progress/git';
import type { KiteEvent } from '../protocol/events';
import { ReplayError, replayRun, type ReplayOptions } from '../replay/replayRun';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { stdio, type Out } from './output';
import { reportFailure } from './reportFailure';
import { UnattendedHost } from './unattendedHost';

const FLAGS: FlagSpec[] = [
  { name: 'replay', type: 'string', value: 'LOG', help: 'the recorded run to replay: its log, or its run id in the log folder of DIR' },
  { name: 'worktree', type: 'bool', help: 'replay in a scratch git worktree checked out at the recorded starting commit' },
  { name: 'live-mcp', type: 'bool', help: 'start the approved MCP servers and call them for each recorded MCP call; a different answer is a divergence (default: recorded results, no server starts)' },
  { name: 'on-divergence', type: 'string', value: 'stop|continue', help: 'at the first difference from the recording: stop (default) or continue' },
  // The original Kite took `--unattended --replay` together; a replay never asks anyway (answers come from the log).
  { name: 'unattended', type: 'bool', help: 'accepted for compatibility: a replay never asks' },
];

const USAGE = `usage: kite run --replay LOG [DIR] [options]\n\nReplays a recorded run against the work tree in DIR (default: the current folder). Never commits, never writes the progress file.\n\n${formatFlags(FLAGS)}`;

const gateRow = (events: readonly KiteEvent[]) => events.flatMap((e) => (e.kind === 'gate' ? [e.passed ? 'PASSED' : 'FAILED'] : [])).join(', ') || 'none';

export async function replayMain(argv: string[], out: Out = stdio, extra: Partial<ReplayOptions> = {}): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const log = args.flags.replay;
    if (typeof log !== 'string') throw new UsageError('--replay needs the log of the run to replay');
    const on = args.flags['on-divergence'] ?? 'stop';
    if (on !== 'stop' && on !== 'continue') throw new UsageError(`--on-divergence must be stop or continue, got "${String(on)}"`);
    const root = resolve(args.positionals[0] ?? '.');
    const logPath = resolveRunLog(log, root, process.cwd());
    const recorded = (await readLog(logPath)).events;
    const start = recorded[0]?.kind === 'session_start' ? recorded[0] : null;
    const head = args.flags.worktree ? null : gitHead(root);
    if (start?.git_head && head && head !== start.git_head) {
      out.err(`kite: note: the work tree is at ${head.slice(0, 7)} but the recording started at ${start.git_head.slice(0, 7)}; differences will show as divergences (--worktree replays at the recorded commit)`);
    }
    const s = await replayRun({ log: logPath, root, worktree: args.flags.worktree === true, onDivergence: on, liveMcp: args.flags['live-mcp'] === true, ...extra }, new UnattendedHost());
    const live = (await readLog(s.logPath)).events;
    out.out(formatTimeline(live));
    if (s.divergence) out.out(`divergence: ${s.divergence.message}${s.divergences > 1 ? ` (+${s.divergences - 1} more)` : ''}${on === 'stop' ? '; replay stopped there' : ''}`);
    const same = gateRow(recorded) === gateRow(live);
    out.out(`gates: recorded ${gateRow(recorded)}; replay ${gateRow(live)}${same ? ' (reproduced)' : ' (different)'}`);
    out.out(`${s.feature} replay: ${s.outcome} (recorded: ${s.recordedOutcome ?? 'unfinished'}) in ${s.turns} turns. Log ${s.logPath}`);
    return !s.divergence && s.outcome === s.recordedOutcome ? 0 : 1;
  } catch (e) {
    if (e instanceof ReplayError || e instanceof LogReadError) {
      out.err(`kite: ${e.message}`);
      return 2;
    }
    return reportFailure(e, out, USAGE);
  }
}
