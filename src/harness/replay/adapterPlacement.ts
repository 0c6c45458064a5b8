// Where VS Code runs Kite's debug adapter (extension/debug/registerReplayDebugger.ts): inline in
// the extension host for an ordinary recorded log (reading a log is all it does), in its own
// process for a live replay (it runs the agent loop, which never runs in the extension host) and
// for a very large log (indexing it takes seconds). One rule, shared with the host-blocking bench.
import { statSync } from 'node:fs';

/** Logs above this size (~15,000 events) are indexed in the adapter's own process. */
export const OUT_OF_PROCESS_BYTES = 16 * 1024 * 1024;

export function adapterRunsOutOfProcess(mode: unknown, log: unknown): boolean {
  return mode === 'live' || logSize(log) > OUT_OF_PROCESS_BYTES;
}

function logSize(log: unknown): number {
  if (typeof log !== 'string') return 0;
  try {
    return statSync(log).size;
  } catch {
    return 0; // missing: the adapter answers launch with the reason
  }
}
