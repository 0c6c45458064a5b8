// Optional OS isolation for commands, where the machine offers it: a private network namespace
// (no network but a loopback) via util-linux `unshare`. Probed once; fails closed when requested
// but unavailable, so "network: deny" never silently runs with the network.
import { spawnSync } from 'node:child_process';

export type NetworkMode = 'allow' | 'deny';

let probed: string[] | null | undefined;

/** The argv prefix that runs a program without network, or null when this machine cannot. */
export function noNetworkPrefix(): string[] | null {
  if (probed !== undefined) return probed;
  probed = null;
  // As root a plain network namespace works; otherwise try an unprivileged user namespace.
  for (const args of [['-n'], ['-r', '-n']]) {
    const r = spawnSync('unshare', [...args, 'true'], { stdio: 'ignore', timeout: 5000 });
    if (r.status === 0) {
      probed = ['unshare', ...args];
      break;
    }
  }
  return probed;
}

/** Bring up loopback inside the new namespace so local servers and tests still work. */
const LOOPBACK_UP = 'ip link set lo up 2>/dev/null || true; exec /bin/sh -c "$1"';

/** The program and arguments that run `command` under the requested isolation. */
export function wrapCommand(command: string, network: NetworkMode): { file: string; args: string[] } | { error: string } {
  if (network === 'allow') return { file: '/bin/sh', args: ['-c', command] };
  const prefix = noNetworkPrefix();
  if (prefix === null) {
    return { error: 'kite: network isolation was requested (network: deny) but this machine cannot provide it (unshare -n is not available or not permitted); the command did not run.' };
  }
  return { file: prefix[0], args: [...prefix.slice(1), '/bin/sh', '-c', LOOPBACK_UP, 'kite-sh', command] };
}
