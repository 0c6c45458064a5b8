// The few git operations Kite needs, through the git binary (real git, no library).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { sha256 } from '../tools/hash';
import { findSecretsInDiff } from './secretScan';

export type GitErrorCode = 'not_a_repo' | 'dirty' | 'commit_failed' | 'secret_in_commit' | 'worktree_failed' | 'git_failed';

export class GitError extends Error {
  constructor(
    readonly code: GitErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

function gitError(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  return (err.stderr || err.message || String(e)).trim().split('\n').slice(-3).join(' ');
}

export function isGitRepo(root: string): boolean {
  try {
    return git(root, ['rev-parse', '--is-inside-work-tree']).trim() === 'true';
  } catch {
    return false;
  }
}

/** Full sha of HEAD, or null (not a repo, or no commit yet). */
export function gitHead(root: string): string | null {
  try {
    return git(root, ['rev-parse', '--verify', '-q', 'HEAD']).trim() || null;
  } catch {
    return null;
  }
}

export function gitBranch(root: string): string | null {
  try {
    const b = git(root, ['symbolic-ref', '--short', '-q', 'HEAD']).trim();
    return b || null;
  } catch {
    return null;
  }
}

/** Changed or untracked paths (repo-relative), ignoring anything under the `ignore` folders. */
export function dirtyPaths(root: string, ignore: string[] = []): string[] {
  let out: string;
  try {
    out = git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  } catch (e) {
    throw new GitError('git_failed', `git status failed in ${root}: ${gitError(e)}`);
  }
  const top = git(root, ['rev-parse', '--show-toplevel']).trim();
  const skip = ignore.map((p) => relative(top, resolve(root, p)).replace(/\\/g, '/').replace(/\/?$/, '/'));
  const paths: string[] = [];
  const entries = out.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!e) continue;
    const status = e.slice(0, 2);
    const path = e.slice(3);
    if (status.startsWith('R') || status.startsWith('C')) i++; // the next entry is the rename source
    if (skip.some((s) => (path + '/').startsWith(s))) continue;
    paths.push(path);
  }
  return paths;
}

// The log folder carries a `.gitignore` of `*`; the explicit exclude in commitAll is a second line of defence.
/** Repo-relative path → sha256 of its content now (null: absent). What --allow-dirty found. */
export function snapshotPaths(root: string, paths: readonly string[]): Map<string, string | null> {
  const top = git(root, ['rev-parse', '--show-toplevel']).trim();
  const out = new Map<string, string | null>();
  for (const p of paths) {
    try {
      out.set(p, sha256(readFileSync(join(top, p))));
    } catch {
      out.set(p, null); // deleted, or a folder (submodule)
    }
  }
  return out;
}

/**
 * Stage every change in the work tree except the log folder and commit it. Returns the new sha.
 * `keep`: changes the person had before the run (--allow-dirty); those the run left untouched
 * stay uncommitted, so their work in progress is not committed under the feature's name.
 */
export function commitAll(
  root: string,
  message: string,
  excludeDirs: string[] = [],
  secrets: ReadonlyMap<string, string> = new Map(),
  keep: ReadonlyMap<string, string | null> = new Map(),
): string {
  const excludes = excludeDirs
    .map((d) => relative(root, resolve(root, d)).replace(/\\/g, '/'))
    .filter((r) => r && !r.startsWith('..') && !isAbsolute(r)) // a folder outside the work tree needs no exclude
    .map((r) => `:(exclude)${r}`);
  try {
    git(root, ['add', '-A', '--', '.', ...excludes]);
  } catch (e) {
    throw new GitError('commit_failed', `git commit failed: ${gitError(e)}`);
  }
  const untouched = [...snapshotPaths(root, [...keep.keys()])].filter(([p, h]) => keep.get(p) === h).map(([p]) => `:(top,literal)${p}`);
  if (untouched.length) git(root, ['reset', '-q', '--', ...untouched]);
  const hits = secrets.size ? findSecretsInDiff(git(root, ['diff', '--cached', '--no-color', '--no-ext-diff', '-U0']), secrets) : [];
  if (hits.length) {
    // Unstage only: every change stays in the work tree for the person to clean up.
    git(root, ['reset', '-q']);
    const where = hits.map((h) => `${h.file} holds the value of ${h.variable}`).join('; ');
    throw new GitError('secret_in_commit', `nothing was committed because ${where}; remove the secret, then commit the work yourself`);
  }
  try {
    git(root, ['commit', '-q', '--no-verify', '-m', message]);
  } catch (e) {
    throw new GitError('commit_failed', `git commit failed: ${gitError(e)}`);
  }
  const sha = gitHead(root);
  if (!sha) throw new GitError('commit_failed', 'git commit left no HEAD');
  return sha;
}

/** Files changed by one commit (for tests and the summary). */
export function commitFiles(root: string, sha: string): string[] {
  return git(root, ['show', '--name-only', '--pretty=format:', sha]).split('\n').filter(Boolean);
}

/**
 * A new worktree on branch `kite/<id>` next to the repository (`<repo>-kite-<id>`), or the
 * existing one when it is already there. Returns its absolute path.
 */
export function addWorktree(root: string, featureId: string): string {
  const top = git(root, ['rev-parse', '--show-toplevel']).trim();
  const branch = `kite/${featureId}`;
  const path = join(dirname(top), `${basename(top)}-kite-${featureId.replace(/[^\w.-]/g, '_')}`);
  if (existsSync(path)) return path;
  let hasBranch = true;
  try {
    git(root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]);
  } catch {
    hasBranch = false;
  }
  try {
    git(root, hasBranch ? ['worktree', 'add', '-q', path, branch] : ['worktree', 'add', '-q', '-b', branch, path]);
  } catch (e) {
    throw new GitError('worktree_failed', `git worktree add failed: ${gitError(e)}`);
  }
  // Keep the same relative position of the workspace inside the repository.
  return join(path, relative(top, root));
}
