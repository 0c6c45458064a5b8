// macOS: every command under sandbox-exec (Seatbelt) with the intent of bwrap.ts — no network but
// loopback unless "host", writes only to the workspace and a private folder, Kite's own files and the
// git folders read-only, the person's home and the shared temp folders unreadable, an allowlisted
// environment and rlimits. Seatbelt filters operations by path but cannot remap paths, so HOME and
// TMPDIR point into a fresh folder per command instead of a tmpfs, and hidden places are denied.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SandboxInfo, SandboxLimits, SandboxNetwork } from '../protocol/sandboxInfo';
import type { ProtectedPath } from './bwrap';
import { protectedPaths, readOnlyMounts } from './bwrapSandbox';
import type { CommandSandbox, PreparedCommand } from './commandSandbox';
import { commandEnv } from './environment';
import { HOME_SECRETS } from './homeSecrets';
import type { SandboxSettings } from './settings';
import type { RunRequest } from './types';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Files that run code outside the sandbox later: never writable, should the workspace be the home. */
const HOME_STARTUP = ['.zshrc', '.zshenv', '.zprofile', '.bashrc', '.bash_profile', '.profile', '.gitconfig', '.config/git', 'Library/LaunchAgents'];
/** Shared temp folders bwrap replaces with a tmpfs: hidden here (the private folder is re-allowed). */
const SHARED_TMP = ['/private/tmp', '/private/var/tmp'];

/** Services any command may reach: user lookups, logging, notifications, the temp-folder helper,
 *  power assertions, file events (watchers) and fonts. Not Launch Services or Apple Events (they
 *  open apps outside the sandbox), securityd (the keychain), trustd or mDNSResponder (they fetch
 *  certificates and resolve names for the caller: a network by proxy). */
const MACH_BASE = ['com.apple.system.opendirectoryd.libinfo', 'com.apple.system.opendirectoryd.membership', 'com.apple.system.logger', 'com.apple.logd', 'com.apple.diagnosticd', 'com.apple.system.notification_center', 'com.apple.bsd.dirhelper', 'com.apple.PowerManagement.control', 'com.apple.FSEvents', 'com.apple.fonts', 'com.apple.FontObjectsServer'];
/** With the host network: name resolution, network configuration, TLS trust (trust settings live in keychains). */
const MACH_NETWORK = ['com.apple.dnssd.service', 'com.apple.SystemConfiguration.configd', 'com.apple.SystemConfiguration.DNSConfiguration', 'com.apple.networkd', 'com.apple.trustd.agent', 'com.apple.ocspd', 'com.apple.SecurityServer'];
/** Readable sysctls: hardware, OS version, limits and the process table (names, not arguments:
 *  kern.procargs2 — other processes' argv and environment, Kite's keys included — stays denied). */
const SYSCTL_PREFIXES = ['hw.', 'machdep.cpu.', 'kern.os', 'kern.proc.', 'net.routetable.'];
const SYSCTL_NAMES = ['kern.argmax', 'kern.boottime', 'kern.hostname', 'kern.maxfiles', 'kern.maxfilesperproc', 'kern.maxproc', 'kern.maxprocperuid', 'kern.ngroups', 'kern.secure_kernel', 'kern.usrstack64', 'kern.version', 'kern.tcsm_available', 'kern.tcsm_enable', 'machdep.ptrauth_enabled', 'security.mac.lockdown_mode_state', 'sysctl.proc_cputype', 'sysctl.proc_translated', 'vm.loadavg', 'vm.swapusage', 'vm.memory_pressure'];
/** Devices a shell writes to: sinks, the terminal, ptys, its own descriptors. */
const DEVICES = ['(literal "/dev/null")', '(literal "/dev/zero")', '(literal "/dev/tty")', '(literal "/dev/stdout")', '(literal "/dev/stderr")', '(literal "/dev/dtracehelper")', '(literal "/dev/ptmx")', '(subpath "/dev/fd")', '(regex #"^/dev/ttys[0-9]+$")'];

/** Everything the profile is made from. Paths are canonical: Seatbelt matches resolved paths. */
export interface SeatbeltPlan {
  root: string; // the workspace: readable and writable
  tmp: string; // this command's private folder (HOME and TMPDIR inside): readable and writable
  hostHome: string | null; // the person's home: unreadable (null: it is /)
  hostTmp: string; // Kite's TMPDIR: unreadable, like /tmp
  readable: string[]; // re-allowed inside hidden places: toolchains on PATH, sandbox.mounts.read_only
  protect: ProtectedPath[]; // never writable (Kite's files, the git folders)
  secretTargets: string[]; // where secrets in the home link to outside it
  network: SandboxNetwork;
}

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** The path as Seatbelt sees it (/tmp is /private/tmp on macOS), also for one that does not exist yet. */
export function canonical(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync.native(abs);
  } catch {
    return dirname(abs) === abs ? abs : join(canonical(dirname(abs)), basename(abs));
  }
}

