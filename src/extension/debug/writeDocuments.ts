// Read-only documents for the debugger's write frames: `kite-file:<log>.kite-at/<seq>/<path>`
// shows the file as that write left it, rebuilt from the log and git (writeSnapshot.ts), so
// stepping through a past run never opens, or shows today's content of, the live workspace file.
import * as vscode from 'vscode';
import { WRITE_DOC_SCHEME, parseWriteDocPath, writeDocPath } from '../../harness/replay/writeSnapshot';

export function writeDocUri(log: string, seq: number, path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: WRITE_DOC_SCHEME, path: writeDocPath(log, seq, path) });
}

export class WriteDocuments implements vscode.TextDocumentContentProvider {
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const at = parseWriteDocPath(uri.path);
    if (!at) return `Kite: ${uri.toString()} does not name a write of a run log (expected <log>.kite-at/<seq>/<path>).\n`;
    try {
      // Loaded on first use, like the transcripts (the reader pulls in the zod schemas). Only the
      // write calls are parsed, found through the index of a lazily read log (writeSnapshotIndexed).
      const { writeDocumentSnapshot } = await import('../../harness/replay/writeDocumentSnapshot');
      const w = await writeDocumentSnapshot(at.log, at.seq);
      return w.known ? w.content : `${w.message}\n`;
    } catch (e) {
      return `Kite cannot rebuild ${at.path} at event ${at.seq} of ${at.log}: ${e instanceof Error ? e.message : String(e)}\n`;
    }
  }
}
