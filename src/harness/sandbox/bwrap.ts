// The bubblewrap command line for one command: new user/pid/ipc/uts/cgroup (and, unless the
// network is "host", net) namespaces, a fresh /proc, a minimal /dev, the system read-only,
// private /tmp and HOME, the workspace read-write except Kite's own files, an allowlisted
// environment and resource limits. Pure: builds argv, starts nothing (tested as text).
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { SandboxLimits, SandboxNetwork } from '../protocol/sandboxInfo';

/** Read-only system folders (symlinks such as /bin -> usr/bin on merged-/usr systems stay links). */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** Secrets that live in the system folders: covered even though /etc is visible. */
const ETC_SECRET_FILES = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/security/opasswd', '/etc/krb5.keytab', '/etc/ipsec.secrets'];
const ETC_SECRET_DIRS = ['/etc/ssh', '/etc/ssl/private', '/etc/NetworkManager/system-connections', '/etc/wireguard', '/etc/sudoers.d'];

/** A path a command may read but not change. A folder that does not exist yet is covered by an
 *  empty read-only tmpfs so the command cannot create it; a missing file cannot be covered
 *  without leaving an empty file behind, so it is left out. */
export interface ProtectedPath {
  path: string;
  dir: boolean;
}

export interface BwrapPlan {
  bwrap: string;
  prlimit: string;
  root: string; // workspace, bound read-write at its own path
  cwd: string;
  protect: ProtectedPath[]; // made read-only (Kite's config, logs, progress file, the git dirs)
  hostHome: string | null; // the person's home: covered by an empty tmpfs (null: it holds the workspace)
  home: string; // HOME inside: hostHome, else a folder in the private /tmp
  readOnly: string[]; // extra host paths visible read-only (toolchains from PATH, sandbox.mounts)
  network: SandboxNetwork;
  env: Record<string, string>;
  limits: SandboxLimits;
  asRoot: boolean; // root keeps capabilities in bwrap unless they are dropped
  command: string;
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

function systemMounts(): string[] {
  const args: string[] = [];
  for (const p of SYSTEM) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
    else args.push('--ro-bind', p, p);
  }
  for (const f of ETC_SECRET_FILES) if (existsSync(f)) args.push('--ro-bind', '/dev/null', f);
  for (const d of ETC_SECRET_DIRS) if (existsSync(d)) args.push('--tmpfs', d, '--remount-ro', d);
  return args;
}

/** prlimit options for the limits that are set. */
export function prlimitArgs(l: SandboxLimits): string[] {
  const mb = (n: number) => String(n * 1024 * 1024);
  const out: string[] = [];
  if (l.processes !== null) out.push(`--nproc=${l.processes}`);
  if (l.memory_mb !== null) out.push(`--data=${mb(l.memory_mb)}`);
  if (l.address_space_mb !== null) out.push(`--as=${mb(l.address_space_mb)}`);
  if (l.file_size_mb !== null) out.push(`--fsize=${mb(l.file_size_mb)}`);
  if (l.open_files !== null) out.push(`--nofile=${l.open_files}`);
  if (l.cpu_s !== null) out.push(`--cpu=${l.cpu_s}`);
  return out;
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const a: string[] = ['--unshare-all'];
  if (plan.network === 'host') a.push('--share-net');
  a.push('--die-with-parent', '--new-session', '--hostname', 'kite-sandbox');
  if (plan.asRoot) a.push('--cap-drop', 'ALL');
  a.push(...systemMounts());
  if (plan.network === 'host') a.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  // The person's home is an empty tmpfs: ~/.ssh, ~/.aws, ~/.bashrc are neither readable nor writable.
  if (plan.hostHome) a.push('--tmpfs', plan.hostHome);
  if (plan.home !== plan.hostHome) a.push('--dir', plan.home);
  for (const p of plan.readOnly) if (!inside(plan.root, p)) a.push('--ro-bind-try', p, p);
  a.push('--bind', plan.root, plan.root);
  const covered: string[] = [];
  for (const { path, dir } of [...plan.protect].sort((x, y) => x.path.length - y.path.length)) {
    if (covered.some((c) => inside(c, path))) continue; // already read-only with its parent
    covered.push(path);
    if (existsSync(path)) a.push('--ro-bind', path, path);
    else if (dir && inside(plan.root, path)) a.push('--tmpfs', path, '--remount-ro', path);
  }
  a.push('--chdir', plan.cwd, '--clearenv');
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  a.push('--', plan.prlimit, ...prlimitArgs(plan.limits), '--', '/bin/sh', '-c', plan.command);
  return a;
}
