// Why a stall held no CPU (Linux only): the event loop's thread waiting on the run queue for a
// CPU (/proc/thread-self/schedstat, second field: ns spent runnable but not running), or the
// machine's virtual CPUs taken away by the hypervisor (steal, /proc/stat). Read on the thread
// that calls it; null where /proc does not say (another OS, a sandbox without /proc).
import { readFileSync } from 'node:fs';

export interface CpuWaitSample {
  /** ns this thread has waited, runnable, for a CPU (since it started). */
  runQueueNs: number;
  /** Steal time of all CPUs (since boot), ms. */
  stealMs: number;
}

/** USER_HZ: /proc/stat counts in hundredths of a second on Linux. */
const TICKS_PER_S = 100;

export function sampleCpuWait(): CpuWaitSample | null {
  try {
    const sched = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ');
    const cpu = /^cpu +(.*)/.exec(readFileSync('/proc/stat', 'latin1'))?.[1]?.split(/ +/);
    const runQueueNs = Number(sched[1]);
    const steal = Number(cpu?.[7]);
    if (!Number.isFinite(runQueueNs) || !Number.isFinite(steal)) return null;
    return { runQueueNs, stealMs: (steal * 1000) / TICKS_PER_S };
  } catch {
    return null;
  }
}
