// Starts the replay adapter's process for the extension without blocking the extension host's
// loop: a worker thread spawns it (adapterSpawnWorker.ts), the adapter serves DAP on a socket in a
// private directory (runDebugAdapter.ts, DAP_PIPE_ENV), and VS Code connects to that socket
// (DebugAdapterNamedPipeServer). No `vscode` here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { DAP_PIPE_ENV, SOCKET_DIR_PREFIX } from './adapterPlacement';
import { workerScript } from '../workerScript';

export interface AdapterSpawnJob {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export type AdapterSpawnReport = { type: 'ready'; pid: number } | { type: 'exit'; code: number | null; signal: NodeJS.Signals | null; stderr: string };

export interface StartedAdapter {
  /** The socket (a named pipe on Windows) the adapter serves its one client on. */
  pipe: string;
  pid: number;
  /** Resolves when the adapter process has exited (and its directory is gone). */
  exited: Promise<void>;
  /** Stops the adapter (it also ends by itself when its client disconnects). */
  kill(): void;
}

/** How long the adapter may take to listen before the start counts as failed. */
const READY_MS = 30_000;

/**
 * Starts `command args` with `env` plus DAP_PIPE_ENV and resolves once it listens. Rejects with
 * the adapter's own words (its stderr) when it exits first, or after READY_MS.
 */
export function startAdapterProcess(job: AdapterSpawnJob, spawner = workerScript(__filename, __dirname, 'adapterSpawnWorker.ts', 'adapterSpawn.js')): Promise<StartedAdapter> {
  if (!spawner) return Promise.reject(new Error('the adapter spawner is not built (dist/adapterSpawn.js)'));
  // mkdtemp makes the directory 0700: no other user can reach the socket in it.
  const dir = process.platform === 'win32' ? null : mkdtempSync(join(tmpdir(), SOCKET_DIR_PREFIX));
  const pipe = dir ? join(dir, 'dap.sock') : `\\\\.\\pipe\\kite-dap-${randomBytes(12).toString('hex')}`;
  const cleanup = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const worker = new Worker(spawner.script, { eval: spawner.eval, workerData: { ...job, env: { ...job.env, [DAP_PIPE_ENV]: pipe } } satisfies AdapterSpawnJob, stdout: true, stderr: true });
  let exitedResolve!: () => void;
  const exited = new Promise<void>((r) => (exitedResolve = r));
  return new Promise<StartedAdapter>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      worker.postMessage({ type: 'kill' });
      reject(new Error(`the debug adapter did not start listening within ${READY_MS / 1000} s`));
    }, READY_MS);
    const ended = () => {
      clearTimeout(timer);
      cleanup();
      void worker.terminate();
      exitedResolve();
    };
    worker.on('message', (r: AdapterSpawnReport) => {
      if (r.type === 'ready' && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({ pipe, pid: r.pid, exited, kill: () => worker.postMessage({ type: 'kill' }) });
      } else if (r.type === 'exit') {
        ended();
        if (settled) return;
        settled = true;
        const how = r.signal ? `signal ${r.signal}` : `exit code ${r.code}`;
        reject(new Error(`the debug adapter stopped before it listened (${how})${r.stderr.trim() ? `: ${r.stderr.trim()}` : ''}`));
      }
    });
    worker.on('error', (e) => {
      ended();
      if (settled) return;
      settled = true;
      reject(new Error(`the adapter spawner failed: ${e.message}`));
    });
  });
}
