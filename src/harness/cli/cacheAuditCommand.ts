// `kite cache-audit [DIR|LOG…] [--json]` — what invalidated the prompt cache between runs and
// between turns, with the diff of the changed prefix and the dollars it cost (events/cacheAudit.ts).
import { cacheAudit, formatCacheAudit, prefixOfRun, type RunPrefix } from '../events/cacheAudit';
import { findLogs } from '../events/logFiles';
import { formatFlags, parseArgs, type FlagSpec } from './args';
import { forEachRunForReport, reportError } from './reportCommands';
import { stdio, type Out } from './output';

const FLAGS: FlagSpec[] = [{ name: 'json', type: 'bool', help: 'print the audit as JSON' }];
const USAGE = `usage: kite cache-audit [DIR|LOG…] [--json]\n\nFingerprints each run's cached prefix (tools, system prompt, briefing) and lists what changed it between runs (with a diff) and within runs (prefix_changed, compaction), with the dollars each cost.\n\n${formatFlags(FLAGS)}`;

export async function cacheAuditMain(argv: string[], out: Out = stdio, cwd = process.cwd()): Promise<number> {
  try {
    const args = parseArgs(argv, FLAGS, Number.MAX_SAFE_INTEGER);
    if (args.help) {
      out.out(USAGE);
      return 0;
    }
    const logs = findLogs(args.positionals, cwd);
    const prefixes: RunPrefix[] = [];
    await forEachRunForReport(logs, out, (path, result) => {
      const p = prefixOfRun(result.events, path);
      if (p !== null) prefixes.push(p);
    });
    const audit = cacheAudit(prefixes);
    if (args.flags.json) out.out(JSON.stringify(audit, null, 2));
    else out.out(prefixes.length ? formatCacheAudit(audit) : 'No run logs found.');
    return 0;
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}
