// The loads of timelineLoad.test that are not the extension host's work, in child processes as in
// real use: the big log is written beforehand (test/bench/genLog.ts), and a run streams into its
// log from its own process (test/helpers/streamLog.ts), as the harness does. Both scripts are
// bundled next to the test bundles (scripts/build-tests.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

function node(script: string, args: string[]): ChildProcess {
  // ELECTRON_RUN_AS_NODE: on desktop the extension host's binary is Electron.
  return spawn(process.execPath, [join(__dirname, script), ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
}

function collect(child: ChildProcess): { text: () => string } {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return { text: () => out };
}

/** Writes a realistic log of `events` events to `path`; resolves with the number written. */
export function writeBigLog(path: string, events: number): Promise<number> {
  const child = node('genLog.js', [path, String(events)]);
  const out = collect(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const n = /: ([\d,]+) events/.exec(out.text())?.[1];
      if (code === 0 && n) resolve(Number(n.replace(/,/g, '')));
      else reject(new Error(`genLog.js exited ${code}: ${out.text().trim()}`));
    });
  });
}

export interface StreamingRun {
  /** The log being written. */
  path: string;
  /** Stops the stream; resolves with the number of events written. */
  stop(): Promise<number>;
}

/** A run streaming 50 events/s into `<dir>/<runId>.jsonl`, from its own process. */
export function streamRun(dir: string, runId: string): Promise<StreamingRun> {
  const child = node('streamLog.js', [dir, runId]);
  const out = collect(child);
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const stop = async (): Promise<number> => {
    child.stdin?.end();
    const code = await closed;
    const n = /written (\d+)/.exec(out.text())?.[1];
    if (code !== 0 || !n) throw new Error(`streamLog.js exited ${code}: ${out.text().trim()}`);
    return Number(n);
  };
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    const onData = (): void => {
      const path = /^log (.+)\n/m.exec(out.text())?.[1];
      if (!path) return;
      child.stdout?.off('data', onData);
      resolve({ path, stop });
    };
    child.stdout?.on('data', onData);
    void closed.then((code) => reject(new Error(`streamLog.js exited ${code} before its log existed: ${out.text().trim()}`)));
  });
}
