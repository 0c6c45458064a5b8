// The worker of a split `kite timeline` (events/timelineSplit.ts): reads its part of the log with
// the one reader and the one formatter, and sends back its rows and the events the run's last line
// is folded from — or why its part needs the main thread (any problem, anything unusual).
import { parentPort, workerData } from 'node:worker_threads';
import type { KiteEvent } from '../protocol/events';
import { ChainChecker } from './chain';
import { LogRangeReader, openLogFile } from './reader';
import { TimelineFormatter } from './timeline';
import { TAIL_KINDS } from './timelineTail';
import type { SplitJob, SplitResult } from './timelineSplit';

export async function splitWorkerResult(job: SplitJob): Promise<SplitResult> {
  const fh = await openLogFile(job.path);
  try {
    const formatter = new TimelineFormatter();
    // The run's first event: the formatter's gate limit comes from it.
    const head = new LogRangeReader(job.path, (e) => void (e.kind === 'session_start' && formatter.row(e)), { validation: 'structural' });
    await head.read(fh, 0, job.headEnd);
    const rows: string[] = [];
    const tail: KiteEvent[] = [];
    const answered = new Set<string>(); // calls whose policy or approval is in this part
    let unusual: string | null = null;
    const reader = new LogRangeReader(
      job.path,
      (e) => {
        if (rows.length === 0 && tail.length === 0 && e.kind !== 'model') unusual ??= `the part starts with a ${e.kind} event, not a model event`;
        if (e.kind === 'policy' || e.kind === 'approval') answered.add(e.id);
        else if (e.kind === 'tool' && e.error_code === 'denied' && !answered.has(e.id)) unusual ??= `call ${e.id} was decided before this part`;
        const row = formatter.row(e);
        if (row !== null) rows.push(row);
        if (TAIL_KINDS.has(e.kind)) tail.push(e.kind === 'model' ? { ...e, content: [] } : e);
      },
      { validation: 'structural' },
      new ChainChecker(job.prevHash, 1),
    );
    await reader.read(fh, job.start, Number.POSITIVE_INFINITY);
    const r = reader.finish();
    if (unusual !== null) return { ok: false, why: unusual };
    // Its line numbers count from the cut: the main thread's read reports the real ones.
    if (r.problems.length) return { ok: false, why: r.problems[0].message.replace(/^line \d+: /, '') };
    if (r.format !== 'kite' || r.count === 0) return { ok: false, why: 'not a current Kite log' };
    return { ok: true, rows: rows.join('\n'), tail };
  } catch (e) {
    return { ok: false, why: e instanceof Error ? e.message : String(e) };
  } finally {
    await fh.close();
  }
}

/** The worker thread's whole job: one result message. */
export function runTimelineWorker(): void {
  void splitWorkerResult(workerData as SplitJob).then((r) => parentPort?.postMessage(r));
}
