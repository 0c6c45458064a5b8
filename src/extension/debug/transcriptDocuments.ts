// Virtual documents for run transcripts: `kite-transcript:<log path>.kite-transcript`. The debug
// adapter names these URIs in its stack frames; this provider renders the same text from the
// same log (transcript.ts is pure), so breakpoints and highlighted lines always line up.
import * as vscode from 'vscode';

export const TRANSCRIPT_SCHEME = 'kite-transcript';
export const TRANSCRIPT_SUFFIX = '.kite-transcript';

export function transcriptUri(logPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: logPath + TRANSCRIPT_SUFFIX });
}

export function logPathOfTranscript(uri: vscode.Uri): string {
  return uri.path.endsWith(TRANSCRIPT_SUFFIX) ? uri.path.slice(0, -TRANSCRIPT_SUFFIX.length) : uri.path;
}

export class TranscriptDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const log = logPathOfTranscript(uri);
    try {
      // Loaded on the first transcript, not at activation (the reader pulls in the zod schemas).
      const [{ readLog, runIdOf }, { buildTranscript, transcriptText }] = await Promise.all([import('../../harness/events/reader'), import('../../harness/replay/transcript')]);
      // The structural check (zod only where it fails): this runs on the extension host's loop.
      const { events, problems } = await readLog(log, { validation: 'structural' });
      const text = transcriptText(buildTranscript(events, runIdOf(log)));
      // Problems go below the transcript so they never shift its line numbers.
      return problems.length ? `${text}\n${problems.map((p) => `! line ${p.line} of the log skipped: ${p.message}`).join('\n')}\n` : text;
    } catch (e) {
      return `Cannot show the transcript of ${log}: ${e instanceof Error ? e.message : String(e)}\n`;
    }
  }

  /** Re-render open transcripts of this log (e.g. when a live run appended events). */
  refresh(logPath: string): void {
    this.changed.fire(transcriptUri(logPath));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
