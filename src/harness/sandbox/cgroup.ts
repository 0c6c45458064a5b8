// A pids cgroup per run, for when Kite runs as root: the kernel does not apply RLIMIT_NPROC
// to uid 0, so a fork bomb would otherwise only meet the machine's own limit. Works with the
// cgroup v2 unified hierarchy or the v1 pids controller; where neither is writable the process
// limit is reported as not enforced (never silently).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let seq = 0;

/** Cgroups this process made and has not removed: one exit hook removes them all. */
const live = new Set<string>();
process.on('exit', () => {
  for (const dir of live) remove(dir);
});

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

/** Cgroups left by Kite processes that died without their exit hook (kill -9, a crash). */
function sweepStale(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^kite-(\d+)-\d+$/.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    remove(join(parent, name));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A fresh cgroup (its folder) holding at most `max` tasks, or null where none can be made.
 *  It is removed when this process exits. */
export function createPidsCgroup(max: number): string | null {
  if (process.getuid?.() !== 0) return null;
  for (const parent of candidates()) {
    sweepStale(parent);
    const dir = join(parent, `kite-${process.pid}-${++seq}`);
    try {
      mkdirSync(dir);
      if (!existsSync(join(dir, 'pids.max'))) throw new Error('no pids controller');
      writeFileSync(join(dir, 'pids.max'), String(max));
      live.add(dir);
      return dir;
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

function remove(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* still busy or gone: an empty cgroup left behind is harmless */
  }
}

/** The /bin/sh script that moves itself into the cgroup and then becomes the sandbox ($0 = cgroup dir). */
export const JOIN_CGROUP_SCRIPT = 'echo $$ > "$0/cgroup.procs" || exit 125; exec "$@"';
