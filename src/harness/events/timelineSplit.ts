// `kite timeline` of a big log on two threads (issue 17): parsing and checking every line is most
// of the time, so a worker reads the last part of the file while the main thread reads the first.
// The worker starts at a `model` line (nothing there refers to an earlier line: argument references
// name the latest model event, and every call of earlier turns is finished), knowing the hash of
// the line before it (the chain goes on) and the run's first event (the formatter's gate limit).
// It sends back its rows as text and the events the run's last line is folded from; the main
// thread prints its own rows, then the worker's, then folds those events after its own.
// Anything unusual in the worker's part — any problem at all, a line that is not a Kite event,
// a denial whose policy it did not see — and the main thread reads that part itself, exactly as
// one reader would: the worker is only ever trusted with a clean log.
import { existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { KiteEvent } from '../protocol/events';
import { lineHash } from './chain';
import { TIMELINE_WORKER_TAG } from './timelineWorkerTag';

/** Below this size one thread is as fast (a worker costs a bundle load). */
export const SPLIT_MIN_BYTES = 16 << 20;
/** The worker's part of the file: less than half, it starts later (its own start-up). */
const WORKER_SHARE = 0.45;
/** How far past the split point to look for a `model` line. */
const WINDOW = 4 << 20;
/** Where a `model` line says so: within the envelope (v, seq, run, t, prev) at its start. */
const KIND_WITHIN = 512;
const MODEL_KIND = Buffer.from('"kind":"model"');
const NL = 0x0a;

export interface SplitJob {
  kite: typeof TIMELINE_WORKER_TAG;
  path: string;
  /** Byte offset of the worker's first line (a model event) and of the end of the first line. */
  start: number;
  headEnd: number;
  /** sha256 of the last line before `start`: what its first event's `prev` must be. */
  prevHash: string;
}

export type SplitResult = { ok: true; rows: string; tail: KiteEvent[] } | { ok: false; why: string };

/** Where a worker could start reading, or null (small, not a current Kite log, no model line near the middle). */
export async function planSplit(fh: FileHandle, path: string, size: number, minBytes = SPLIT_MIN_BYTES): Promise<SplitJob | null> {
  if (size < minBytes) return null;
  const head = Buffer.allocUnsafe(Math.min(size, 1 << 16));
  const { bytesRead: headRead } = await fh.read(head, 0, head.length, 0);
  const firstNl = head.indexOf(NL);
  if (firstNl < 0 || firstNl >= headRead || !head.subarray(0, 6).equals(Buffer.from('{"v":1'))) return null;
  const at = Math.floor(size * (1 - WORKER_SHARE));
  const win = Buffer.allocUnsafe(Math.min(WINDOW, size - at));
  const { bytesRead } = await fh.read(win, 0, win.length, at);
  let lineStart = win.indexOf(NL) + 1; // the first whole line of the window
  if (lineStart === 0) return null;
  for (let nl = win.indexOf(NL, lineStart); nl !== -1 && nl < bytesRead; nl = win.indexOf(NL, lineStart)) {
    const next = nl + 1;
    const nextNl = win.indexOf(NL, next);
    const prefix = win.subarray(next, Math.min(nextNl === -1 || nextNl > bytesRead ? bytesRead : nextNl, next + KIND_WITHIN));
    const line = win.subarray(lineStart, nl);
    if (prefix.indexOf(MODEL_KIND) !== -1 && line.toString('utf8').trim() !== '') {
      return { kite: TIMELINE_WORKER_TAG, path, start: at + next, headEnd: firstNl + 1, prevHash: lineHash(line) };
    }
    lineStart = next;
  }
  return null;
}

export interface SplitWorker {
  result: Promise<SplitResult>;
  cancel(): void;
}

/** Starts the worker on its part; a worker that fails in any way resolves to { ok: false }. */
export function startSplitWorker(job: SplitJob): SplitWorker {
  // Bundled (dist/cliMain.js): the program itself, which runs the worker when it is one (cli.ts).
  // From sources (tests under tsx): the worker's own entry file.
  const fromSources = __filename.endsWith('.ts');
  // Through the launcher next to the bundle when there is one (dist/cli.js): the worker starts from the code cache too.
  const launcher = join(__dirname, 'cli.js');
  const entry = fromSources ? `require('tsx/cjs'); require(${JSON.stringify(join(__dirname, 'timelineWorkerEntry.ts'))});` : __filename.endsWith('cliMain.js') && existsSync(launcher) ? launcher : __filename;
  const worker = new Worker(entry, {
    workerData: job,
    eval: fromSources,
    stdout: true, // nothing a worker prints may reach the timeline
    stderr: true,
  });
  const result = new Promise<SplitResult>((resolve) => {
    worker.once('message', (r: SplitResult) => resolve(r));
    worker.once('error', (e) => resolve({ ok: false, why: `the worker failed: ${e.message}` }));
    worker.once('exit', (code) => resolve({ ok: false, why: `the worker exited (${code}) without a result` }));
  });
  return { result, cancel: () => void worker.terminate() };
}
