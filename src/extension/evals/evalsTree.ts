// The Evals view: the cases of the workspace's suite (.kite/evals/<name>/case.json), each with its
// last result (results.json beside the logs of every suite run, from VS Code or `kite eval`).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEFAULT_SUITE } from '../../harness/evals/addCase';
import { loadSuite, SuiteError, type EvalCase } from '../../harness/evals/evalCase';
import { lastResults, type CaseResultRecord } from '../../harness/evals/suiteResults';
import type { RunLogFolders } from '../runLogFolders';

export type EvalNode =
  | { kind: 'case'; name: string; file: string; suite: string; description: string | undefined; last: (CaseResultRecord & { finished_at: string }) | null; running: boolean }
  | { kind: 'problem'; message: string; file: string | null };

const ICONS = { pass: ['pass-filled', 'testing.iconPassed'], fail: ['error', 'testing.iconFailed'], error: ['warning', 'list.warningForeground'] } as const;

export function suiteOf(root: string): string {
  return join(root, DEFAULT_SUITE);
}

export class EvalsTree implements vscode.TreeDataProvider<EvalNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly running = new Set<string>();
  private readonly watcher: vscode.FileSystemWatcher;

  constructor(
    private readonly root: () => string | undefined,
    private readonly folders: RunLogFolders,
  ) {
    this.watcher = vscode.workspace.createFileSystemWatcher(`**/${DEFAULT_SUITE.replace(/\\/g, '/')}/**/case.json`);
    for (const on of [this.watcher.onDidCreate, this.watcher.onDidChange, this.watcher.onDidDelete]) on(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire();
  }

  /** Cases shown with a spinner while a suite run has them. */
  setRunning(names: readonly string[]): void {
    this.running.clear();
    for (const n of names) this.running.add(n);
    this.refresh();
  }

  async getChildren(parent?: EvalNode): Promise<EvalNode[]> {
    if (parent) return [];
    const root = this.root();
    if (!root) return [];
    const suite = suiteOf(root);
    let cases: EvalCase[];
    try {
      cases = loadSuite(suite);
    } catch (e) {
      // No suite or no case yet: the view's welcome content says how to add one.
      if (e instanceof SuiteError && e.code !== 'bad_case') return [];
      return [{ kind: 'problem', message: e instanceof Error ? e.message : String(e), file: /(\S+case\.json)/.exec(String(e))?.[1] ?? null }];
    }
    const last = lastResults(await this.folders.dirOf(root), suite);
    return cases.map((c) => ({ kind: 'case', name: c.name, file: c.file, suite, description: c.spec.description, last: last.get(c.name) ?? null, running: this.running.has(c.name) }));
  }

  getTreeItem(n: EvalNode): vscode.TreeItem {
    if (n.kind === 'problem') {
      const item = new vscode.TreeItem(n.message);
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
      item.tooltip = n.message;
      item.contextValue = 'kite.evalProblem';
      if (n.file) item.command = { title: 'Open Case', command: 'vscode.open', arguments: [vscode.Uri.file(n.file)] };
      return item;
    }
    const item = new vscode.TreeItem(n.name);
    item.id = `eval:${n.name}`;
    const r = n.last;
    if (n.running) item.iconPath = new vscode.ThemeIcon('sync~spin', new vscode.ThemeColor('charts.blue'));
    else if (r) item.iconPath = new vscode.ThemeIcon(ICONS[r.status][0], new vscode.ThemeColor(ICONS[r.status][1]));
    else item.iconPath = new vscode.ThemeIcon('circle-outline');
    item.description = n.running ? vscode.l10n.t('running…') : r ? `${r.status} · ${r.outcome.replace(/_/g, ' ')} · ${r.turns === 1 ? vscode.l10n.t('1 turn') : vscode.l10n.t('{0} turns', r.turns)}` : vscode.l10n.t('not run yet');
    const tip = new vscode.MarkdownString(`**${n.name}**${n.description ? `\n\n${n.description}` : ''}`);
    if (r) {
      tip.appendMarkdown(`\n\n${vscode.l10n.t('Last run {0}: **{1}** ({2}), {3} turns, {4} tokens', r.finished_at, r.status, r.outcome, r.turns, r.tokens)}`);
      for (const u of r.unmet) tip.appendMarkdown(`\n\n- ${u.replace(/[\\`*_[\]]/g, '\\$&')}`);
      if (r.notes) tip.appendMarkdown(`\n\n> ${r.notes.slice(0, 300).replace(/[\\`*_[\]]/g, '\\$&')}`);
    }
    item.tooltip = tip;
    item.contextValue = n.running ? 'kite.evalCase.running' : r?.log ? 'kite.evalCase.hasLog' : 'kite.evalCase';
    item.command = { title: 'Open Case', command: 'vscode.open', arguments: [vscode.Uri.file(n.file)] };
    return item;
  }

  dispose(): void {
    this.watcher.dispose();
    this.changed.dispose();
  }
}
