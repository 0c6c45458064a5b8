// Shared by the report commands (timeline, cost, diagnose, export): read a log, say on stderr
// which lines were skipped and why, and turn typed errors into exit codes.
import { LogReadError, readLog, type ReadResult } from '../events/reader';
import { UsageError } from './args';
import { describeError, type Out } from './output';

/** Reads a log for a report; unreadable lines are reported on stderr, never fatal. */
export async function readForReport(path: string, out: Out): Promise<ReadResult> {
  const r = await readLog(path, { validation: 'structural' }); // reports act on nothing: see protocol/parse.ts
  for (const p of r.problems) out.err(`kite: ${path}: ${p.message} (skipped)`);
  return r;
}

/**
 * For reports over many logs: each run is read, handed to `each` and let go before the next is read,
 * so memory stays flat in the number of runs (issue 17). A log that cannot be read at all is named on
 * stderr and skipped; an empty log is no run. Returns how many runs were handed over.
 */
export async function forEachRunForReport(paths: readonly string[], out: Out, each: (path: string, result: ReadResult) => void): Promise<number> {
  let runs = 0;
  for (const path of paths) {
    let result: ReadResult;
    try {
      result = await readForReport(path, out);
    } catch (e) {
      if (!(e instanceof LogReadError)) throw e;
      out.err(`kite: skipped: ${e.message}`);
      continue;
    }
    if (!result.events.length) continue;
    runs++;
    each(path, result);
  }
  return runs;
}

/** Exit codes for a report command: 2 for bad usage or an unreadable log, 1 for anything else. */
export function reportError(e: unknown, out: Out, usage: string): number {
  if (e instanceof UsageError) {
    out.err(`kite: ${e.message}`);
    out.err(usage);
    return 2;
  }
  if (e instanceof LogReadError) {
    out.err(`kite: ${e.message}`);
    return 2;
  }
  out.err(`kite: ${describeError(e)}`);
  return 1;
}
