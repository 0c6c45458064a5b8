// Opt-in watch on the extension host's event loop (issue 17: "never blocked"): with
// KITE_LONG_TASK_LOG=FILE set when Kite activates, a 10 ms timer measures how late each of its
// ticks fires — a tick late by L ms means a task held the loop for about L ms — and
// perf_hooks.monitorEventLoopDelay keeps the delay histogram. The longest stalls (with when they
// happened) are written to FILE as JSON every few seconds and when Kite deactivates, with the
// garbage collector's pauses (PerformanceObserver 'gc'), to tell a long task from a long GC.
// No 'vscode' import: the integration test and the unit test use it as it is.
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { CpuWaitSampler, type CpuWaitSample } from './cpuWaitSampler';

const TICK_MS = 10;
const FLUSH_MS = 2000;
const KEPT = 20;
const HEAP_EVERY_MS = 1000;

export interface Stall {
  /** How long the loop was held (the tick's lateness), ms. */
  ms: number;
  /** When the held stretch ended (ISO time). */
  at: string;
  /** CPU time the process used in that stretch (all its threads), ms: about `ms` when a task of
   *  ours held the loop, much less when the process was waiting for a CPU (a busy machine). */
  cpuMs: number;
  /** Of the stretch, how long the loop's thread waited runnable for a CPU (other processes had
   *  them), ms; null where the OS does not say. */
  runQueueMs: number | null;
  /** Of the stretch, how long the loop's thread itself ran (its tasks, garbage collection
   *  included), ms; null where the OS does not say. The stall's length less this is time the
   *  thread was not running: waiting for a CPU, or blocked. */
  ranMs: number | null;
  /** Machine-wide CPU time the hypervisor took from this machine's CPUs in it (10 ms steps), ms. */
  stealMs: number | null;
}

export interface LongTaskReport {
  /** Ticks measured (0: the monitor did not run). */
  samples: number;
  /** The longest stall seen, ms (0 when none). */
  longestMs: number;
  /** The longest stalls, longest first. */
  longest: Stall[];
  /** Stalls over 50 ms (the limit). */
  over50: number;
  /** The most the loop's thread itself ran in one stall, ms (null where the OS does not say): the
   *  longest task of the host's own, as opposed to the stall the machine's other work added. */
  longestRanMs: number | null;
  /** Stalls in which the loop's thread itself ran over 50 ms. */
  over50Ran: number;
  /** Stalls over 50 ms by what filled most of them: the loop's thread running (`ran`), waiting
   *  runnable for a CPU (`waiting`), or neither — blocked (`asleep`); empty where the OS does not say. */
  over50Why: Partial<Record<StallCause, number>>;
  /** perf_hooks.monitorEventLoopDelay: max and p99, ms. */
  delayMaxMs: number;
  delayP99Ms: number;
  /** Seconds measured. */
  seconds: number;
  /** Garbage collection pauses meanwhile (a stall as long as one was likely that pause). */
  gc: GcPauses;
  /** The most JavaScript heap in use (sampled each second), MB: a collection's pauses grow with it. */
  heapMaxMB: number;
}

export interface GcPauses {
  longestMs: number;
  over50: number;
  totalMs: number;
  /** Pauses over 50 ms by collection: `major` (mark-compact of the whole heap, grows with what the
   *  heap keeps), `minor` (scavenge of new objects, grows with what survives), others. */
  over50By: Partial<Record<GcKind, number>>;
}

export type StallCause = 'ran' | 'waiting' | 'asleep';

type GcKind = 'major' | 'minor' | 'incremental' | 'weakcb' | 'other';

