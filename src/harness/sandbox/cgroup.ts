// A pids cgroup per command, for when Kite runs as root: the kernel does not apply RLIMIT_NPROC
// to uid 0, so a fork bomb would otherwise only meet the machine's own limit. Works with the
// cgroup v2 unified hierarchy or the v1 pids controller; where neither is writable the process
// limit is reported as not enforced (never silently).
import { mkdirSync, readFileSync, rmdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

let seq = 0;

function mountsOf(type: string): string[] {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => f[2] === type && (type !== 'cgroup' || (f[3] ?? '').split(',').includes('pids')))
      .map((f) => f[1]);
  } catch {
    return [];
  }
}

/** Parent folders where a pids-limited child cgroup can be made, best first. */
function candidates(): string[] {
  const v2 = mountsOf('cgroup2').filter((m) => {
    try {
      return readFileSync(join(m, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids');
    } catch {
      return false;
    }
  });
  return [...v2, ...mountsOf('cgroup')];
}

export interface PidsCgroup {
  dir: string;
  /** Remove the cgroup once every process in it is gone (the sandbox's pid namespace is). */
  remove(): void;
}

/** A fresh cgroup holding at most `max` tasks, or null where none can be made. */
export function createPidsCgroup(max: number): PidsCgroup | null {
  if (process.getuid?.() !== 0) return null;
  for (const parent of candidates()) {
    const dir = join(parent, `kite-${process.pid}-${++seq}`);
    try {
      mkdirSync(dir);
      if (!existsSync(join(dir, 'pids.max'))) throw new Error('no pids controller');
      writeFileSync(join(dir, 'pids.max'), String(max));
      return { dir, remove: () => removeLater(dir, 20) };
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        /* never made */
      }
    }
  }
  return null;
}

/** rmdir fails while the kernel still counts exiting tasks: retry briefly (at exit: at once), then leave it (empty, harmless). */
function removeLater(dir: string, tries: number): void {
  try {
    rmdirSync(dir);
  } catch {
    if (tries > 0) setTimeout(() => removeLater(dir, tries - 1), 50).unref();
  }
}

/** The /bin/sh script that moves itself into the cgroup and then becomes the sandbox ($0 = cgroup dir). */
export const JOIN_CGROUP_SCRIPT = 'echo $$ > "$0/cgroup.procs" || exit 125; exec "$@"';
