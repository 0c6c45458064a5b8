// The Features view: kite-progress.json of the first workspace folder, live-updated by a file
// watcher, with status icons, proposals marked as such, and inline Start / Open last run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FeatureStatus } from '../../harness/protocol/events';
import { parseProgress, ProgressError, type Feature } from '../../harness/progress/progressFile';
import { describeJsonProblem, parseJsonText } from '../../harness/config/jsonText';

export const PROGRESS_FILE = 'kite-progress.json';

const ICONS: Record<FeatureStatus, [string, string | undefined]> = {
  todo: ['circle-large-outline', undefined],
  in_progress: ['sync', 'charts.blue'],
  done: ['pass-filled', 'testing.iconPassed'],
  gate_failed: ['error', 'testing.iconFailed'],
  budget_exceeded: ['warning', 'list.warningForeground'],
  stuck: ['debug-pause', 'list.warningForeground'],
  error: ['error', 'errorForeground'],
  proposed: ['lightbulb', 'charts.yellow'],
  unverified: ['question', 'list.warningForeground'],
};

const STOPPED_ICON: [string, string] = ['debug-pause', 'list.warningForeground'];

/** A problem with the file; `at`: where (1-based) when the JSON itself does not parse. */
/**
 * An in_progress feature this window does not drive, as its latest log tells it: `live` while
 * another process (`kite run`, another window) writes the log, else the outcome the log ended
 * with ('open' = it ended without one: interrupted). null: no log of it.
 */
export type ElsewhereState = { live: true } | { live: false; outcome: string } | null;

export type FeatureNode = { kind: 'feature'; feature: Feature; running: boolean; elsewhere?: ElsewhereState } | { kind: 'problem'; message: string; at?: { line: number; column: number } };

/** Statuses whose last run did not end done: the feature offers Retry, Resume, Reset to Todo. */
const NOT_DONE: ReadonlySet<FeatureStatus> = new Set(['gate_failed', 'budget_exceeded', 'stuck', 'error', 'unverified']);

export class FeaturesTree implements vscode.TreeDataProvider<FeatureNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private nodes: FeatureNode[] | null = null;
  private generation = 0; // a load that finishes after a newer refresh must not win

  constructor(
    private readonly root: () => string | undefined,
    private readonly running: () => ReadonlySet<string>,
    /** The state of a feature's latest run log (wireKite: the Runs view's list and the log lock). */
    private readonly lastRunOf: (featureId: string) => Promise<ElsewhereState> = async () => null,
  ) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, PROGRESS_FILE));
      this.disposables.push(w, w.onDidChange(() => this.refresh()), w.onDidCreate(() => this.refresh()), w.onDidDelete(() => this.refresh()));
    }
    this.disposables.push(this.changed);
  }

  refresh(): void {
    this.nodes = null;
    this.generation++;
    this.changed.fire();
  }

  /** Current features (for the quick pick and tests). */
  async features(): Promise<Feature[]> {
    return (await this.load()).flatMap((n) => (n.kind === 'feature' ? [n.feature] : []));
  }

  async getChildren(parent?: FeatureNode): Promise<FeatureNode[]> {
    if (parent) return [];
    return this.load();
  }

  getTreeItem(n: FeatureNode): vscode.TreeItem {
    if (n.kind === 'problem') {
      const item = new vscode.TreeItem(n.message);
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      item.tooltip = n.message;
      // Open at the error's line and column, not at line 1.
      const at = n.at ? new vscode.Position(n.at.line - 1, n.at.column - 1) : null;
      const options: vscode.TextDocumentShowOptions | undefined = at ? { selection: new vscode.Range(at, at) } : undefined;
      item.command = { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(join(this.root() ?? '', PROGRESS_FILE)), options] };
      return item;
    }
    const f = n.feature;
    const item = new vscode.TreeItem(`${f.id}  ${f.title}`);
    item.id = `feature:${f.id}`;
    // in_progress in the file with no run driving it (cancelled, or its process died): the run is
    // over, so neither the sync icon nor "in progress" (issue 18 item 7); it can be resumed or retried.
    // A run in another process (kite run in a terminal) is running, not stopped: no Retry/Resume
    // that would start a second run on it; a cancelled one says so (its log's outcome).
    const elsewhereLive = !n.running && n.elsewhere?.live === true;
    const stopped = !n.running && !elsewhereLive && f.status === 'in_progress';
    // Cancelled or interrupted is "stopped"; any other outcome (an error the model's provider caused) is named.
    const ended = n.elsewhere && !n.elsewhere.live && !['open', 'cancelled'].includes(n.elsewhere.outcome) ? n.elsewhere.outcome : null;
    const [icon, color] = n.running || elsewhereLive ? ['sync~spin', 'charts.blue'] : stopped ? STOPPED_ICON : ICONS[f.status];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.description = n.running
      ? vscode.l10n.t('running…')
      : elsewhereLive
        ? vscode.l10n.t('running in another process (kite run)')
        : stopped
          ? ended
            ? vscode.l10n.t('{0} (resume or retry)', ended.replace(/_/g, ' '))
            : vscode.l10n.t('stopped (resume or retry)')
          : f.status === 'proposed'
            ? vscode.l10n.t('proposal')
            : f.status.replace(/_/g, ' ');
    const tip = new vscode.MarkdownString(`**${f.id}** ${f.title}\n\n${vscode.l10n.t('status: {0}', `\`${f.status}\``)}`);
    if (f.verify) tip.appendMarkdown(`\n\n${vscode.l10n.t('verify: {0}', `\`${f.verify}\``)}`);
    if (f.notes) tip.appendMarkdown(`\n\n${f.notes}`);
    item.tooltip = tip;
    item.contextValue = n.running ? 'kite.feature.running' : elsewhereLive ? 'kite.feature.elsewhere' : f.status === 'proposed' ? 'kite.feature.proposal' : NOT_DONE.has(f.status) || stopped ? 'kite.feature.notDone' : 'kite.feature';
    return item;
  }

  private async load(): Promise<FeatureNode[]> {
    if (this.nodes) return this.nodes;
    const gen = this.generation;
    const nodes = await this.read();
    if (gen === this.generation) this.nodes = nodes;
    return nodes;
  }

  private async read(): Promise<FeatureNode[]> {
    const root = this.root();
    if (!root) return [];
    const file = join(root, PROGRESS_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      // No progress file: the view's welcome content (Initialize Kite) shows instead.
      await vscode.commands.executeCommand('setContext', 'kite.hasProgressFile', false);
      return [];
    }
    await vscode.commands.executeCommand('setContext', 'kite.hasProgressFile', true);
    const json = parseJsonText(text);
    if (!json.ok) return [{ kind: 'problem', message: describeJsonProblem(PROGRESS_FILE, json.problem), at: { line: json.problem.line, column: json.problem.column } }];
    try {
      const running = this.running();
      return await Promise.all(
        parseProgress(text, PROGRESS_FILE).features.map(async (feature) => {
          const here = running.has(feature.id);
          const elsewhere = !here && feature.status === 'in_progress' ? await this.lastRunOf(feature.id).catch(() => null) : undefined;
          return { kind: 'feature' as const, feature, running: here, elsewhere };
        }),
      );
    } catch (err) {
      return [{ kind: 'problem', message: err instanceof Error ? err.message : String(err), at: err instanceof ProgressError ? err.at : undefined }];
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
