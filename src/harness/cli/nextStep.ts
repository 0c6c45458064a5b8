// The line `kite run` prints after a run that did not end done: what the person can do next, as
// commands they can paste. Without it a failed feature looks locked (the next `kite run` skips it:
// only todo and in-progress features are picked up) and the only hint is in --help.
import { basename, relative } from 'node:path';
import { assertNever } from '../protocol/events';
import type { RunSummary } from '../run';
import { shellQuote as quote } from '../protocol/shellQuote';

/** `dir` is the project folder as the person typed it (undefined: the current folder). */
export function nextStep(s: RunSummary, dir: string | undefined): string | null {
  const at = dir ? ` ${quote(dir)}` : '';
  const id = quote(s.feature);
  // `kite diagnose` resolves a bare run id from the current folder only; elsewhere give the path.
  const log = dir ? quote(relative(process.cwd(), s.logPath) || s.logPath) : basename(s.logPath, '.jsonl');
  const why = `kite diagnose ${log} explains it`;
  const rerun = `kite run${at} --feature ${id}`;
  const retry = `${rerun} retries it`;
  const reset = `kite reset ${id}${at} puts it back to todo`;
  switch (s.outcome) {
    case 'done':
      return null;
    case 'cancelled':
      return `Next: kite run${at} picks ${s.feature} up again (it is still in progress); kite timeline ${log} shows how far it got.`;
    case 'unverified':
      return `Next: give the gate something to run — a check in .kite/config.json "checks" (e.g. "checks": ["npm test"]) or a "verify" command on ${s.feature} in kite-progress.json — then ${rerun}.`;
    case 'budget_exceeded':
      return `Next: ${why}; ${retry} with a larger limit (--max-turns, --max-tokens, --max-usd); ${reset}.`;
    case 'gate_failed':
    case 'stuck':
    case 'error':
    case 'refused':
    case 'context_exceeded':
      return `Next: ${why}; ${retry}; ${reset}.`;
    default:
      return assertNever(s.outcome, 'outcome');
  }
}
