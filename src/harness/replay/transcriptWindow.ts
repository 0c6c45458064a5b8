// A window of a huge log's transcript: a run of the whole transcript's lines shown as its own
// document (transcriptSource.ts says why). Pure: named in URIs the adapter makes and the
// extension's transcript documents read.
import { thousands } from '../protocol/thousands';

/** Lines [from, to] of the whole transcript (1-based, inclusive). */
export interface TranscriptWindow {
  from: number;
  to: number;
}

/** The `lines=FROM-TO` query of a window's URI. */
export function windowQuery(w: TranscriptWindow): string {
  return `lines=${w.from}-${w.to}`;
}

/** The window a URI query names, or null for the whole transcript (bad queries included). */
export function windowOfQuery(query: string): TranscriptWindow | null {
  const m = /(?:^|&)lines=(\d+)-(\d+)(?:&|$)/.exec(query);
  if (!m) return null;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return from >= 1 && to >= from ? { from, to } : null;
}

/** A window's line range for people: "lines 10,001–20,000". */
export function windowLabel(w: TranscriptWindow): string {
  // Not toLocaleString: loading Intl's locale data held the loop ~20 ms on the first window.
  return `lines ${thousands(w.from)}–${thousands(w.to)}`;
}

/** The adapter's custom DAP event when it found another problem in a log (body: `{ log, count }`):
 *  a transcript document of that log shown meanwhile lists its problems below the text, now stale. */
export const LOG_PROBLEMS_EVENT = 'kiteLogProblems';

/** The adapter's custom DAP event when the text of a transcript document it served changed
 *  (body: `{ log }`): a big log's first window, served while the log was still being indexed,
 *  has its run header's final counts once the index is complete. */
export const TRANSCRIPT_CHANGED_EVENT = 'kiteTranscriptChanged';
