// Virtual documents for run transcripts: `kite-transcript:<log path>.kite-transcript` (a huge
// log's in windows: `?lines=FROM-TO`). The debug adapter names these URIs in its stack frames;
// this provider renders the same text from the same log (transcript.ts is pure), so breakpoints
// and highlighted lines always line up. A log a replay session holds is rendered by that session's
// adapter (replaySessions.ts): the extension host never indexes it a second time.
import * as vscode from 'vscode';
import { windowOfQuery, windowQuery, type TranscriptWindow } from '../../harness/replay/transcriptWindow';
import type { ReplaySessions } from './replaySessions';

/** The replay debugger's type (package.json `debuggers`). */
export const DEBUG_TYPE = 'kite';
export const TRANSCRIPT_SCHEME = 'kite-transcript';
export const TRANSCRIPT_SUFFIX = '.kite-transcript';

/** The transcript of a log, or one window of it (a huge log's: `?lines=FROM-TO`). */
export function transcriptUri(logPath: string, window: TranscriptWindow | null = null): vscode.Uri {
  return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: logPath + TRANSCRIPT_SUFFIX, ...(window ? { query: windowQuery(window) } : {}) });
}

export function logPathOfTranscript(uri: vscode.Uri): string {
  return uri.path.endsWith(TRANSCRIPT_SUFFIX) ? uri.path.slice(0, -TRANSCRIPT_SUFFIX.length) : uri.path;
}

export class TranscriptDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The documents made so far, per log: a log that grows re-renders each of its windows. */
  private readonly made = new Map<string, Set<string>>();
  /** Documents this extension host made by reading the log itself (a test hook: a log a replay
   *  session holds is not read here). */
  readHere = 0;
  /** Why, for the last few of them (no session held the log, or it did not answer in time). */
  readonly whyReadHere: string[] = [];
  /** The longest a replay session took to serve one of them, ms (a test hook). */
  slowestServedMs = 0;

  constructor(private readonly sessions: Pick<ReplaySessions, 'transcript'>) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const log = logPathOfTranscript(uri);
    const window = windowOfQuery(uri.query);
    this.made.set(log, (this.made.get(log) ?? new Set()).add(uri.toString()));
    const served = await this.sessions.transcript(log, uri);
    if ('text' in served) {
      this.slowestServedMs = Math.max(this.slowestServedMs, Math.round(served.ms));
      return served.text;
    }
    this.readHere++;
    this.whyReadHere.push(`${uri.toString()}: ${served.why}`);
    if (this.whyReadHere.length > 5) this.whyReadHere.shift();
    try {
      // Loaded on the first transcript, not at activation (the reader pulls in the zod schemas).
      // Read lazily and built in slices (transcriptDocument.ts): the host's loop keeps answering.
      const { transcriptDocumentText } = await import('../../harness/replay/transcriptDocument');
      return await transcriptDocumentText(log, window);
    } catch (e) {
      return `Cannot show the transcript of ${log}: ${e instanceof Error ? e.message : String(e)}\n`;
    }
  }

  /** Re-render open transcripts of this log (e.g. when a live run appended events). */
  refresh(logPath: string): void {
    this.changed.fire(transcriptUri(logPath));
    for (const uri of this.made.get(logPath) ?? []) if (uri !== transcriptUri(logPath).toString()) this.changed.fire(vscode.Uri.parse(uri));
  }

  dispose(): void {
    this.changed.dispose();
    void import('../../harness/replay/transcriptDocument').then((m) => m.forgetIndexedLogs());
  }
}
