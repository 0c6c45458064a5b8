// How a command's error becomes one line on stderr and an exit code. Its own module because it
// names the error classes of config, model, git, progress and the run loop: only commands that can
// throw them load it, never `kite --version` or `kite timeline` (start-up, issue 17).
import { ConfigError } from '../config/config';
import { ModelSpecError } from '../model/index';
import { ModelError } from '../model/model';
import { GitError } from '../progress/git';
import { ProgressError } from '../progress/progressFile';
import { RunError } from '../run';
import { UsageError } from './args';
import { describeError, type Out } from './output';

/** Errors that mean "the request or the project setup is wrong" (exit 2), with their one line. */
export function usageProblem(e: unknown): string | null {
  if (e instanceof UsageError || e instanceof ConfigError || e instanceof ProgressError || e instanceof RunError || e instanceof ModelSpecError || e instanceof GitError) {
    return e.message;
  }
  if (e instanceof ModelError && (e.code === 'script_invalid' || e.code === 'missing_key' || e.code === 'auth')) return e.message;
  return null;
}

/**
 * The end of a command that threw: its one line on stderr and the exit code — 2 for a usage or
 * setup problem (with `usageHint` after a usage error), 1 for anything else.
 */
export function reportFailure(e: unknown, out: Out, usageHint: string): number {
  const problem = usageProblem(e);
  if (problem !== null) {
    out.err(`kite: ${problem}`);
    if (e instanceof UsageError) out.err(usageHint);
    return 2;
  }
  out.err(`kite: ${describeError(e)}`);
  return 1;
}
