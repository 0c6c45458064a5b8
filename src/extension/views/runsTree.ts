// The Runs view: the logs in the workspace's log folder (log_dir, default .kite/runs), newest first,
// with outcome, turns, tokens and cost read cheaply from each log's head and tail. Open (timeline),
// resume (a run that never ended), replay.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RunLogFolders } from '../runLogFolders';
import { formatTokens, formatUsd } from '../runTracker';
import { compareRunLogNames } from '../../harness/events/runLogOrder';
import { OpenLogTotals, readLogSummary, type RunLogSummary } from '../../harness/events/runLogSummary';

export interface RunNode {
  path: string;
  summary: RunLogSummary;
  running: boolean;
}

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
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: NodeJS.Timeout | undefined;
  /** Summaries by path, reused while size and mtime are unchanged (a refresh re-reads only the growing log). */
  private readonly cache = new Map<string, { size: number; mtimeMs: number; summary: RunLogSummary }>();
  /** Unfinished runs' totals, folded on from where the last refresh stopped (a running log grows at every refresh). */
  private readonly openTotals = new OpenLogTotals();

  constructor(
    private readonly root: () => string | undefined,
    private readonly runningLogs: () => ReadonlySet<string>,
    private readonly folders: RunLogFolders,
  ) {
    this.disposables.push(folders.onDidChange(() => this.refreshSoon()));
  }

  refresh(): void {
    this.changed.fire();
  }

  /** Logs grow one line per event; coalesce bursts into one refresh. */
  private refreshSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, 250);
  }

  async getChildren(parent?: RunNode): Promise<RunNode[]> {
    if (parent) return [];
    return this.list();
  }

  async list(): Promise<RunNode[]> {
    const root = this.root();
    if (!root) return [];
    const dir = await this.folders.dirOf(root);
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    names.sort((a, b) => compareRunLogNames(b, a)); // newest first
    const running = this.runningLogs();
    const nodes = await Promise.all(
      names.slice(0, 200).map(async (n) => {
        const path = join(dir, n);
        try {
          const st = await stat(path);
          const hit = this.cache.get(path);
          const summary = hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs ? hit.summary : await readLogSummary(path, this.openTotals);
          this.cache.set(path, { size: st.size, mtimeMs: st.mtimeMs, summary });
          return { path, summary, running: running.has(path) };
        } catch {
          this.cache.delete(path);
          return null; // deleted meanwhile
        }
      }),
    );
    const listed = nodes.filter((n): n is RunNode => n !== null);
    this.openTotals.retain(new Set(listed.filter((n) => n.summary.outcome === 'open').map((n) => n.path)));
    return listed;
  }

  getTreeItem(n: RunNode): vscode.TreeItem {
    const s = n.summary;
    const state = n.running ? vscode.l10n.t('running') : s.outcome === 'open' ? (s.pendingApprovals.length ? vscode.l10n.t('waiting for approval (interrupted)') : vscode.l10n.t('interrupted')) : s.outcome.replace(/_/g, ' ');
    const item = new vscode.TreeItem(`${s.feature} — ${state}`);
    item.id = `run:${n.path}`;
    const [icon, color] = n.running ? ['sync~spin', 'charts.blue'] : s.outcome === 'open' ? ['debug-disconnect', 'list.warningForeground'] : (OUTCOME_ICONS[s.outcome] ?? ['circle-outline', undefined]);
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const turns = s.turns === 1 ? vscode.l10n.t('1 turn') : vscode.l10n.t('{0} turns', s.turns);
    item.description = `${turns} · ${vscode.l10n.t('{0} tok', formatTokens(s.tokens))} · ${formatUsd(s.costUsd)}${s.commit ? ` · ${s.commit.slice(0, 7)}` : ''}`;
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
