// The text of a run's transcript document, as the extension shows it (`kite-transcript:`): the
// same lines as the debug adapter's transcript, read the adapter's way (a lazily read log, the
// events parsed when their line is made), built in slices so the extension host's loop is never
// held for long, even on a 1M-event log. Problems go below the text, never shifting line numbers.
// A huge log's transcript is asked for one window at a time (transcriptWindow.ts): the indexed
// log is kept for a while, so stepping into the next window does not index the log again.
import { stat } from 'node:fs/promises';
import { readLog, runIdOf, type LogProblem } from '../events/reader';
import { openLazyLog, verifyChain, type LazyLog } from './lazyLog';
import { buildTranscript, transcriptOfSliced, transcriptTextSliced, transcriptWindowText, withLogProblems, type Transcript } from './transcript';
import type { TranscriptWindow } from './transcriptWindow';

interface IndexedLog {
  log: string;
  size: number;
  mtimeMs: number;
  transcript: Transcript;
  problems: LogProblem[];
  lazy: LazyLog | null;
}

/** How long an indexed log is kept after its last document was made. */
const KEEP_MS = 120_000;
let kept: { indexed: Promise<IndexedLog>; timer: NodeJS.Timeout } | null = null;

function forget(): void {
  if (!kept) return;
  clearTimeout(kept.timer);
  const { indexed } = kept;
  kept = null;
  void indexed.then((i) => i.lazy?.close(), () => undefined);
}

async function indexLog(log: string, size: number, mtimeMs: number): Promise<IndexedLog> {
  const later: LogProblem[] = [];
  const lazy = await openLazyLog(log, { onProblem: (p) => later.push(p) });
  if (!lazy) {
    // A Python Kite log is normalized in order: read whole (such logs are small).
    const whole = await readLog(log, { validation: 'structural' });
    return { log, size, mtimeMs, transcript: buildTranscript(whole.events, runIdOf(log)), problems: whole.problems, lazy: null };
  }
  try {
    await verifyChain(lazy.log, (p) => later.push(p));
  } catch (e) {
    lazy.log.close();
    throw e;
  }
  const problems = [...lazy.problems, ...later];
  return { log, size, mtimeMs, transcript: await transcriptOfSliced(lazy.index, runIdOf(log)), problems, lazy: lazy.log };
}

/** The indexed log, reused while the file is unchanged (same size and modification time). */
async function indexed(log: string): Promise<IndexedLog> {
  const st = await stat(log);
  if (kept) {
    const prev = await kept.indexed.catch(() => null);
    if (kept && prev && prev.log === log && prev.size === st.size && prev.mtimeMs === st.mtimeMs) {
      kept.timer.refresh();
      return prev;
    }
    forget();
  }
  const promise = indexLog(log, st.size, st.mtimeMs);
  const timer = setTimeout(forget, KEEP_MS);
  timer.unref();
  kept = { indexed: promise, timer };
  promise.catch(() => {
    if (kept?.indexed === promise) forget();
  });
  return promise;
}

/** The document's text: the whole transcript, or the window asked for; the log's problems below it. */
export async function transcriptDocumentText(log: string, window: TranscriptWindow | null = null): Promise<string> {
  const { transcript, problems } = await indexed(log);
  const text = window ? await transcriptWindowText(transcript, window) : await transcriptTextSliced(transcript);
  return withLogProblems(text, problems);
}

/** Lets go of the kept index now (the extension deactivating; tests). */
export function forgetIndexedLogs(): void {
  forget();
}
