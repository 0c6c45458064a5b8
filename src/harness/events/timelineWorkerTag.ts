// Whether this thread is the worker of a split `kite timeline` (events/timelineSplit.ts starts it
// with this tag in its workerData). Its own tiny module: the CLI's entry asks on every start, and
// the split's code (node:crypto for the chain) must not load for `kite --version` (issue 17).
import { isMainThread, workerData } from 'node:worker_threads';

export const TIMELINE_WORKER_TAG = 'timeline-split';

export function isTimelineWorker(): boolean {
  return !isMainThread && (workerData as { kite?: unknown } | null)?.kite === TIMELINE_WORKER_TAG;
}
