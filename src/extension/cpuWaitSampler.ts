// Why a stall held no CPU (Linux only): the event loop's thread waiting on the run queue for a
// CPU (/proc/thread-self/schedstat, second field: ns spent runnable but not running; the first,
// ns it ran, tells what of a stall was the thread's own work), or the
// machine's virtual CPUs taken away by the hypervisor (steal, /proc/stat). The thread measured is
// the one that takes the first sample (its schedstat file stays open); null where /proc does not
// say (another OS, a sandbox without /proc).
import { closeSync, openSync, readSync } from 'node:fs';

export interface CpuWaitSample {
  /** ns this thread has run on a CPU (since it started). */
  ranNs: number;
  /** ns this thread has waited, runnable, for a CPU (since it started). */
  runQueueNs: number;
  /** Steal time of all CPUs (since boot), ms. */
  stealMs: number;
}

/** USER_HZ: /proc/stat counts in hundredths of a second on Linux. */
const TICKS_PER_S = 100;

/**
 * Samples taken 100 times a second on the extension host: each file stays open and is read again
 * from its start (procfs makes its text anew on each read at offset 0), one system call instead
 * of an open, a stat, a read and a close.
 */
export class CpuWaitSampler {
  private readonly buf = Buffer.alloc(512);
  private sched: number | null = null;
  private stat: number | null = null;
  private broken = false;

  sample(): CpuWaitSample | null {
    if (this.broken) return null;
    try {
      this.sched ??= openSync('/proc/thread-self/schedstat', 'r');
      this.stat ??= openSync('/proc/stat', 'r');
      const [ran, waited] = this.read(this.sched).split(' ');
      const ranNs = Number(ran);
      const runQueueNs = Number(waited);
      const steal = Number(/^cpu +(.*)/.exec(this.read(this.stat))?.[1]?.split(/ +/)[7]);
      if (!Number.isFinite(ranNs) || !Number.isFinite(runQueueNs) || !Number.isFinite(steal)) throw new Error('unexpected /proc text');
      return { ranNs, runQueueNs, stealMs: (steal * 1000) / TICKS_PER_S };
    } catch {
      this.broken = true; // no /proc here (or not Linux's): the report says null
      this.dispose();
      return null;
    }
  }

  dispose(): void {
    for (const fd of [this.sched, this.stat]) if (fd !== null) closeSync(fd);
    this.sched = this.stat = null;
  }

  /** The file's first line or so (the numbers wanted are at its start). */
  private read(fd: number): string {
    const n = readSync(fd, this.buf, 0, this.buf.length, 0);
    return this.buf.toString('latin1', 0, n);
  }
}
