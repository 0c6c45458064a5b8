// The worker thread that starts a replay adapter process for the extension (adapterSpawn.ts).
// Node's spawn() blocks the calling thread until the child has exec'd, and the child must get a
// CPU first: 12 ms on an idle machine here, 30-100 ms on a busy one — a stall of the extension
// host's loop if VS Code spawned it there. This thread takes that wait, then holds the child's
// stdout and stderr (the adapter speaks DAP on its socket) until it exits.
import { spawn } from 'node:child_process';
import { parentPort, workerData } from 'node:worker_threads';
import type { AdapterSpawnJob, AdapterSpawnReport } from './adapterSpawn';

const STDERR_KEPT = 4_000;

function run(): void {
  const port = parentPort;
  if (!port) throw new Error('the adapter spawner runs on a worker thread');
  const job = workerData as AdapterSpawnJob;
  const report = (r: AdapterSpawnReport) => port.postMessage(r);
  let stderr = '';
  let ready = false;
  const child = spawn(job.command, job.args, { env: job.env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-STDERR_KEPT)));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (ready) return;
    out += d;
    if (!out.includes('ready\n')) return;
    ready = true;
    report({ type: 'ready', pid: child.pid ?? 0 });
  });
  child.on('error', (e) => report({ type: 'exit', code: null, signal: null, stderr: `${e.message}${stderr ? `\n${stderr}` : ''}` }));
  child.on('exit', (code, signal) => report({ type: 'exit', code, signal, stderr }));
  port.on('message', (m: { type: 'kill' }) => {
    if (m.type === 'kill') child.kill();
  });
}

run();
