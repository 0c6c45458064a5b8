// What the Runs view lists, without VS Code: the logs of one folder, newest first, each summarised
// from its head and tail (an unfinished one folded on, events/runLogSummary.ts). A node is the same
// object for the same log from one listing to the next, so the view can redraw ONE node — the log a
// run is streaming into — by handing VS Code that object back (it matches elements by identity).
// While a run streams, re-listing the folder at every change costs a readdir, a stat per log and a
// whole tree's items sent to the window four times a second; one node costs a stat and its tail.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compareRunLogNames } from '../../harness/events/runLogOrder';
import { OpenLogTotals, readLogSummary, type RunLogSummary } from '../../harness/events/runLogSummary';

export interface RunNode {
  path: string;
  summary: RunLogSummary;
  running: boolean;
}

/** At most this many logs are listed (the newest). */
export const RUNS_LISTED = 200;

/** From this size an unfinished log is listed at once and its totals counted after (~60 ms of folding
 *  here; a 1 GB log takes seconds, and the view showed no row until every log was counted). */
export const COUNT_LATER_FROM_BYTES = 16 << 20;

/** The names of the run logs in `dir` (none when it is missing). */
async function runLogNames(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
}

/** Whether `dir` holds a run log (no summary read: what the context key kite.hasRuns needs). */
export async function hasRunLogs(dir: string): Promise<boolean> {
  return (await runLogNames(dir)).length > 0;
}

export class RunsListing {
  /** The nodes of the last listing, by path. */
  private readonly nodes = new Map<string, RunNode>();
  /** Summaries by path, reused while size and mtime are unchanged (a refresh re-reads only the growing log). */
  private readonly cache = new Map<string, { size: number; mtimeMs: number; summary: RunLogSummary }>();
  /** Unfinished runs' totals, folded on from where the last refresh stopped (a running log grows at every refresh). */
  private readonly openTotals = new OpenLogTotals();
  /** How many times a folder was listed (the bench and tests read it). */
  listings = 0;
  /** Big unfinished logs whose totals are being counted after their listing. */
  private readonly counting = new Set<string>();

  /**
   * `countLater`, for a view's listings (list(…, true)): a big unfinished log (from `fromBytes`) is
   * listed at once from its head and tail (`summary.counting`) and `counted(path)` is called once
   * its fold is done (then update(path) gives its totals). Other listings are whole when they return.
   */
  constructor(private readonly countLater: { fromBytes: number; counted: (path: string) => void } | null = null) {}

  /** The logs of `dir`, newest first; `running` says which a run of Kite's is writing now; `countLater`: see the constructor. */
  async list(dir: string, running: ReadonlySet<string>, countLater = false): Promise<RunNode[]> {
    this.listings++;
    const names = await runLogNames(dir);
    names.sort((a, b) => compareRunLogNames(b, a)); // newest first
    const paths = names.slice(0, RUNS_LISTED).map((n) => join(dir, n));
    const read = await Promise.all(paths.map((path) => this.summaryOf(path, countLater ? this.countLater : null)));
    const listed: RunNode[] = [];
    paths.forEach((path, i) => {
      const summary = read[i];
      if (!summary) return; // deleted meanwhile
      const node = this.nodes.get(path) ?? { path, summary, running: false };
      node.summary = summary;
      node.running = running.has(path);
      listed.push(node);
    });
    this.nodes.clear();
    for (const node of listed) this.nodes.set(node.path, node);
    for (const path of this.cache.keys()) if (!this.nodes.has(path)) this.cache.delete(path);
    this.openTotals.retain(new Set(listed.filter((n) => n.summary.outcome === 'open').map((n) => n.path)));
    return listed;
  }

  /**
   * The node of a log that grew, its summary read again (the same object, changed in place), or
   * null when the last listing did not have it or it is gone: then the folder must be listed.
   */
  async update(path: string, running: ReadonlySet<string>): Promise<RunNode | null> {
    const node = this.nodes.get(path);
    if (!node) return null;
    const summary = await this.summaryOf(path, null);
    if (!summary) return null;
    node.summary = summary;
    node.running = running.has(path);
    return node;
  }

  /** A log's summary, read again only when its size or mtime changed; null when it is gone. */
  private async summaryOf(path: string, later: RunsListing['countLater']): Promise<RunLogSummary | null> {
    try {
      const st = await stat(path);
      const hit = this.cache.get(path);
      if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.summary;
      if (later && st.size >= later.fromBytes && (this.counting.has(path) || !this.openTotals.has(path))) {
        const quick = await readLogSummary(path, null);
        if (!quick.counting) this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, summary: quick });
        else if (!this.counting.has(path)) this.countInBackground(path, later.counted);
        return quick;
      }
      const summary = await readLogSummary(path, this.openTotals);
      this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, summary });
      return summary;
    } catch {
      this.cache.delete(path);
      return null;
    }
  }

  private countInBackground(path: string, counted: (path: string) => void): void {
    this.counting.add(path);
    void this.summaryOf(path, null).finally(() => {
      this.counting.delete(path);
      counted(path);
    });
  }
}
