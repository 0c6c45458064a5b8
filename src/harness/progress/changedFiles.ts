// Which files differ from a commit (work tree vs `base`, untracked included), through Kite's own git.
// The gate asks it whether a gate-defining file changed during the run (base: session_start's git_head).
import { runGit } from './runGit';

/** Repo-relative paths changed since `base` or untracked, made relative to `root` (the workspace). */
export function changedSince(root: string, base: string): string[] {
  // --relative: paths relative to the workspace, and only those inside it.
  const diff = runGit(root, ['diff', '--name-only', '-z', '--no-renames', '--relative', base, '--']);
  const untracked = runGit(root, ['ls-files', '-z', '--others', '--exclude-standard']);
  return [...new Set([...diff.split('\0'), ...untracked.split('\0')].filter(Boolean))];
}
