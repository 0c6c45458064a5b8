// Read-only documents the timeline opens (raw events, full outputs, diff sides), served from
// memory under the kite-timeline: scheme. Only the most recent ones are kept.
import * as vscode from 'vscode';

export const DOC_SCHEME = 'kite-timeline';
const KEEP = 64;

export class TimelineDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  /** Stores `content` and returns its URI; `name` is what the tab shows (e.g. run/event-12.json). */
  put(name: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DOC_SCHEME, path: `/${name}`, query: String(++this.counter) });
    this.docs.set(uri.toString(), content);
    if (this.docs.size > KEEP) this.docs.delete(this.docs.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '(This timeline document is no longer in memory: open it again from the timeline.)';
  }

  dispose(): void {
    this.changed.dispose();
    this.docs.clear();
  }
}
