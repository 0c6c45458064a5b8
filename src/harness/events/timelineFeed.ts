// Reads a log for a timeline view and turns it into the page's messages: the history in batches
// (far from its end cut to what the rows show), then what is appended. Each batch leaves packed
// (deflated: events/deflatePacked.ts) with the few facts the host keeps (write calls, the run's start).
// No 'vscode' here: it runs on a worker thread for a big log (timelineFeedThread.ts), so that
// parsing, trimming and packing a million events never hold the extension host's event loop.
import type { KiteEvent, SessionStart } from '../protocol/events';
import type { FeedJob, FeedReport, WriteFact } from '../protocol/timelineFeedMessages';
import { VIEW_BATCH, VIEW_BATCH_BYTES, farFromHistoryEnd, trimEventForRow, trimEventForView, type HostMessage } from '../protocol/webviewMessages';
import { LogTailer, type TailBatch, type TailerEvent } from './logTailer';
import { writeFactOf } from './writeResolver';
import { packDeflated } from './deflatePacked';

/** Where a batch goes; its promise (a batch's) is awaited before the next is read: the page's pace. */
export type FeedSink = (r: FeedReport) => void | Promise<void>;

/** A live run's appends are read at most this long after the first of them (the page draws appended
 *  events every 100 ms anyway): at most ~20 messages a second, whatever the run's pace. */
export const LIVE_GATHER_MS = 50;

export class TimelineFeed {
  private readonly tailer: LogTailer;
  private snapshotSent = false;
  /** Events of the history read so far (for farFromHistoryEnd). */
  private historyEvents = 0;

  constructor(
    private readonly job: FeedJob,
    private readonly sink: FeedSink,
  ) {
    // Structural check per line (zod only where it fails; event() parses in full), batches small
    // enough (in events and in bytes) that one never holds its thread for long, and a live run's
    // appends gathered: each message to the page and its report back is work on the extension
    // host's loop (and a compression job in a remote window), 50 a second for a run at 50 events/s.
    this.tailer = new LogTailer(job.log, (e) => this.onTail(e), { batchSize: VIEW_BATCH, firstBatchSize: 500, batchBytes: VIEW_BATCH_BYTES, validation: 'structural', gatherMs: LIVE_GATHER_MS });
  }

  /** Reads the history, then follows the file; a log that cannot be read is reported, not thrown. */
  async start(): Promise<void> {
    try {
      await this.tailer.start();
    } catch (e) {
      await this.sink({ type: 'error', message: `Cannot read ${this.job.log}: ${String(e)}` });
    }
  }

  event(seq: number): Promise<KiteEvent | null> {
    return this.tailer.event(seq);
  }

  rawLine(seq: number): Promise<string | null> {
    return this.tailer.rawLine(seq);
  }

  dispose(): void {
    this.tailer.dispose();
  }

  private onTail(e: TailerEvent): void | Promise<void> {
    if (e.type === 'batch') return this.sink(this.packBatch(e.batch));
    return this.sink(e);
  }

  private packBatch(batch: TailBatch): FeedReport {
    // A big history's batches far from its end: the page keeps none of their events whole, so
    // only what their rows show is sent (about a third fewer bytes to pack, send and unpack).
    if (batch.initial) this.historyEvents += batch.events.length;
    const rowsOnly = batch.initial && !batch.done && farFromHistoryEnd(batch.bytesRead, batch.bytesTotal, this.historyEvents);
    const trim = rowsOnly ? trimEventForRow : trimEventForView;
    const writes: WriteFact[] = [];
    let start: SessionStart | null = null;
    const events: KiteEvent[] = [];
    for (const ev of batch.events) {
      const fact = writeFactOf(ev);
      if (fact) writes.push(fact);
      if (ev.kind === 'session_start') start = ev;
      events.push(trim(ev));
    }
    const loading = batch.initial && !batch.done;
    const more = rowsOnly ? { rowsOnly } : {};
    let msg: HostMessage;
    if (!this.snapshotSent) {
      this.snapshotSent = true;
      // About how many events the whole history has, from the bytes the first batch took.
      const total = batch.bytesRead > 0 ? Math.round((events.length * batch.bytesTotal) / batch.bytesRead) : events.length;
      msg = { type: 'snapshot', source: this.job.source, total, events, problems: batch.problems, loading, ...more };
    } else {
      msg = { type: 'append', events, problems: batch.problems, loading, ...more };
    }
    return { type: 'batch', message: packDeflated(msg), initial: batch.initial, done: batch.done, events: events.length, writes, start };
  }
}
