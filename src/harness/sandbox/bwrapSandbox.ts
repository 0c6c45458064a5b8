// Linux: every command in its own bubblewrap sandbox (see bwrap.ts for what is isolated).
// Knows the workspace: which paths inside it stay read-only, which toolchain folders on PATH
// must stay visible, and where the person's home is to hide it.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SandboxInfo } from '../protocol/sandboxInfo';
import { bwrapArgs, type ProtectedPath } from './bwrap';
import { createPidsCgroup, JOIN_CGROUP_SCRIPT } from './cgroup';
import type { CommandSandbox, PreparedCommand } from './commandSandbox';
import { commandEnv } from './environment';
import { exposesSecrets } from './homeSecrets';
import type { SandboxSettings } from './settings';
import type { RunRequest } from './types';

const SYSTEM_PREFIXES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc', '/opt'];

export interface BwrapSandboxOptions {
  bwrap: string;
  prlimit: string;
  root: string; // absolute workspace root
  logDir: string; // absolute
  /** Workspace-relative files the gate is defined by or Kite owns, beyond the built-in ones. */
  protect?: readonly string[];
  settings: SandboxSettings;
  env: NodeJS.ProcessEnv; // Kite's environment (PATH, HOME, LANG… are taken from it)
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The repository's git folders (a worktree's own and the common one), wherever they are. */
export function gitDirsOf(root: string): string[] {
  for (let dir = root; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (isDir(dotGit)) return [dotGit];
    if (existsSync(dotGit)) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) return [];
      const own = resolve(dir, m[1].trim());
      const common = existsSync(join(own, 'commondir')) ? resolve(own, readFileSync(join(own, 'commondir'), 'utf8').trim()) : own;
      return [...new Set([own, common])];
    }
    if (dirname(dir) === dir) return [];
  }
}

/** Kite's own files and the git folders: readable in the sandbox, never writable. */
export function protectedPaths(root: string, logDir: string, extra: readonly string[] = []): ProtectedPath[] {
  const list: ProtectedPath[] = [
    { path: join(root, '.git'), dir: isDir(join(root, '.git')) || !existsSync(join(root, '.git')) },
    { path: join(root, '.kite'), dir: true },
    { path: join(root, 'kite-progress.json'), dir: false },
    { path: logDir, dir: true },
    ...gitDirsOf(root).map((path) => ({ path, dir: true })),
    ...extra.map((p) => ({ path: resolve(root, p), dir: isDir(resolve(root, p)) })),
  ];
  const seen = new Set<string>();
  return list.filter((p) => !seen.has(p.path) && seen.add(p.path) !== undefined);
}

/**
 * Toolchain folders on PATH outside the system folders (nvm, cargo, pyenv…) stay visible
 * read-only, or `node` would vanish inside the sandbox. A `…/bin` whose parent holds `lib` or
 * `versions` brings the parent (npm lives in lib/); the home itself and ~/.local never do.
 */
export function toolchainMounts(path: string | undefined, root: string, home: string | null): string[] {
  const out = new Set<string>();
  for (const entry of (path ?? '').split(delimiter)) {
    if (!isAbsolute(entry) || !isDir(entry)) continue;
    let dir: string;
    try {
      dir = realpathSync(entry);
    } catch {
      continue;
    }
    if (SYSTEM_PREFIXES.some((p) => inside(p, dir)) || inside(root, dir) || dir === '/') continue;
    const parent = dirname(dir);
    const lifts = basename(dir) === 'bin' || basename(dir) === 'shims';
    const generic = parent === home || (home !== null && parent === join(home, '.local')) || parent === '/';
    out.add(lifts && !generic && (isDir(join(parent, 'lib')) || isDir(join(parent, 'versions'))) ? parent : dir);
  }
  return [...out];
}

/**
 * The host paths a command may read besides the system: toolchains on PATH and the configured
 * mounts, minus any that would show it the person's home or credentials (a workspace's config
 * could ask for ~/.ssh); those are refused, and the run's log says so.
 */
export function readOnlyMounts(path: string | undefined, root: string, home: string | null, configured: readonly string[]): { mounts: string[]; refused: string[] } {
  const mounts: string[] = [];
  const refused: string[] = [];
  for (const dir of [...toolchainMounts(path, root, home), ...configured]) {
    const why = exposesSecrets(dir, home);
    if (why) refused.push(`${dir} is not made visible to commands: ${why}`);
    else mounts.push(dir);
  }
  return { mounts, refused };
}

export class BwrapSandbox implements CommandSandbox {
  readonly info: SandboxInfo;
  private readonly protect: ProtectedPath[];
  private readonly hostHome: string | null;
  private readonly readOnly: string[];
  /** Mounts refused because they would expose secrets (logged at the start of the run). */
  readonly refused: string[];
  private readonly asRoot = process.getuid?.() === 0;
  /** Root: one pids cgroup for the run's commands (they run one at a time), removed when Kite exits. */
  private readonly pids: string | null;

  constructor(private readonly opts: BwrapSandboxOptions) {
    const home = resolve(opts.env.HOME ?? homedir());
    // A home that holds the workspace (or is /) cannot be covered without hiding the workspace.
    this.hostHome = home !== '/' && !inside(home, opts.root) ? home : null;
    this.protect = protectedPaths(opts.root, opts.logDir, opts.protect);
    ({ mounts: this.readOnly, refused: this.refused } = readOnlyMounts(opts.env.PATH, opts.root, home, opts.settings.readOnlyMounts));
    const max = opts.settings.limits.processes;
    this.pids = this.asRoot && max !== null ? createPidsCgroup(max) : null;
    const processLimit = max === null ? undefined : !this.asRoot ? 'rlimit' : this.pids ? 'cgroup' : 'none';
    this.info = {
      kind: 'bwrap',
      network: opts.settings.network,
      limits: opts.settings.limits,
      process_limit: processLimit,
      note: processLimit === 'none' ? 'the process limit is not enforced: Kite runs as root and no pids cgroup is writable' : null,
    };
  }

  prepare(req: RunRequest): Promise<PreparedCommand> {
    const { settings } = this.opts;
    const home = this.hostHome ?? '/tmp/home';
    const env = commandEnv({ base: this.opts.env, home, tmp: '/tmp', pass: settings.pass, sandbox: 'bwrap', extra: req.env });
    const args = bwrapArgs({
      bwrap: this.opts.bwrap,
      prlimit: this.opts.prlimit,
      root: this.opts.root,
      cwd: req.cwd,
      protect: this.protect,
      hostHome: this.hostHome,
      home,
      readOnly: this.readOnly,
      network: settings.network,
      env,
      limits: settings.limits,
      asRoot: this.asRoot,
      command: req.command,
    });
    const cg = this.pids;
    const hostEnv = { PATH: this.opts.env.PATH ?? '/usr/bin:/bin' };
    if (cg) return Promise.resolve({ ok: true, file: '/bin/sh', args: ['-c', JOIN_CGROUP_SCRIPT, cg, this.opts.bwrap, ...args], env: hostEnv, info: this.info });
    return Promise.resolve({ ok: true, file: this.opts.bwrap, args, env: hostEnv, info: this.info });
  }
}