const GC_KINDS: Record<number, GcKind> = {
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const noPauses = (): GcPauses => ({ longestMs: 0, over50: 0, totalMs: 0, over50By: {} });

export class LongTaskMonitor {
  private readonly timer: NodeJS.Timeout;
  private readonly flusher: NodeJS.Timeout | null;
  private readonly histogram: IntervalHistogram;
  private last = performance.now();
  private lastCpu = process.cpuUsage();
  private readonly waits = new CpuWaitSampler();
  private lastWait: CpuWaitSample | null = this.waits.sample();
  private started = performance.now();
  private samples = 0;
  private over50 = 0;
  private longestRan: number | null = null;
  private over50Ran = 0;
  private over50Why: Partial<Record<StallCause, number>> = {};
  private stalls: Stall[] = [];
  private dirty = false;
  private readonly gcObserver: PerformanceObserver;
  private gc = noPauses();
  private heapMax = 0;
  /** -Infinity: the first tick samples (performance.now() counts from the process's start, under HEAP_EVERY_MS in a young one). */
  private heapSampledAt = -Infinity;

  constructor(private readonly file: string | null = null) {
    this.histogram = monitorEventLoopDelay({ resolution: TICK_MS });
    this.histogram.enable();
    this.gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gc.longestMs = Math.max(this.gc.longestMs, Math.round(e.duration * 10) / 10);
        if (e.duration > 50) {
          this.gc.over50++;
          const kind = GC_KINDS[((e as { detail?: { kind?: number } }).detail)?.kind ?? -1] ?? 'other';
          this.gc.over50By[kind] = (this.gc.over50By[kind] ?? 0) + 1;
        }
        this.gc.totalMs = Math.round((this.gc.totalMs + e.duration) * 10) / 10;
      }
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
    this.flusher = file ? setInterval(() => void this.flush(), FLUSH_MS) : null;
    this.flusher?.unref();
  }

  /** Forgets what was measured so far: the report then covers only what follows. */
  reset(): void {
    this.started = this.last = performance.now();
    this.samples = 0;
    this.over50 = 0;
    this.longestRan = null;
    this.over50Ran = 0;
    this.over50Why = {};
    this.lastCpu = process.cpuUsage();
    this.lastWait = this.waits.sample();
    this.stalls = [];
    this.gc = noPauses();
    this.heapMax = 0;
    this.heapSampledAt = -Infinity;
    this.histogram.reset();
    this.dirty = true;
  }

  report(): LongTaskReport {
    const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e5) / 10 : 0);
    return {
      samples: this.samples,
      longestMs: this.stalls[0]?.ms ?? 0,
      longest: [...this.stalls],
      over50: this.over50,
      longestRanMs: this.longestRan,
      over50Ran: this.over50Ran,
      over50Why: { ...this.over50Why },
      delayMaxMs: this.samples ? ms(this.histogram.max) : 0,
      delayP99Ms: this.samples ? ms(this.histogram.percentile(99)) : 0,
      seconds: Math.round((performance.now() - this.started) / 100) / 10,
      gc: { ...this.gc, over50By: { ...this.gc.over50By } },
      heapMaxMB: Math.round(this.heapMax / 2 ** 20),
    };
  }

  dispose(): void {
    clearInterval(this.timer);
    if (this.flusher) clearInterval(this.flusher);
    this.histogram.disable();
    this.gcObserver.disconnect();
    this.waits.dispose();
    if (this.file) writeFileSync(this.file, JSON.stringify(this.report(), null, 2));
  }

  private tick(): void {
    const now = performance.now();
    const late = Math.round((now - this.last - TICK_MS) * 10) / 10;
    this.last = now;
    const cpu = process.cpuUsage();
    const cpuMs = Math.round((cpu.user - this.lastCpu.user + cpu.system - this.lastCpu.system) / 100) / 10;
    this.lastCpu = cpu;
    const wait = this.waits.sample();
    const before = this.lastWait;
    this.lastWait = wait;
    this.samples++;
    this.dirty = true;
    if (now - this.heapSampledAt >= HEAP_EVERY_MS) {
      this.heapSampledAt = now;
      this.heapMax = Math.max(this.heapMax, getHeapStatistics().used_heap_size);
    }
    if (late <= 1) return;
    if (late > 50) this.over50++;
    const ranMs = wait && before ? Math.round((wait.ranNs - before.ranNs) / 1e5) / 10 : null;
    if (ranMs !== null) {
      this.longestRan = Math.max(this.longestRan ?? 0, ranMs);
      if (ranMs > 50) this.over50Ran++;
    }
    const runQueueMs = wait && before ? Math.round((wait.runQueueNs - before.runQueueNs) / 1e5) / 10 : null;
    if (late > 50 && ranMs !== null && runQueueMs !== null) {
      const why: StallCause = ranMs >= late / 2 ? 'ran' : runQueueMs >= late / 2 ? 'waiting' : 'asleep';
      this.over50Why[why] = (this.over50Why[why] ?? 0) + 1;
    }
    const kept = this.stalls;
    if (kept.length < KEPT || late > (kept[kept.length - 1] as Stall).ms) {
      const stealMs = wait && before ? wait.stealMs - before.stealMs : null;
      kept.push({ ms: late, at: new Date().toISOString(), cpuMs, runQueueMs, ranMs, stealMs });
      kept.sort((a, b) => b.ms - a.ms);
      if (kept.length > KEPT) kept.pop();
    }
  }

  private async flush(): Promise<void> {
    if (!this.file || !this.dirty) return;
    this.dirty = false;
    await writeFile(this.file, JSON.stringify(this.report(), null, 2)).catch(() => undefined);
  }
}

/** The monitor KITE_LONG_TASK_LOG asks for (null when it is not set). */
export function longTaskMonitorFromEnv(env: NodeJS.ProcessEnv = process.env): LongTaskMonitor | null {
  const file = env.KITE_LONG_TASK_LOG?.trim();
  return file ? new LongTaskMonitor(file) : null;
}
