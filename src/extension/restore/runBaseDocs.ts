// Read-only documents holding a file as it was at a run's starting commit: the left side of
// "Review Changes". Served from memory (the harness rebuilt them when the command ran).
import * as vscode from 'vscode';

const KEEP = 256;

export class RunBaseDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  static readonly scheme = 'kite-run-base';
  private readonly docs = new Map<string, string>();

  /** The URI of the file at `abs` as run `run` found it: same path, so the diff shows it as modified, not renamed. */
  put(run: string, abs: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RunBaseDocs.scheme, path: vscode.Uri.file(abs).path, query: run });
    this.docs.delete(uri.toString());
    this.docs.set(uri.toString(), content);
    if (this.docs.size > KEEP) this.docs.delete(this.docs.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '(No longer in memory: run "Kite: Review Changes" again.)';
  }

  dispose(): void {
    this.docs.clear();
  }
}
