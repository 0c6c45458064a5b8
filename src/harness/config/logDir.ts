// Where `log_dir` may point: a folder inside the workspace, never the workspace itself and never
// inside .git. The sandbox mounts it read-only and tools may not write there, so a log folder
// elsewhere (or in git's own data) would be unguarded, or would guard the wrong thing.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';

const HINT = 'the log folder must be a folder inside the workspace (default ".kite/runs")';

/** What is wrong with `rel` (a path relative to the workspace), or null. */
function placeProblem(shown: string, rel: string, via: string): string | null {
  if (rel === '' || rel === '.') return `${shown} is the workspace itself; ${HINT}`;
  const parts = rel.split(/[\\/]+/);
  if (parts[0] === '..' || isAbsolute(rel)) return `${shown} ${via}outside the workspace; ${HINT}`;
  if (parts.some((p) => p.toLowerCase() === '.git')) return `${shown} ${via}inside .git, where git keeps its own data; ${HINT}`;
  return null;
}

/** The real path of p: its longest existing ancestor resolved through symlinks, plus the rest. */
function realPathOf(p: string): string {
  const rest: string[] = [];
  let cur = p;
  while (!existsSync(cur) && dirname(cur) !== cur) {
    rest.unshift(basename(cur));
    cur = dirname(cur);
  }
  try {
    return join(realpathSync(cur), ...rest);
  } catch {
    return p; // unreadable: the lexical check stands
  }
}

/**
 * The problem with a log_dir value, or null. Without `root` only what the text alone shows
 * ("..", ".git", "."); with it also absolute paths elsewhere and symlinks that lead out.
 */
export function logDirProblem(logDir: string, root?: string): string | null {
  const shown = JSON.stringify(logDir);
  if (root === undefined) return isAbsolute(logDir) ? null : placeProblem(shown, normalize(logDir).replace(/[\\/]+$/, ''), 'is ');
  const abs = resolve(root, logDir);
  const lexical = placeProblem(shown, relative(resolve(root), abs), 'is ');
  if (lexical) return lexical;
  const real = realPathOf(abs);
  return placeProblem(shown, relative(realPathOf(resolve(root)), real), `leads through a symlink to ${real}, `);
}

