// Where VS Code runs Kite's debug adapter (extension/debug/registerReplayDebugger.ts): inline in
// the extension host for an ordinary recorded log (reading a log is all it does), in its own
// process for a live replay (it runs the agent loop, which never runs in the extension host) and
// for a very large log (indexing it takes seconds). One rule, shared with the host-blocking bench.
import { existsSync, statSync } from 'node:fs';

/** Logs above this size (~15,000 events) are indexed in the adapter's own process. */
export const OUT_OF_PROCESS_BYTES = 16 * 1024 * 1024;

export function adapterRunsOutOfProcess(mode: unknown, log: unknown): boolean {
  return mode === 'live' || logSize(log) > OUT_OF_PROCESS_BYTES;
}

/** Set to 1 in the adapter's environment by the extension: its transcripts and write frames are
 *  the extension's `kite-transcript:` and `kite-file:` documents. */
export const TRANSCRIPT_URIS_ENV = 'KITE_DAP_TRANSCRIPT_URIS';

/** Set to 1 in the adapter's environment when the extension starts it for a recorded log: its
 *  launcher (debugAdapterLauncher.ts) makes the process background work before the bundle loads. */
export const RECORDED_REPLAY_ENV = 'KITE_DAP_RECORDED';

/** Set by the extension (adapterSpawn.ts): the adapter serves one client on this Unix socket (a
 *  named pipe on Windows) instead of stdio, and says `ready` on stdout once it listens. */
export const DAP_PIPE_ENV = 'KITE_DAP_PIPE';

/** The private directory of an adapter's socket (in the temporary directory) starts so; the adapter
 *  removes it when it ends (the extension host may be gone by then). */
export const SOCKET_DIR_PREFIX = 'kite-dap-sock-';

/** The environment the extension adds for the adapter process of a launch in `mode`. */
export function adapterEnvironment(mode: unknown): Record<string, string> {
  // ELECTRON_RUN_AS_NODE: on desktop the extension host's binary is Electron.
  return { ELECTRON_RUN_AS_NODE: '1', [TRANSCRIPT_URIS_ENV]: '1', [RECORDED_REPLAY_ENV]: mode === 'live' ? '0' : '1' };
}

/** util-linux's setsid: on Debian, Ubuntu, Fedora, Arch... always there (and checked each time). */
export const SETSID = '/usr/bin/setsid';

/**
 * The command that starts the adapter process (adapterSpawn.ts runs it from a worker thread; VS Code
 * runs it itself if that fails): on Linux, through setsid, so the adapter leads
 * a session of its own. With autogroup scheduling on (most desktop distributions) the CPU is shared
 * between sessions first: in the extension host's session, a recorded replay indexing a 1M-event
 * log spent that session's share, and the host's loop waited 60-110 ms for a CPU however low the
 * adapter's nice (measured in the 1M-event load test); in its own session it lowers its own group
 * (backgroundPriority.ts). setsid does not fork when its caller is not a process group leader (the
 * spawner and VS Code start it so), so the process started, talked to and stopped is the adapter.
 */
export function adapterCommand(execPath: string, adapterJs: string, platform = process.platform): { command: string; args: string[] } {
  if (platform === 'linux' && existsSync(SETSID)) return { command: SETSID, args: [execPath, adapterJs] };
  return { command: execPath, args: [adapterJs] };
}

function logSize(log: unknown): number {
  if (typeof log !== 'string') return 0;
  try {
    return statSync(log).size;
  } catch {
    return 0; // missing: the adapter answers launch with the reason
  }
}
