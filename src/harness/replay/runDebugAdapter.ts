// Runs the replay debug adapter over stdio until the client disconnects. Shared by the
// stand-alone bundle (dist/debugAdapter.js) and `kite debug-adapter`.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname } from 'node:path';
import { KiteDebugSession } from './debugSession';
import { windowQuery, type TranscriptWindow } from './transcriptWindow';
import { writeDocUriString } from './writeSnapshot';
import { backgroundProcess } from '../backgroundPriority';
import { DAP_PIPE_ENV, SOCKET_DIR_PREFIX, TRANSCRIPT_URIS_ENV } from './adapterPlacement';

/** `kite-transcript:` URI of a log's transcript (or a window of it), encoded like vscode.Uri.from({scheme, path, query}). */
export function transcriptUriString(log: string, window: TranscriptWindow | null = null): string {
  const path = 'kite-transcript:' + `${log}.kite-transcript`.split('/').map(encodeURIComponent).join('/');
  return window ? `${path}?${encodeURIComponent(windowQuery(window))}` : path;
}

/** A client that never connects: the adapter gives up after this long. */
const PIPE_CONNECT_MS = 60_000;

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
  const pipe = process.env[DAP_PIPE_ENV];
  return new Promise((resolve) => {
    process.on('SIGTERM', () => session.shutdown());
    if (!pipe) {
      process.stdin.on('end', () => resolve(0));
      session.start(process.stdin, process.stdout);
      return;
    }
    // One client only: the server stops listening at the first connection, and the session ends
    // with it (VS Code closes it after `disconnect`). Its private directory goes with it.
    process.on('exit', () => removeSocketDir(pipe)); // also after `disconnect`'s own exit
    const done = (code: number) => resolve(code);
    const giveUp = setTimeout(() => done(1), PIPE_CONNECT_MS);
    const server = createServer((socket) => {
      clearTimeout(giveUp);
      server.close();
      socket.on('close', () => done(0));
      socket.on('error', () => undefined); // 'close' follows
      session.start(socket, socket);
    });
    server.on('error', (e) => {
      process.stderr.write(`kite debug adapter: cannot listen on ${pipe}: ${e.message}\n`);
      done(1);
    });
    server.listen(pipe, () => process.stdout.write('ready\n'));
  });
}

/** The socket's directory, when it is one the extension made for it (never any other). */
function removeSocketDir(pipe: string): void {
  const dir = dirname(pipe);
  if (basename(dir).startsWith(SOCKET_DIR_PREFIX)) rmSync(dir, { recursive: true, force: true });
}
