// `kite export otel LOG` (OTLP JSON spans) and `kite export prometheus [DIR|LOG…]` (text format).
import { resolve } from 'node:path';
import { findLogs } from '../events/logFiles';
import { toOtlp } from '../events/otel';
import { PromMetrics } from '../events/prometheus';
import { parseArgs, UsageError } from './args';
import { forEachRunForReport, readForReport, reportError } from './reportCommands';
import { stdio, type Out } from './output';

const USAGE =
  'usage: kite export otel LOG\n       kite export prometheus [DIR|LOG…]\n\n' +
  'otel: the run as OpenTelemetry GenAI spans (OTLP JSON, for an OTLP/HTTP collector).\n' +
  'prometheus: metrics over the runs in DIR (default: this project) in the text exposition format.';

export async function exportMain(argv: string[], out: Out = stdio, cwd = process.cwd()): Promise<number> {
  try {
    const [what, ...rest] = argv;
    if (what === undefined || what === '--help' || what === '-h') {
      (what === undefined ? out.err : out.out)(USAGE);
      return what === undefined ? 2 : 0;
    }
    const args = parseArgs(rest, [], what === 'otel' ? 1 : Number.MAX_SAFE_INTEGER);
    switch (what) {
      case 'otel': {
        const log = args.positionals[0];
        if (!log) throw new UsageError('which log? give the path of a .jsonl run log');
        out.out(JSON.stringify(toOtlp((await readForReport(resolve(cwd, log), out)).events)));
        return 0;
      }
      case 'prometheus': {
        const m = new PromMetrics();
        await forEachRunForReport(findLogs(args.positionals, cwd), out, (_path, result) => m.addRun(result.events));
        out.out(m.format());
        return 0;
      }
      default:
        throw new UsageError(`unknown export format "${what}" (otel or prometheus)`);
    }
  } catch (e) {
    return reportError(e, out, USAGE);
  }
}
