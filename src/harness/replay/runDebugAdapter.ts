// Runs the replay debug adapter over stdio until the client disconnects. Shared by the
// stand-alone bundle (dist/debugAdapter.js) and `kite debug-adapter`.
import { KiteDebugSession } from './debugSession';
import { windowQuery, type TranscriptWindow } from './transcriptWindow';
import { writeDocUriString } from './writeSnapshot';
import { backgroundProcess } from '../backgroundPriority';
import { TRANSCRIPT_URIS_ENV } from './adapterPlacement';

/** `kite-transcript:` URI of a log's transcript (or a window of it), encoded like vscode.Uri.from({scheme, path, query}). */
export function transcriptUriString(log: string, window: TranscriptWindow | null = null): string {
  const path = 'kite-transcript:' + `${log}.kite-transcript`.split('/').map(encodeURIComponent).join('/');
  return window ? `${path}?${encodeURIComponent(windowQuery(window))}` : path;
}

export function runDebugAdapter(): Promise<number> {
  // With the extension as client, transcripts and write frames are its `kite-transcript:` and `kite-file:` documents (breakpoints
  // set there reach this process); any other client gets them by reference.
  const uris = process.env[TRANSCRIPT_URIS_ENV] === '1' ? { transcriptUri: transcriptUriString, writeUri: writeDocUriString } : {};
  // Indexing a recorded log is background work: the person waits on the editor (the extension
  // host, the window), which it must not take the CPU from. A live replay runs the agent loop and
  // its commands, which keep the usual priority. Started by the extension, the adapter leads its
  // own session (adapterPlacement.ts): its scheduling group is lowered too. (Started by the
  // extension for a recorded log, the launcher did it before the bundle loaded: nothing is left to do.)
  const session = new KiteDebugSession({ ...uris, onRecordedReplay: () => backgroundProcess() });
  return new Promise((resolve) => {
    process.on('SIGTERM', () => session.shutdown());
    process.stdin.on('end', () => resolve(0));
    session.start(process.stdin, process.stdout);
  });
}
