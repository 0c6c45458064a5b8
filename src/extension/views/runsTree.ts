// The Runs view: the logs in the workspace's log folder (log_dir, default .kite/runs), newest first,
// with outcome, turns, tokens and cost read cheaply from each log's head and tail. Open (timeline),
// resume (a run that never ended), replay.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { RunLogChange, RunLogFolders } from '../runLogFolders';
import { formatTokens, formatUsd } from '../runTracker';
import { COUNT_LATER_FROM_BYTES, hasRunLogs, RunsListing, type RunNode } from './runsListing';

export type { RunNode } from './runsListing';

const OUTCOME_ICONS: Record<string, [string, string | undefined]> = {
  done: ['pass-filled', 'testing.iconPassed'],
  gate_failed: ['error', 'testing.iconFailed'],
  budget_exceeded: ['warning', 'list.warningForeground'],
  stuck: ['debug-pause', 'list.warningForeground'],
  error: ['error', 'errorForeground'],
  refused: ['circle-slash', 'list.warningForeground'],
  context_exceeded: ['warning', 'list.warningForeground'],
  cancelled: ['debug-stop', undefined],
  unverified: ['question', 'list.warningForeground'],
};

export class RunsTree implements vscode.TreeDataProvider<RunNode>, vscode.Disposable {
  /** A node: redraw that one; nothing: list the folder again. */
  private readonly changed = new vscode.EventEmitter<RunNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: NodeJS.Timeout | undefined;
  /** A big unfinished log is listed at once; once counted, its row is redrawn as a log that grew. */
  private readonly listing = new RunsListing({ fromBytes: COUNT_LATER_FROM_BYTES, counted: (path) => this.onLogsChanged({ grew: path }) });
  /** The folder of the last listing (logs elsewhere are not in the view). */
  private listedDir: string | undefined;
  /** Changes since the last refresh: logs that grew, and whether the listing may have changed. */
  private readonly grown = new Set<string>();
  private listingDue = false;
  /** How many times VS Code asked for each listed log's row: it asks only for an element it holds (tests read it). */
  readonly rowsDrawn = new Map<string, number>();

  constructor(
    private readonly root: () => string | undefined,
    private readonly runningLogs: () => ReadonlySet<string>,
    private readonly folders: RunLogFolders,
  ) {
    this.disposables.push(folders.onDidChange((c) => this.onLogsChanged(c)));
  }

  /** Lists the folder again (a run started or ended, or a person asked). */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** How many times the view listed its folder (tests read it). */
  get listings(): number {
    return this.listing.listings;
  }

  private onLogsChanged(c: RunLogChange): void {
    if ('grew' in c) {
      if (this.listedDir !== undefined && dirname(c.grew) !== this.listedDir) return; // not a log this view shows
      this.grown.add(c.grew);
    } else {
      this.listingDue = true;
    }
    this.refreshSoon();
  }

  /** Logs grow one line per event; coalesce bursts into one refresh. */
  private refreshSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refreshChanged();
    }, 250);
  }

  /** Redraws the nodes of the logs that grew, or the whole view when the listing may have changed. */
  private async refreshChanged(): Promise<void> {
    const grown = [...this.grown];
    this.grown.clear();
    if (this.listingDue || this.listedDir === undefined) {
      this.listingDue = false;
      return this.refresh();
    }
    const running = this.runningLogs();
    const nodes = await Promise.all(grown.map((path) => this.listing.update(path, running)));
    if (nodes.some((n) => n === null)) return this.refresh(); // not listed last time, or gone
    for (const n of nodes) this.changed.fire(n!);
  }

  /** The view's rows: a big unfinished log at once, its totals when counted. */
  async getChildren(parent?: RunNode): Promise<RunNode[]> {
    if (parent) return [];
    return this.list(true);
  }

  /** The runs, each summary whole unless `countLater` (the view's own listing). */
  async list(countLater = false): Promise<RunNode[]> {
    const root = this.root();
    if (!root) return [];
    const dir = await this.folders.dirOf(root);
    this.listedDir = dir;
    const nodes = await this.listing.list(dir, this.runningLogs(), countLater);
    const listed = new Set(nodes.map((n) => n.path));
    for (const path of this.rowsDrawn.keys()) if (!listed.has(path)) this.rowsDrawn.delete(path);
    return nodes;
  }

  /** Whether the view has a run to list, without reading any log. */
  async hasRuns(): Promise<boolean> {
    const root = this.root();
    return root ? hasRunLogs(await this.folders.dirOf(root)) : false;
  }

  getTreeItem(n: RunNode): vscode.TreeItem {
    this.rowsDrawn.set(n.path, (this.rowsDrawn.get(n.path) ?? 0) + 1);
    const s = n.summary;
    const state = n.running ? vscode.l10n.t('running') : s.outcome === 'open' ? (s.pendingApprovals.length ? vscode.l10n.t('waiting for approval (interrupted)') : vscode.l10n.t('interrupted')) : s.outcome.replace(/_/g, ' ');
    const item = new vscode.TreeItem(`${s.feature} — ${state}`);
    item.id = `run:${n.path}`;
    const [icon, color] = n.running ? ['sync~spin', 'charts.blue'] : s.outcome === 'open' ? ['debug-disconnect', 'list.warningForeground'] : (OUTCOME_ICONS[s.outcome] ?? ['circle-outline', undefined]);
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const turns = s.turns === 1 ? vscode.l10n.t('1 turn') : vscode.l10n.t('{0} turns', s.turns);
    item.description = s.counting ? vscode.l10n.t('counting turns and tokens…') : `${turns} · ${vscode.l10n.t('{0} tok', formatTokens(s.tokens))} · ${formatUsd(s.costUsd)}${s.commit ? ` · ${s.commit.slice(0, 7)}` : ''}`;
    const tip = new vscode.MarkdownString(`**${s.run}**\n\n${s.title}\n\n${vscode.l10n.t('model {0}', `\`${s.model}\``)}${s.startedAt ? vscode.l10n.t(', started {0}', s.startedAt) : ''}`);
    if (s.summary) tip.appendMarkdown(`\n\n> ${s.summary.slice(0, 400)}`);
    item.tooltip = tip;
    item.contextValue = n.running ? 'kite.run.running' : s.outcome === 'open' ? 'kite.run.interrupted' : 'kite.run.ended';
    item.command = { title: 'Open Run', command: 'kite.openRun', arguments: [n.path] };
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
