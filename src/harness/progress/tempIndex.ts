// Kite's commit is assembled in an index of its own (GIT_INDEX_FILE, inside the git folder): HEAD
// plus exactly the files the run commits. The person's index — what they staged before or during
// the run — is never written while staging; after the commit only the committed paths are set to
// the new HEAD there, so `git status` shows them clean. The temporary index never outlives the call.
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { GitError, runGit as git, withIndexFile } from './runGit';

export function inTempIndex(root: string, commit: () => string): string {
  const file = resolve(root, git(root, ['rev-parse', '--git-path', `kite-commit-${process.pid}.index`]).trim());
  // The person's index is updated after the commit: when another git holds it, do not commit at all.
  const lock = resolve(root, git(root, ['rev-parse', '--git-path', 'index.lock']).trim());
  if (existsSync(lock)) throw new GitError('commit_failed', `git commit failed: ${lock} exists (another git process is using the index; if none is, remove the file)`);
  const before = headOf(root);
  try {
    const sha = withIndexFile(file, () => {
      git(root, before === null ? ['read-tree', '--empty'] : ['read-tree', before]);
      return commit();
    });
    const committed = git(root, ['diff-tree', '-r', '-z', '--no-commit-id', '--name-only', '--no-renames', ...(before === null ? ['--root'] : []), sha]).split('\0').filter(Boolean);
    if (committed.length) git(root, ['reset', '-q', sha, '--', ...committed.map((p) => `:(top,literal)${p}`)]);
    return sha;
  } finally {
    rmSync(file, { force: true });
    rmSync(`${file}.lock`, { force: true });
  }
}

function headOf(root: string): string | null {
  try {
    return git(root, ['rev-parse', '--verify', '-q', 'HEAD']).trim() || null;
  } catch {
    return null;
  }
}
