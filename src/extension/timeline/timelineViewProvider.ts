// The `kite.timeline` view in the Kite container: follows the active run. It shows the log it is
// told to follow (kite.timeline.follow), else the newest log of the workspace, and switches to a
// new log as soon as a run creates one in .kite/runs.
import * as vscode from 'vscode';
import type { RowActions } from './rowActions';
import type { AppliedState, TimelineSession } from './timelineSession';

export const TIMELINE_VIEW_ID = 'kite.timeline';
const EMPTY = 'No Kite run yet. Start the agent on a feature, or open a past run from the Runs view.';

export class TimelineViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private session: TimelineSession | null = null;
  private view: vscode.WebviewView | null = null;
  private current: string | null = null;
  private readonly applied = new vscode.EventEmitter<AppliedState>();
  readonly onDidApply = this.applied.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly actions: () => Promise<RowActions>,
    private readonly output?: vscode.LogOutputChannel,
    /** Called whenever the view becomes visible (to look for a newer run). */
    private readonly onShown: () => void = () => undefined,
  ) {}

  get followed(): string | null {
    return this.current;
  }

  get state(): AppliedState | null {
    return this.session?.lastApplied ?? null;
  }

  /** Handles a message as if the view's page had sent it (test hook); false when the view is not open. */
  receive(raw: unknown): boolean {
    this.session?.receive(raw);
    return this.session !== null;
  }

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
    this.describe();
    // Loaded on first use, not at activation (zod schemas, the parser).
    const { TimelineSession, configureTimelineWebview } = await import('./timelineSession');
    const session = new TimelineSession(view.webview, await this.actions(), this.current, EMPTY, this.output);
    configureTimelineWebview(view.webview, this.extensionUri, 'Kite timeline');
    this.session = session;
    if (this.pendingReveal !== null) session.reveal(this.pendingReveal);
    this.pendingReveal = null;
    const sub = session.onDidApply((s) => this.applied.fire(s));
    this.onShown();
    const vis = view.onDidChangeVisibility(() => {
      if (view.visible) this.onShown();
    });
    view.onDidDispose(() => {
      vis.dispose();
      sub.dispose();
      session.dispose();
      if (this.session === session) this.session = null;
      if (this.view === view) this.view = null;
    });
  }

  private pendingReveal: number | null = null;

  /** The reply a run's model is generating (shown if the view follows that run). */
  stream(n: Parameters<TimelineSession['stream']>[0]): void {
    this.session?.stream(n);
  }

  /** Selects an event in the view (after its history has loaded). */
  reveal(seq: number): void {
    if (this.session) this.session.reveal(seq);
    else this.pendingReveal = seq;
  }

  /** Follows another log (the page gets a new snapshot). */
  follow(logPath: string | null): void {
    this.current = logPath;
    this.session?.setLog(logPath);
    this.describe();
  }

  /** The run's name beside the view title. */
  private describe(): void {
    if (this.view) this.view.description = this.current?.split(/[\\/]/).pop()?.replace(/\.jsonl$/, '');
  }

  async show(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${TIMELINE_VIEW_ID}.focus`);
  }

  dispose(): void {
    this.session?.dispose();
    this.applied.dispose();
  }
}