function compile(plan: SeatbeltPlan): { profile: string; params: [string, string][] } {
  const params: [string, string][] = [];
  // Every path reaches the profile as (param "NAME") with its value passed by `-D NAME=value`: a
  // path is data to SBPL, never source, so quotes, parens or newlines in it cannot add a rule.
  const param = (name: string, value: string): string => (params.push([name, value]), `(param "${name}")`);
  const list = (prefix: string, values: readonly string[], filter: string) => values.map((v, i) => `(${filter} ${param(`${prefix}${i}`, v)})`);
  const ROOT = param('ROOT', plan.root);
  const TMP = param('TMP', plan.tmp);
  const HOME = plan.hostHome === null ? null : param('HOME', plan.hostHome);
  const homeFilters = (names: readonly string[]) => (HOME === null ? [] : names.map((n) => `(subpath (string-append ${HOME} ${JSON.stringify(`/${n}`)}))`));
  // Renaming a folder that holds a protected path would move the path out from under its deny.
  const guards = new Set<string>();
  for (const { path } of plan.protect) for (let d = dirname(path); d !== plan.root && inside(plan.root, d); d = dirname(d)) guards.add(d);
  for (const g of guards) if (plan.protect.some((p) => p.dir && inside(p.path, g))) guards.delete(g); // already denied
  const rule = (head: string, filters: string[]) => (filters.length ? [`(${head}\n  ${filters.join('\n  ')})`] : []);
  const unixSockets = [`(local unix-socket (subpath ${ROOT}))`, `(local unix-socket (subpath ${TMP}))`];
  const lines = [
    '(version 1)',
    '; Closed by default. For one operation the LAST matching rule wins, so every deny that narrows',
    '; an allow comes after it and names the same operations.',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow mach-priv-task-port (target same-sandbox))',
    '(allow user-preference-read)',
    '(allow mach-host*)',
    '(allow pseudo-tty)',
    '(allow ipc-posix-sem ipc-posix-shm ipc-sysv-sem ipc-sysv-shm ipc-sysv-msg)',
    '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
    ...rule('allow sysctl-read', [...SYSCTL_PREFIXES.map((p) => `(sysctl-name-prefix "${p}")`), ...SYSCTL_NAMES.map((n) => `(sysctl-name "${n}")`)]),
    '(allow sysctl-write (sysctl-name "kern.tcsm_enable") (sysctl-name "kern.grade_cputype"))',
    ...rule('allow mach-lookup', MACH_BASE.map((n) => `(global-name "${n}")`)),
    ...(plan.network === 'host'
      ? [
          '; The host network, and what resolves names and checks certificates.',
          '(allow network*)',
          '(allow system-socket)',
          ...rule('allow mach-lookup', MACH_NETWORK.map((n) => `(global-name "${n}")`)),
          "; A daemon's socket (Docker, the SSH agent) is a way out of the sandbox: unix sockets as under none.",
          '(deny network-outbound (remote unix-socket (path-regex #"^/")))',
          '(allow network-outbound (remote unix-socket (subpath "/private/var/run/mDNSResponder")))',
        ]
      : [
          '; No network: loopback only, no name resolution. Seatbelt cannot filter the peer of an',
          '; inbound connection, so binding any address is allowed (a dual-stack ::ffff:127.0.0.1 bind',
          '; does not match "localhost"); outbound goes to loopback only.',
          '(deny network*)',
          '(allow network-bind network-inbound (local ip "*:*"))',
          '(allow network-outbound (remote ip "localhost:*"))',
          '(allow system-socket (socket-domain AF_UNIX))',
        ]),
    '; Unix sockets of the command itself, in the workspace or its private folder.',
    ...rule('allow network-bind', unixSockets),
    ...rule('allow network-outbound', unixSockets.map((f) => f.replace('(local ', '(remote '))),
    '; Reads: the system and toolchains, not the home or the shared temp folders; the workspace,',
    '; the private folder and the toolchains on PATH are re-allowed inside them.',
    '(allow file-read*)',
    ...rule('deny file-read*', [...(HOME ? [`(subpath ${HOME})`] : []), ...SHARED_TMP.map((t) => `(subpath "${t}")`), `(subpath ${param('HOST_TMP', plan.hostTmp)})`]),
    ...rule('allow file-read*', [`(subpath ${ROOT})`, `(subpath ${TMP})`, ...list('READ_', plan.readable, 'subpath')]),
    '; stat of hidden folders, so realpath() can walk to the workspace; not their listings.',
    '(allow file-read-metadata (vnode-type DIRECTORY))',
    '; Writes: the workspace, the private folder, terminal devices.',
    ...rule('allow file-write*', [`(subpath ${ROOT})`, `(subpath ${TMP})`, ...DEVICES]),
    ...rule('allow file-ioctl', [`(subpath ${ROOT})`, `(subpath ${TMP})`, ...DEVICES]),
    "; Kite's files and the git folders stay read-only; the folders holding them cannot be moved.",
    ...rule('deny file-write*', [
      ...plan.protect.map((p, i) => `(${p.dir ? 'subpath' : 'literal'} ${param(`PROTECT_${i}`, p.path)})`),
      `(literal ${ROOT})`,
      ...list('GUARD_', [...guards], 'literal'),
      ...homeFilters(HOME_STARTUP),
    ]),
    '; Secrets last: no allow above reopens them.',
    ...rule('deny file-read* file-write*', [...homeFilters(HOME_SECRETS), ...list('SECRET_', plan.secretTargets, 'subpath')]),
  ];
  return { profile: lines.join('\n') + '\n', params };
}

