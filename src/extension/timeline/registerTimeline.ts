// Registers the timeline: the Kite view that follows the active run, the per-run editor tabs,
// the read-only documents of row actions, and the commands kite.openTimeline (optional log path or
// {log, seq}, else a pick of the workspace's run logs, in its log_dir) and kite.timeline.follow
// (internal: a log path or {log, seq}).
import * as vscode from 'vscode';
import type { RunLogFolders } from '../runLogFolders';
import type { RowActions } from './rowActions';
import { DOC_SCHEME, TimelineDocs } from './timelineDocs';
import { TIMELINE_EDITOR_ID, TimelineEditorProvider } from './timelineEditorProvider';
import type { AppliedState } from './timelineSession';
import { TIMELINE_VIEW_ID, TimelineViewProvider } from './timelineViewProvider';

export interface TimelineApi {
  /** The Kite view follows this log from now on (null: none, until the next run starts). */
  follow(logPath: string | null): void;
  /** Opens a run's log in its own timeline tab. */
  open(logPath: string): Promise<void>;
  /** The log the view follows (null: none yet). */
  followed(): string | null;
  /** What the view's page holds, as it last reported (test hook). */
  viewState(): AppliedState | null;
  /** What each open timeline tab holds (test hook). */
  editorStates(): AppliedState[];
  /** Fires whenever a timeline page (view or tab) applied a message. */
  onDidApply: vscode.Event<AppliedState>;
  /** Handles a message as if the view's page had sent it, e.g. {type: 'openRaw', seq} (test hook). */
  viewReceive(message: unknown): boolean;
  /** The reply a run's model is generating, to every timeline showing that run's log. */
  stream(n: { log: string | null; turn: number; text: string; thinking: string }): void;
}

/**
 * A timeline page survives being hidden (another tab over it, the sidebar switched): it goes on
 * following its log and comes back as it was, scrolled, selected and filtered. Discarded instead,
 * showing it again would read the whole log again — two minutes of both CPUs at a million events,
 * while the hidden tab's reader had gone on posting to no page. The page holds summaries, not
 * events (at most ~150 MB at 1M events, issue 17), which is what keeping it costs.
 */
const KEEP_PAGE_WHEN_HIDDEN = { retainContextWhenHidden: true } as const;

function logPathOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (arg && typeof arg === 'object') {
    const o = arg as { path?: unknown; log?: unknown; resourceUri?: unknown };
    if (o.resourceUri instanceof vscode.Uri) return o.resourceUri.fsPath;
    if (typeof o.log === 'string') return o.log;
    if (typeof o.path === 'string') return o.path;
  }
  return undefined;
}

/** The event to select, from {log, seq} (the debugger's and the Runs view's shape). */
function seqOf(arg: unknown): number | undefined {
  const seq = arg && typeof arg === 'object' ? (arg as { seq?: unknown }).seq : undefined;
  return typeof seq === 'number' && Number.isInteger(seq) && seq >= 0 ? seq : undefined;
}

export function registerTimeline(context: vscode.ExtensionContext, folders: RunLogFolders, output?: vscode.LogOutputChannel): TimelineApi {
  /** Logs of the workspace's runs (in each folder's log_dir), newest first. */
  const listRuns = async (): Promise<string[]> => (await folders.logs()).map((l) => l.path);
  const docs = new TimelineDocs();
  let actionsP: Promise<RowActions> | null = null;
  const actions = (): Promise<RowActions> => (actionsP ??= import('./rowActions').then((m) => new m.RowActions(docs, output)));
  let explicit = false;
  // Unless told what to follow, the view shows the newest run: checked when it is shown (a watcher
  // event can come late or not at all for a folder created after activation) and on every new log.
  const followNewest = (): void => {
    if (explicit) return;
    void listRuns().then((runs) => {
      if (!explicit && runs[0] && runs[0] !== view.followed) view.follow(runs[0]);
    });
  };
  const view = new TimelineViewProvider(context.extensionUri, actions, output, followNewest);
  const editors = new TimelineEditorProvider(context.extensionUri, actions, output);
  const applied = new vscode.EventEmitter<AppliedState>();

  const open = async (logPath: string): Promise<void> => {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(logPath), TIMELINE_EDITOR_ID);
  };
  const follow = (logPath: string | null): void => {
    explicit = true;
    view.follow(logPath);
  };

  // A new log in a log folder is a run that just started: the view follows it.
  const watcher = folders.onDidCreateLog((uri) => {
    // A run just started: it is the active run now, whatever was followed before.
    explicit = false;
    view.follow(uri.fsPath);
  });
  followNewest();

  context.subscriptions.push(
    docs,
    view,
    editors,
    applied,
    watcher,
    view.onDidApply((s) => applied.fire(s)),
    editors.onDidApply((s) => applied.fire(s)),
    vscode.workspace.registerTextDocumentContentProvider(DOC_SCHEME, docs),
    vscode.window.registerWebviewViewProvider(TIMELINE_VIEW_ID, view, { webviewOptions: KEEP_PAGE_WHEN_HIDDEN }),
    vscode.window.registerCustomEditorProvider(TIMELINE_EDITOR_ID, editors, { supportsMultipleEditorsPerDocument: true, webviewOptions: KEEP_PAGE_WHEN_HIDDEN }),
    vscode.commands.registerCommand('kite.openTimeline', async (arg?: unknown) => {
      let logPath = logPathOf(arg);
      if (!logPath) {
        const runs = await listRuns();
        if (!runs.length) {
          await vscode.window.showInformationMessage(vscode.l10n.t('Kite: no runs in the log folder yet.'));
          return;
        }
        const pick = await vscode.window.showQuickPick(
          runs.map((p) => ({ label: p.split(/[\\/]/).pop() ?? p, description: vscode.workspace.asRelativePath(p), path: p })),
          { title: vscode.l10n.t('Open the timeline of a run'), placeHolder: vscode.l10n.t('Pick a run log') },
        );
        if (!pick) return;
        logPath = pick.path;
      }
      const seq = seqOf(arg);
      if (seq !== undefined) editors.reveal(logPath, seq);
      await open(logPath);
    }),
    vscode.commands.registerCommand('kite.timeline.follow', async (arg?: unknown) => {
      const logPath = logPathOf(arg);
      if (!logPath) return;
      follow(logPath);
      const seq = seqOf(arg);
      if (seq !== undefined) view.reveal(seq);
      await view.show();
    }),
  );
  return {
    follow,
    open,
    followed: () => view.followed,
    viewState: () => view.state,
    editorStates: () => editors.states(),
    onDidApply: applied.event,
    viewReceive: (m) => view.receive(m),
    stream: (n) => {
      // A run generating a reply is the active run: follow it even when the log folder's watcher is
      // late (it can be, for a remote or a just-created folder) — else its first turn streams unseen.
      if (!explicit && n.log !== null && n.log !== view.followed) view.follow(n.log);
      view.stream(n);
      editors.stream(n);
    },
  };
}
