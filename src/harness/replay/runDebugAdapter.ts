// Runs the replay debug adapter over stdio until the client disconnects. Shared by the
// stand-alone bundle (dist/debugAdapter.js) and `kite debug-adapter`.
import { KiteDebugSession } from './debugSession';
import { windowQuery, type TranscriptWindow } from './transcriptWindow';
import { writeDocUriString } from './writeSnapshot';
import { idleScheduling, lowerOwnSchedulingGroup, lowerThisThreadsPriority } from '../backgroundPriority';

/** Set by the VS Code extension when it runs this adapter as a process (live mode). */
export const TRANSCRIPT_URIS_ENV = 'KITE_DAP_TRANSCRIPT_URIS';

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
  // own session (adapterPlacement.ts): its scheduling group is lowered too.
  const onRecordedReplay = (): void => {
    lowerThisThreadsPriority();
    lowerOwnSchedulingGroup();
    idleScheduling('process');
  };
  const session = new KiteDebugSession({ ...uris, onRecordedReplay });
  return new Promise((resolve) => {
    process.on('SIGTERM', () => session.shutdown());
    process.stdin.on('end', () => resolve(0));
    session.start(process.stdin, process.stdout);
  });
}
