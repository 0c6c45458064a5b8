// Where a timeline's reader runs: on a worker thread for a log of FEED_WORKER_MIN_BYTES or more
// (parsing, trimming and packing its history is tens of seconds of CPU at a million events, which
// must not run on the extension host's event loop, issue 17), inline for a small one (a worker
// costs a thread and a bundle load, more than reading a small log takes). Both behave the same
// to the view: reports in order, a batch's promise paces the reader, requests answered by seq.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { KiteEvent } from '../protocol/events';
import type { FeedJob, FeedReport, FeedRequest } from '../protocol/timelineFeedMessages';
import { TimelineFeed, type FeedSink } from './timelineFeed';
import { workerScript, type WorkerScript } from '../workerScript';

export const FEED_WORKER_MIN_BYTES = 4 << 20;

export interface FeedHandle {
  /** On a worker thread (false: inline). */
  readonly threaded: boolean;
  event(seq: number): Promise<KiteEvent | null>;
  rawLine(seq: number): Promise<string | null>;
  dispose(): void;
}

/** Starts reading `job.log`; reports go to `sink` (also when the reader fails). */
export function openTimelineFeed(job: FeedJob, sink: FeedSink, opts: { workerMinBytes?: number } = {}): FeedHandle {
  const min = opts.workerMinBytes ?? FEED_WORKER_MIN_BYTES;
  const entry = workerScript(__filename, __dirname, 'timelineFeedWorker.ts', 'timelineFeed.js');
  if (entry !== null && sizeOf(job.log) >= min) return new FeedWorker(entry, job, sink);
  const feed = new TimelineFeed(job, sink);
  void feed.start();
  return { threaded: false, event: (s) => feed.event(s), rawLine: (s) => feed.rawLine(s), dispose: () => feed.dispose() };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // the inline reader reports why it cannot read it
  }
}

class FeedWorker implements FeedHandle {
  readonly threaded = true;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: FeedReport & { type: 'answer' }) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private ended: string | null = null;
  /** Reports are handed to the sink one after another: a batch's promise holds the ones after it. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    entry: WorkerScript,
    job: FeedJob,
    private readonly sink: FeedSink,
  ) {
    // stdout/stderr piped, never inherited: nothing a worker prints reaches the host's output.
    this.worker = new Worker(entry.script, { workerData: job, eval: entry.eval, stdout: true, stderr: true });
    this.worker.on('message', (r: FeedReport) => this.received(r));
    this.worker.on('error', (e) => this.end(`the timeline's reader failed: ${e.message}`));
    this.worker.on('exit', (code) => this.end(`the timeline's reader stopped (exit code ${code})`));
  }

  private received(r: FeedReport): void {
    if (r.type === 'answer') {
      const p = this.pending.get(r.id);
      this.pending.delete(r.id);
      p?.resolve(r);
      return;
    }
    this.queue = this.queue.then(async () => {
      try {
        await this.sink(r);
      } finally {
        // Even when the view failed on it: a reader left waiting would never read on.
        if (r.type === 'batch' && this.ended === null) this.post({ type: 'next' });
      }
    }).catch(() => undefined);
  }

  private post(m: FeedRequest): void {
    this.worker.postMessage(m);
  }

  private ask(m: { type: 'event' | 'raw'; seq: number }): Promise<FeedReport & { type: 'answer' }> {
    if (this.ended !== null) return Promise.reject(new Error(this.ended));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ ...m, id });
    });
  }

  async event(seq: number): Promise<KiteEvent | null> {
    const r = await this.ask({ type: 'event', seq });
    if (r.error !== undefined) throw new Error(r.error);
    return r.event ?? null;
  }

  async rawLine(seq: number): Promise<string | null> {
    const r = await this.ask({ type: 'raw', seq });
    if (r.error !== undefined) throw new Error(r.error);
    return r.raw ?? null;
  }

  /** No more answers: requests in flight fail with why. False when it had already ended. */
  private stop(why: string): boolean {
    if (this.ended !== null) return false;
    this.ended = why;
    for (const p of this.pending.values()) p.reject(new Error(why));
    this.pending.clear();
    return true;
  }

  /** The worker is gone on its own: the view hears why (not after dispose, which asked for it). */
  private end(why: string): void {
    if (this.stop(why)) this.queue = this.queue.then(() => this.sink({ type: 'error', message: why })).catch(() => undefined);
  }

  dispose(): void {
    this.stop('the timeline was closed');
    void this.worker.terminate();
  }
}
