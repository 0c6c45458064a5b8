// Every git command Kite itself runs. The agent's commands can write to the repository (and, with
// the sandbox off, to the rest of the disk), so Kite's own git must not run anything they planted
// there: hooks, an fsmonitor, filter drivers, a `git` early on PATH; and whatever does run (a
// filter from the person's own ~/.gitconfig, git-lfs) never sees Kite's secrets.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { scrubEnv } from '../sandbox/scrubEnv';

/**
 * Config that would run a program during the commands Kite uses (status, add, commit, reset,
 * diff, show, rev-parse, worktree add). `-c` outranks every config file, and git hands it on to
 * the git processes it starts itself (gc, submodules). Network settings (core.sshCommand,
 * credential helpers) are left alone: none of these commands talks to a remote.
 */
const NEUTRAL_CONFIG = [
  'core.hooksPath=/dev/null', // no hook runs: post-commit, reference-transaction, post-index-change…
  'core.fsmonitor=false', // a program asked which files changed, on every index refresh
  // Signing runs gpg.program, which the repository's config names. Kite's commits are the
  // agent's work, unattended: they are not signed with the person's key (they can sign on review).
  'commit.gpgSign=false',
  'log.showSignature=false', // `git show` would run gpg.program to verify
];

/** GIT_* variables git may keep: who commits, and where the person's own config lives. The rest
 *  redirect git (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE), inject config (GIT_CONFIG_*) or name
 *  programs (GIT_EXEC_PATH, GIT_SSH_COMMAND, GIT_ASKPASS, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_EDITOR). */
const GIT_KEEP = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CEILING_DIRECTORIES',
]);

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

const extraSecretNames = new Set<string>();

/** Names the run knows are secret although they look ordinary (e.g. a configured key variable). */
export function addGitSecretNames(names: readonly string[]): void {
  for (const n of names) extraSecretNames.add(n.toUpperCase());
}

/** The folder holding `.git` above `root` (git's own discovery, without running git). */
function repoTop(root: string): string {
  for (let d = resolve(root); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return resolve(root);
  }
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * The environment of Kite's git: `base` minus secrets and minus the GIT_* variables above; PATH
 * without relative entries or entries inside the repository (node_modules/.bin, `.`), where the
 * agent could have put a `git` of its own. HOME stays, so ~/.gitconfig still names the author.
 */
export function gitEnv(root: string, base: NodeJS.ProcessEnv = process.env, extra: ReadonlySet<string> = extraSecretNames): NodeJS.ProcessEnv {
  const out = scrubEnv(base, [...extra]);
  for (const name of Object.keys(out)) if (/^GIT_/i.test(name) && !GIT_KEEP.has(name.toUpperCase())) delete out[name];
  const top = repoTop(root);
  const pathName = Object.keys(out).find((k) => k.toUpperCase() === 'PATH'); // `Path` on Windows
  if (pathName) {
    out[pathName] = (out[pathName] ?? '')
      .split(delimiter)
      .filter((p) => p && isAbsolute(p) && !inside(top, p)) // an empty entry means the current folder
      .join(delimiter);
  }
  out.GIT_TERMINAL_PROMPT = '0';
  return out;
}

/**
 * `-c` overrides for the filter drivers (clean/smudge/process, run by add, status, reset and
 * checkout) set in the repository's own config: each gets the value the person's global or
 * system config gives it (git-lfs installs itself there), else none.
 */
function filterOverrides(root: string, env: NodeJS.ProcessEnv): string[] {
  let out: string;
  try {
    out = execFileSync('git', ['config', '-z', '--show-scope', '--get-regexp', '^filter\\.'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env });
  } catch (e) {
    if ((e as { status?: number }).status === 1) return []; // no filter configured anywhere
    // Fail closed: without scopes, filters the repository names cannot be told from the person's.
    throw new GitError('git_failed', `Kite needs git 2.26 or newer (git config --show-scope failed: ${String((e as { stderr?: string }).stderr ?? e).trim()})`);
  }
  const trusted = new Map<string, string>();
  const untrusted = new Set<string>();
  const parts = out.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [key, value = 'true'] = parts[i + 1].split(/\n(.*)/s); // a bare key is a boolean true
    if (parts[i] === 'local' || parts[i] === 'worktree') untrusted.add(key);
    else trusted.set(key, value);
  }
  return [...untrusted].flatMap((key) => ['-c', `${key}=${trusted.get(key) ?? ''}`]);
}

/** The index Kite's own commit builds (GIT_INDEX_FILE), while withIndexFile runs; else the person's. */
let indexFile: string | null = null;

/**
 * Run `fn` with every Kite git call on `file` as the index: the commit is assembled there, so the
 * person's own index (their staged hunks) is never touched. Synchronous, so no other call interleaves.
 */
export function withIndexFile<T>(file: string, fn: () => T): T {
  const before = indexFile;
  indexFile = file;
  try {
    return fn();
  } finally {
    indexFile = before;
  }
}

/** `git <args>` in `root` with the neutral config and environment above; its stdout. */
export function runGit(root: string, args: readonly string[]): string {
  const env = gitEnv(root);
  if (indexFile !== null) env.GIT_INDEX_FILE = indexFile;
  const config = [...NEUTRAL_CONFIG.flatMap((c) => ['-c', c]), ...filterOverrides(root, env)];
  // The staged diff the secret scan reads holds every byte the run wrote: Node's 1 MB default
  // buffer made a run that wrote more than that end `error` (spawnSync git ENOBUFS) instead of committing.
  return execFileSync('git', [...config, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env, maxBuffer: GIT_OUTPUT_MAX });
}

const GIT_OUTPUT_MAX = 1 << 30;
