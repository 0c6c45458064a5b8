// Opt-in CPU profile of the extension host over a measured window, taken from inside it
// (node:inspector, same process: no --inspect port needed). Open the .cpuprofile in VS Code or
// Chrome DevTools to see what held the loop.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

export interface CpuProfiler {
  /** Writes the profile to the file given at start, once (no-op when profiling was not asked for). */
  stop(): Promise<void>;
}

export async function startCpuProfile(file: string | undefined): Promise<CpuProfiler> {
  if (!file) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  let stopped = false;
  return {
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** Opt-in heap snapshot of the extension host (what it holds: open it in Chrome DevTools' Memory tab). */
export async function writeHeapSnapshot(file: string | undefined): Promise<void> {
  if (!file) return;
  const { writeHeapSnapshot: write } = await import('node:v8');
  write(file);
}
