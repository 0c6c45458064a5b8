// A read-only custom editor for .jsonl run logs: one tab per run, opened from the Runs view,
// `Kite: Open Timeline`, or "Open With…" on a log in the explorer (priority "option", so plain
// JSONL files still open as text by default).
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RowActions } from './rowActions';
import type { AppliedState, TimelineSession } from './timelineSession';

export const TIMELINE_EDITOR_ID = 'kite.timelineEditor';

export class TimelineEditorProvider implements vscode.CustomReadonlyEditorProvider, vscode.Disposable {
  private readonly sessions = new Map<TimelineSession, string>();
  private readonly pendingReveal = new Map<string, number>();
  private readonly applied = new vscode.EventEmitter<AppliedState>();
  readonly onDidApply = this.applied.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: () => Promise<RowActions>,
    private readonly output?: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const path = document.uri.fsPath;
    const { TimelineSession, configureTimelineWebview } = await import('./timelineSession');
    const session = new TimelineSession(panel.webview, await this.actions(), path, 'This log is empty.', this.output);
    configureTimelineWebview(panel.webview, this.extensionUri, `Timeline ${basename(path)}`);
    this.sessions.set(session, path);
    const seq = this.pendingReveal.get(path);
    if (seq !== undefined) session.reveal(seq);
    this.pendingReveal.delete(path);
    const sub = session.onDidApply((s) => this.applied.fire(s));
    panel.onDidDispose(() => {
      sub.dispose();
      session.dispose();
      this.sessions.delete(session);
    });
  }

  /** Selects an event in the tab of this log (now, or when the tab opens). */
  reveal(path: string, seq: number): void {
    const open = [...this.sessions].filter(([, p]) => p === path);
    if (open.length) for (const [s] of open) s.reveal(seq);
    else this.pendingReveal.set(path, seq);
  }

  /** The reply a run's model is generating, to the tabs of that run. */
  stream(n: Parameters<TimelineSession['stream']>[0]): void {
    for (const s of this.sessions.keys()) s.stream(n);
  }

  /** What each open timeline tab holds (test hook). */
  states(): AppliedState[] {
    return [...this.sessions.keys()].flatMap((s) => (s.lastApplied ? [s.lastApplied] : []));
  }

  dispose(): void {
    for (const s of this.sessions.keys()) s.dispose();
    this.applied.dispose();
  }
}