/** The SBPL profile for a plan (pure). Paths appear only as (param "…"); see seatbeltParams. */
export function seatbeltProfile(plan: SeatbeltPlan): string {
  return compile(plan).profile;
}

/** The -D NAME=value pairs the profile's (param "…") read. */
export function seatbeltParams(plan: SeatbeltPlan): [string, string][] {
  return compile(plan).params;
}

/**
 * sh that sets the limits (hard and soft, so the command cannot raise them) and then runs "$1".
 * Units as macOS /bin/sh (bash 3.2 in POSIX mode, or zsh) reads them: -f in 512-byte blocks, -d/-v
 * in KiB. A limit that cannot be set refuses the command, unless the existing hard limit is already
 * as strict. -d/-v are best effort: macOS accepts them but does not enforce them.
 */
export function limitScript(l: SandboxLimits, userProcesses: number | null): string {
  const strict: string[] = [];
  if (l.open_files !== null) strict.push(`-n ${l.open_files}`);
  if (l.file_size_mb !== null) strict.push(`-f ${l.file_size_mb * 2048}`);
  if (l.cpu_s !== null) strict.push(`-t ${l.cpu_s}`);
  // RLIMIT_NPROC counts all of the person's processes on macOS, not the sandbox's: allow N more.
  if (l.processes !== null && userProcesses !== null) strict.push(`-u ${userProcesses + l.processes}`);
  const loose = [l.memory_mb === null ? null : `-d ${l.memory_mb * 1024}`, l.address_space_mb === null ? null : `-v ${l.address_space_mb * 1024}`].filter((x) => x !== null);
  const lim = 'lim() { ulimit -HS "$1" "$2" 2>/dev/null && return 0; h=$(ulimit -H "$1" 2>/dev/null); [ "$h" != unlimited ] && [ "$h" -le "$2" ] 2>/dev/null && return 0; echo "kite: the sandbox could not set ulimit $1 $2; the command did not run" >&2; exit 126; }';
  return [lim, ...strict.map((s) => `lim ${s}`), ...loose.map((s) => `ulimit -HS ${s} 2>/dev/null`), 'exec /bin/sh -c "$1"'].join('; ');
}

/** The number of processes this user has (all of them: that is what RLIMIT_NPROC counts), or null. */
function countUserProcesses(): number | null {
  const r = spawnSync('/bin/ps', ['-A', '-o', 'uid='], { encoding: 'utf8', timeout: 5000 });
  if (r.status !== 0 || typeof r.stdout !== 'string') return null;
  const uid = String(process.getuid?.() ?? -1);
  return r.stdout.split('\n').filter((line) => line.trim() === uid).length;
}

export interface SeatbeltSandboxOptions {
  root: string;
  logDir: string;
  settings: SandboxSettings;
  env: NodeJS.ProcessEnv;
  protect?: readonly string[];
  /** Tests: how many processes the person has (default: counted with ps). */
  userProcesses?: () => number | null;
}

export type SeatbeltProbe = { ok: true } | { ok: false; reason: string; fix: string };

export interface SeatbeltProbeDeps {
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
  /** Applies a trivial profile: null when it worked, else what sandbox-exec said. */
  tryProfile?: () => string | null;
}

let tried: string | null | undefined;

