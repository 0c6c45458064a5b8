// `kite diagnose <run id | LOG>` — why a run ended the way it did (see events/diagnose.ts). --json for tools.
import { diagnose, formatDiagnosis } from '../events/diagnose';
import { resolveRunLog } from '../events/logFiles';
import { formatFlags, parseArgs, UsageError, type FlagSpec } from './args';
import { readForReport, reportError } from './reportCommands';
import { stdio, type Out } from './output';

const FLAGS: FlagSpec[] = [{ name: 'json', type: 'bool', help: 'print the findings as JSON' }];
const USAGE = `usage: kite diagnose <run id | LOG> [--json]\n\nExplains a run: repeated gate failures and their common cause, refusals, budget stops, stuck loops, divergences.\n\n${formatFlags(FLAGS)}`;

export async function diagnoseMain(argv: string[], out: Out = stdio): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, 1);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const log = args.positionals[0];
    if (!log) throw new UsageError('which log? give a run id or the path of a .jsonl run log');
    const d = diagnose((await readForReport(resolveRunLog(log, process.cwd()), out)).events);
    out.out(args.flags.json ? JSON.stringify(d, null, 2) : formatDiagnosis(d));
    return 0;
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}
