// Runs a short piece of work that cannot be split at a quiet moment of the extension host: writing
// the V8 code cache (extensionLauncher.ts) holds the host's event loop for ~40 ms in
// createCachedData, and 20 s after activation it used to land in the middle of whatever the person
// had started, e.g. a 1M-event timeline loading (a 54 ms task there, issue 17). Not before
// `afterMs`, then once the process (all its threads: a timeline's reader too) has used little CPU
// and its loop has kept time for `quietMs`. Node builtins only: the launcher loads this before the
// extension's bundle.
import { performance } from 'node:perf_hooks';

export interface QuietLimits {
  /** Never before this long after the call (ms). */
  afterMs: number;
  /** How long the process must have been quiet (ms). */
  quietMs: number;
  /** The most the process may have used of one CPU meanwhile (0-1). */
  cpuShare: number;
  /** The most a tick of its loop may have been late (ms). */
  lateMs: number;
  /** How often to look (ms). */
  tickMs: number;
}

export const QUIET_LIMITS: QuietLimits = { afterMs: 20_000, quietMs: 2_000, cpuShare: 0.2, lateMs: 10, tickMs: 100 };

/** Calls `work` once, at the first quiet moment after `afterMs`; cancel() before that: never. */
export function atQuietMoment(work: () => void, limits: Partial<QuietLimits> = {}): { cancel(): void } {
  const l = { ...QUIET_LIMITS, ...limits };
  let ticker: NodeJS.Timeout | null = null;
  const starter = setTimeout(() => {
    let last = performance.now();
    let quietFrom = last;
    let cpuFrom = cpuMs();
    ticker = setInterval(() => {
      const now = performance.now();
      const late = now - last - l.tickMs;
      last = now;
      const cpu = cpuMs();
      const stretch = now - quietFrom;
      // A late tick, or a stretch busy on average: the quiet stretch starts again from here.
      if (late > l.lateMs || (stretch >= l.quietMs && cpu - cpuFrom > l.cpuShare * stretch)) {
        quietFrom = now;
        cpuFrom = cpu;
        return;
      }
      if (stretch < l.quietMs) return;
      stop();
      work();
    }, l.tickMs);
    ticker.unref();
  }, l.afterMs);
  starter.unref();
  const stop = () => {
    clearTimeout(starter);
    if (ticker) clearInterval(ticker);
    ticker = null;
  };
  return { cancel: stop };
}

/** CPU time of the whole process so far (every thread), ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
