// Can this machine give commands a bubblewrap sandbox? Find bwrap, then start one tiny sandbox
// with the same namespaces every command gets. A success is remembered per process and PATH; a
// failure is probed again next run (the person may have installed bwrap meanwhile, and a
// long-lived harness server must notice). When it fails, say why and how to fix it — the run
// fails closed on that message.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type ProbeResult = { ok: true; bwrap: string; prlimit: string } | { ok: false; reason: string; fix: string };

const cache = new Map<string, ProbeResult>();

/** The first executable `name` on PATH, or null. */
export function which(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* next */
    }
  }
  return null;
}

function readSysctl(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Why user namespaces are not available to this user, with the fix; null when nothing is known. */
export function userNamespaceProblem(read: (file: string) => string | null = readSysctl): { reason: string; fix: string } | null {
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return {
      reason: 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1, the Ubuntu 24.04+ default), which bubblewrap needs',
      fix: 'allow bwrap an AppArmor profile with "userns," (e.g. /etc/apparmor.d/bwrap: `abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then `sudo systemctl reload apparmor`), or `sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0`',
    };
  }
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    return { reason: 'unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)', fix: '`sudo sysctl kernel.unprivileged_userns_clone=1` (persist it in /etc/sysctl.d/)' };
  }
  if (read('/proc/sys/user/max_user_namespaces') === '0') {
    return { reason: 'user namespaces are disabled (user.max_user_namespaces = 0)', fix: '`sudo sysctl user.max_user_namespaces=15000` (persist it in /etc/sysctl.d/)' };
  }
  return null;
}

export function probeBwrap(path: string | undefined): ProbeResult {
  const key = path ?? '';
  const hit = cache.get(key);
  if (hit) return hit;
  const result = probeUncached(path);
  if (result.ok) cache.set(key, result);
  return result;
}

function probeUncached(path: string | undefined): ProbeResult {
  if (process.platform !== 'linux') return { ok: false, reason: `bubblewrap is Linux only (this is ${process.platform})`, fix: 'use the platform sandbox or a dev container' };
  const bwrap = which('bwrap', path);
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed or not on PATH', fix: 'install it: `sudo apt-get install bubblewrap` (Debian/Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)' };
  const prlimit = which('prlimit', path);
  if (!prlimit) return { ok: false, reason: 'prlimit (util-linux) is not on PATH; Kite sets resource limits with it', fix: 'install util-linux (`sudo apt-get install util-linux`)' };
  const r = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status === 0) return { ok: true, bwrap, prlimit };
  const said = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-2).join(' ');
  const userns = userNamespaceProblem();
  if (userns) return { ok: false, reason: `${userns.reason} (bwrap said: ${said})`, fix: userns.fix };
  return { ok: false, reason: `bubblewrap cannot create its namespaces here (bwrap said: ${said})`, fix: 'run Kite where user namespaces are allowed (outside a restricted container, or in a dev container with --privileged / seccomp that permits clone(CLONE_NEWUSER))' };
}
