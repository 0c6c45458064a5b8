// The worker thread of a timeline's reader (timelineFeedThread.ts starts it with a FeedJob): reads
// with TimelineFeed, moves each packed batch to the view, waits for `next` before reading on, and
// answers the view's requests for one event or line.
import { parentPort, workerData } from 'node:worker_threads';
import type { FeedJob, FeedReport, FeedRequest } from '../protocol/timelineFeedMessages';
import { TimelineFeed } from './timelineFeed';
import { idleScheduling, lowerThisThreadsPriority, ordinaryScheduling } from '../backgroundPriority';

export function runTimelineFeedWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('the timeline reader runs on a worker thread');
  // This thread only (Linux): the host's event loop, in the same process, keeps its priority.
  lowerThisThreadsPriority();
  // The history under SCHED_IDLE (no one waits on its far end); once it is read, what follows is
  // a live run's appends, which a person watches as they come: ordinary policy (still nice 10).
  let idle = idleScheduling('thread');
  let goOn: (() => void) | null = null;
  const send = (r: FeedReport): void | Promise<void> => {
    if (r.type !== 'batch') return port.postMessage(r);
    if (idle && r.initial && r.done) {
      idle = false;
      ordinaryScheduling();
    }
    port.postMessage(r, [r.message.json]);
    return new Promise<void>((resolve) => (goOn = resolve));
  };
  const feed = new TimelineFeed(workerData as FeedJob, send);
  const answer = (id: number, work: Promise<Partial<FeedReport & { type: 'answer' }>>): void =>
    void work.then(
      (value) => port.postMessage({ type: 'answer', id, ...value }),
      (e: unknown) => port.postMessage({ type: 'answer', id, error: e instanceof Error ? e.message : String(e) }),
    );
  port.on('message', (m: FeedRequest) => {
    switch (m.type) {
      case 'next': {
        const resolve = goOn;
        goOn = null;
        resolve?.();
        return;
      }
      case 'event':
        return answer(m.id, feed.event(m.seq).then((event) => ({ event })));
      case 'raw':
        return answer(m.id, feed.rawLine(m.seq).then((raw) => ({ raw })));
      default:
        m satisfies never;
    }
  });
  void feed.start();
}

runTimelineFeedWorker();