/** Once per process: sandbox-exec fails to apply a profile inside another sandbox. */
function tryProfileOnce(): string | null {
  if (tried !== undefined) return tried;
  const r = spawnSync(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  tried = r.status === 0 ? null : (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-1)[0];
  return tried;
}

/** Whether commands can run under sandbox-exec here, or why not and the fix. */
export function probeSeatbelt(deps: SeatbeltProbeDeps = {}): SeatbeltProbe {
  const platform = deps.platform ?? process.platform;
  if (platform !== 'darwin') return { ok: false, reason: `the Seatbelt sandbox (sandbox-exec) exists only on macOS (this is ${platform})`, fix: 'on Linux Kite uses bubblewrap; elsewhere run Kite in a dev container or a Linux VM' };
  if (!(deps.exists ?? existsSync)(SANDBOX_EXEC)) return { ok: false, reason: `${SANDBOX_EXEC} is missing`, fix: 'sandbox-exec is part of macOS: repair the system install, or run Kite in a dev container' };
  const said = (deps.tryProfile ?? tryProfileOnce)();
  if (said !== null) return { ok: false, reason: `sandbox-exec cannot apply a profile here (it said: ${said}); Kite may itself be running inside a sandbox`, fix: 'run Kite outside other sandboxes, or in a dev container' };
  return { ok: true };
}

export class SeatbeltSandbox implements CommandSandbox {
  readonly info: SandboxInfo;
  private readonly plan: Omit<SeatbeltPlan, 'tmp'>;

  constructor(private readonly opts: SeatbeltSandboxOptions) {
    const { settings, env } = opts;
    const root = canonical(opts.root);
    const home = canonical(env.HOME ?? homedir());
    const hostHome = home === '/' ? null : home;
    const secretTargets = hostHome === null ? [] : HOME_SECRETS.map((n) => join(hostHome, n)).filter((p) => existsSync(p) && !inside(hostHome, canonical(p))).map(canonical);
    const protect = protectedPaths(root, canonical(opts.logDir), opts.protect).map((p) => ({ ...p, path: canonical(p.path) }));
    // Protected paths stay readable wherever they are (a worktree's common git folder in the home).
    const readable = [...new Set([...readOnlyMounts(env.PATH, root, hostHome, settings.readOnlyMounts).mounts, ...protect.map((p) => p.path)].map(canonical))].filter((p) => !inside(root, p));
    this.plan = { root, hostHome, hostTmp: canonical(env.TMPDIR ?? tmpdir()), readable, protect, secretTargets, network: settings.network };
    const l = settings.limits;
    const note = [
      l.memory_mb !== null || l.address_space_mb !== null ? 'memory limits (RLIMIT_DATA/RLIMIT_AS) are requested but the kernel does not enforce them' : null,
      l.processes !== null ? "the process limit counts all of the person's processes (macOS RLIMIT_NPROC is per user), so it is set to their current number plus the limit" : null,
      settings.network === 'none' ? 'no DNS (use 127.0.0.1 if localhost does not resolve); a server listening on all interfaces is reachable from other machines' : null,
    ].filter((x) => x !== null);
    this.info = { kind: 'seatbelt', network: settings.network, limits: l, process_limit: l.processes === null ? undefined : 'rlimit', note: note.length ? `macOS: ${note.join('; ')}` : null };
  }

  prepare(req: RunRequest): Promise<PreparedCommand> {
    const { settings, env } = this.opts;
    let tmp: string;
    try {
      tmp = canonical(mkdtempSync(join(this.plan.hostTmp, 'kite-sb-')));
      mkdirSync(join(tmp, 'home'));
      mkdirSync(join(tmp, 'tmp'));
    } catch (e) {
      return Promise.resolve({ ok: false, refused: `kite: the command did not run: the sandbox could not make its private folder in ${this.plan.hostTmp} (${(e as Error).message})`, info: this.info });
    }
    const plan: SeatbeltPlan = { ...this.plan, tmp };
    const { profile, params } = compile(plan);
    const procs = settings.limits.processes === null ? null : (this.opts.userProcesses ?? countUserProcesses)();
    const info: SandboxInfo = procs === null && settings.limits.processes !== null ? { ...this.info, process_limit: 'none', note: `${this.info.note ?? 'macOS'}; the process limit is not enforced for this command: the person's processes could not be counted` } : this.info;
    const args = ['-p', profile, ...params.flatMap(([k, v]) => ['-D', `${k}=${v}`]), '/bin/sh', '-c', limitScript(settings.limits, procs), 'kite-sh', req.command];
    const commandEnvironment = commandEnv({ base: env, home: join(tmp, 'home'), tmp: join(tmp, 'tmp'), pass: settings.pass, sandbox: 'seatbelt', extra: req.env });
    const cleanup = () => {
      try {
        rmSync(tmp, { recursive: true, force: true });
      } catch {
        /* a folder the command made unremovable stays in TMPDIR; the command's result is unaffected */
      }
    };
    return Promise.resolve({ ok: true, file: SANDBOX_EXEC, args, env: commandEnvironment, info, cleanup });
  }
}
