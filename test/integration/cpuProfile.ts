// Opt-in CPU and sampling heap profiles of the extension host over a measured window, taken from
// inside it (node:inspector, same process: no --inspect port needed). Open the .cpuprofile in VS
// Code or Chrome DevTools to see what held the loop; scripts/heapprofile-summary.mjs reads the
// .heapprofile.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

export interface CpuProfiler {
  /** Writes the profile to the file given at start, once (no-op when profiling was not asked for). */
  stop(): Promise<void>;
}

/** A CPU profile to `file`, and/or a sampling heap profile to `heapFile` that also counts what was
 *  collected (who allocates what the collector then spends its pauses on). */
export async function startCpuProfile(file: string | undefined, heapFile?: string): Promise<CpuProfiler> {
  const cpu = await startCpu(file);
  const heap = await startHeap(heapFile);
  return {
    stop: async () => {
      await cpu.stop();
      await heap.stop();
    },
  };
}

/** One inspector profile written to `file` when stopped: `begin` starts it, `end` returns it. */
async function profileTo(file: string | undefined, begin: [string, object?][], end: string): Promise<CpuProfiler> {
  if (!file) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
  for (const [method, params] of begin) await post(method, params);
  let stopped = false;
  return {
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const { profile } = (await post(end)) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

function startHeap(file: string | undefined): Promise<CpuProfiler> {
  const sampling = { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
  return profileTo(file, [['HeapProfiler.enable'], ['HeapProfiler.startSampling', sampling]], 'HeapProfiler.stopSampling');
}

function startCpu(file: string | undefined): Promise<CpuProfiler> {
  return profileTo(file, [['Profiler.enable'], ['Profiler.setSamplingInterval', { interval: 500 }], ['Profiler.start']], 'Profiler.stop');
}

/** Opt-in heap snapshot of the extension host (what it holds: open it in Chrome DevTools' Memory tab). */
export async function writeHeapSnapshot(file: string | undefined): Promise<void> {
  if (!file) return;
  const { writeHeapSnapshot: write } = await import('node:v8');
  write(file);
}
