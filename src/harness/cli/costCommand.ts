// `kite cost [DIR|LOG…] [--json]` — tokens by kind, list-price and billed dollars per run, per
// feature and in total. DIR defaults to the current project (its log folder, log_dir).
import { costOfRun, costReport, formatCostReport, type RunCost } from '../events/cost';
import { findLogs } from '../events/logFiles';
import { formatFlags, parseArgs, type FlagSpec } from './args';
import { forEachRunForReport, reportError } from './reportCommands';
import { stdio, type Out } from './output';

const FLAGS: FlagSpec[] = [{ name: 'json', type: 'bool', help: 'print the report as JSON' }];
const USAGE = `usage: kite cost [DIR|LOG…] [--json]\n\nTokens and dollars per run, per feature and in total (list price without caching, and billed with it).\n\n${formatFlags(FLAGS)}`;

export async function costMain(argv: string[], out: Out = stdio, cwd = process.cwd()): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, Number.MAX_SAFE_INTEGER);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const logs = findLogs(args.positionals, cwd);
    const runs: RunCost[] = [];
    await forEachRunForReport(logs, out, (path, result) => runs.push(costOfRun(result.events, path)));
    const report = costReport(runs);
    if (args.flags.json) out.out(JSON.stringify(report, null, 2));
    else out.out(logs.length ? formatCostReport(report) : 'No run logs found.');
    return 0;
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}
