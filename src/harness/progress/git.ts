// The few git operations Kite needs, through the git binary (real git, no library).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { sha256 } from '../tools/hash';
import { GitError, runGit as git } from './runGit';
import { inTempIndex } from './tempIndex';
import { notTheRunsWork, type RunRecord } from './commitScope';
import type { CommitSecrets } from '../secrets/secretGuard';
import { describeHits, findSecretsInStaged } from './secretScan';

export { addGitSecretNames, GitError, type GitErrorCode } from './runGit';

function gitError(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  return (err.stderr || err.message || String(e)).trim().split('\n').slice(-3).join(' ');
}

export function isGitRepo(root: string): boolean {
  try {
    return git(root, ['rev-parse', '--is-inside-work-tree']).trim() === 'true';
  } catch (e) {
    if (e instanceof GitError) throw e; // git itself cannot be used safely: say so, not "no repository"
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

/**
 * What identifies the repository across clones and moves: its root commit(s), sorted (a history
 * merged from several roots has more than one). Null before the first commit.
 */
export function repoIdentity(root: string): string | null {
  try {
    const roots = git(root, ['rev-list', '--max-parents=0', 'HEAD']).split('\n').filter(Boolean).sort();
    return roots.length ? roots.join(' ') : null;
  } catch {
    return null;
  }
}

/** True when git tracks `path` (a file committed or staged in the repository of `root`). */
export function isTracked(root: string, path: string): boolean {
  try {
    return git(root, ['ls-files', '--', path]).trim() !== '';
  } catch {
    return false;
  }
}

/** True when `path` is a file in commit `sha`. */
export function existsAtCommit(root: string, sha: string, path: string): boolean {
  try {
    git(root, ['cat-file', '-e', `${sha}:${path}`]);
    return true;
  } catch {
    return false;
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

/** Operations git leaves half-done, by the file or folder that marks them (per worktree). */
const IN_PROGRESS: { path: string; what: string; fix: string }[] = [
  { path: 'rebase-merge', what: 'a rebase', fix: 'finish or abort the rebase (git rebase --continue / --abort)' },
  { path: 'rebase-apply/applying', what: 'a git am', fix: 'finish or abort it (git am --continue / --abort)' },
  { path: 'rebase-apply', what: 'a rebase', fix: 'finish or abort the rebase (git rebase --continue / --abort)' },
  { path: 'MERGE_HEAD', what: 'a merge', fix: 'finish or abort the merge (git commit / git merge --abort)' },
  { path: 'CHERRY_PICK_HEAD', what: 'a cherry-pick', fix: 'finish or abort the cherry-pick (git cherry-pick --continue / --abort)' },
  { path: 'REVERT_HEAD', what: 'a revert', fix: 'finish or abort the revert (git revert --continue / --abort)' },
  { path: 'BISECT_LOG', what: 'a bisect', fix: 'end the bisect (git bisect reset)' },
];

/**
 * Why committing on this checkout would be wrong, or null: an operation in progress (Kite's
 * commit would land in its middle) or a detached HEAD (the commit would be on no branch).
 */
export function repoStateProblem(root: string): string | null {
  // --git-path: the right folder in a linked worktree too (one line each, relative to root).
  let paths: string[];
  try {
    paths = git(root, ['rev-parse', ...IN_PROGRESS.flatMap((s) => ['--git-path', s.path])]).split('\n');
  } catch (e) {
    throw new GitError('not_a_repo', `${root} is not inside a git repository (${gitError(e)})`);
  }
  const found = IN_PROGRESS.find((_, i) => existsSync(resolve(root, paths[i])));
  if (found) return `${found.what} is in progress in ${root}, so Kite did not run (its commit would land in the middle of it); ${found.fix}, or run with --worktree`;
  if (gitBranch(root) === null) {
    return `HEAD is detached in ${root} (no branch is checked out), so Kite did not run (its commit would be on no branch); check out a branch (git switch <branch>), or run with --worktree`;
  }
  return null;
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
 * `scope`: the run's record; changed files it does not account for are left out (commitScope.ts)
 * and listed in scope.leftOut. The commit is built in a temporary index: the person's own index
 * (their staged hunks) stays as it was, except that the committed files now match HEAD there.
 */
export function commitAll(
  root: string,
  message: string,
  excludeDirs: string[] = [],
  secrets: CommitSecrets | ReadonlyMap<string, string> = new Map(),
  keep: ReadonlyMap<string, string | null> = new Map(),
  scope?: CommitScope,
): string {
  return inTempIndex(root, () => stageAndCommit(root, message, excludeDirs, secrets, keep, scope));
}

/** What the commit may hold, and what it left out (path relative to the workspace, and why). */
export interface CommitScope {
  record: RunRecord;
  leftOut: { path: string; why: string }[];
}

function stageAndCommit(
  root: string,
  message: string,
  excludeDirs: string[],
  secrets: CommitSecrets | ReadonlyMap<string, string>,
  keep: ReadonlyMap<string, string | null>,
  scope: CommitScope | undefined,
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
  if (scope) leaveOutUnrecorded(root, scope);
  // Known values and key shapes, in text and binary files (secretScan.ts).
  const hits = findSecretsInStaged(root, secrets);
  if (hits.length) {
    // Unstage only: every change stays in the work tree for the person to clean up.
    git(root, ['reset', '-q']);
    const where = describeHits(hits);
    throw new GitError('secret_in_commit', `nothing was committed because ${where}; remove the secret, then commit the work yourself`);
  }
  return commitStaged(root, message);
}

/** Commits what is staged (hooks off, see runGit.ts) and returns the new HEAD. */
function commitStaged(root: string, message: string): string {
  try {
    git(root, ['commit', '-q', '--no-verify', '-m', message]);
  } catch (e) {
    throw new GitError('commit_failed', `git commit failed: ${gitError(e)}`);
  }
  const sha = gitHead(root);
  if (!sha) throw new GitError('commit_failed', 'git commit left no HEAD');
  return sha;
}

/** Unstage the staged files the run's record does not account for, and say which and why. */
function leaveOutUnrecorded(root: string, scope: CommitScope): void {
  const top = git(root, ['rev-parse', '--show-toplevel']).trim();
  const staged = git(root, ['diff', '--cached', '--name-only', '-z', '--no-renames']).split('\0').filter(Boolean);
  const out: string[] = [];
  for (const p of staged) {
    const ws = relative(root, join(top, p)).replace(/\\/g, '/');
    const why = notTheRunsWork(root, ws, scope.record);
    if (why === null) continue;
    scope.leftOut.push({ path: ws, why });
    out.push(`:(top,literal)${p}`);
  }
  if (out.length) git(root, ['reset', '-q', '--', ...out]);
}

/**
 * Commits exactly `paths` (relative to root) as they are in the work tree, nothing else: the setup
 * files "Kite: Initialize" wrote, so a first run does not stop at a dirty tree. Built in a
 * temporary index, so what the person staged stays staged and out of this commit. Returns the sha.
 */
export function commitPaths(root: string, paths: readonly string[], message: string): string {
  if (paths.length === 0) throw new GitError('commit_failed', 'nothing to commit: no file was named');
  return inTempIndex(root, () => {
    try {
      git(root, ['add', '--', ...paths.map((p) => `:(literal)${p}`)]);
    } catch (e) {
      throw new GitError('commit_failed', `git commit failed: ${gitError(e)}`);
    }
    return commitStaged(root, message);
  });
}

/** Files changed by one commit (for tests and the summary). */
export function commitFiles(root: string, sha: string): string[] {
  return git(root, ['show', '--no-ext-diff', '--no-textconv', '--name-only', '--pretty=format:', sha]).split('\n').filter(Boolean);
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
