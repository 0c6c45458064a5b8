// Run one case or the whole suite (in the harness server, with a Progress notification that has
// Cancel), open a case's last log in the timeline, and "Add to Evals" on a run: the same code as
// `kite eval` and `kite eval add`, reached over RPC.
import * as vscode from 'vscode';
import type { EvalCaseResult, RunEvalsResult } from '../../harness/protocol/rpc';
import type { HarnessClient } from '../harnessClient';
import type { RunNode } from '../views/runsTree';
import { suiteOf, type EvalNode, type EvalsTree } from './evalsTree';

/** A log path, a Runs-view node, a Uri (explorer, timeline tab), or a {log} from the timeline header. */
export type AddToEvalsArg = string | RunNode | vscode.Uri | { log: string } | undefined;

function logOf(arg: AddToEvalsArg): string | undefined {
  if (!arg) return undefined;
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return arg.fsPath;
  return 'log' in arg ? arg.log : arg.path;
}

export interface EvalsFinished {
  suite: string;
  result: RunEvalsResult;
}

export class EvalCommands implements vscode.Disposable {
  private readonly finished = new vscode.EventEmitter<EvalsFinished>();
  /** A suite run ended (all done, cancelled or failed to load): what the notification said. */
  readonly onDidFinish = this.finished.event;
  private busy = false;

  constructor(
    private readonly client: HarnessClient,
    private readonly tree: EvalsTree,
    private readonly root: () => string | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  runAll(): Promise<RunEvalsResult | undefined> {
    return this.run(undefined);
  }

  runCase(node?: EvalNode | string): Promise<RunEvalsResult | undefined> {
    const name = typeof node === 'string' ? node : node?.kind === 'case' ? node.name : undefined;
    return name ? this.run([name]) : this.pickAndRun();
  }

  private async pickAndRun(): Promise<RunEvalsResult | undefined> {
    const cases = (await this.tree.getChildren()).filter((n) => n.kind === 'case');
    if (!cases.length) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no eval cases in .kite/evals yet. Add one from a run (Runs view › Add to Evals).'));
    const pick = await vscode.window.showQuickPick(cases.map((c) => ({ label: c.name, description: c.last ? `${c.last.status} (${c.last.outcome})` : vscode.l10n.t('not run yet') })), { title: vscode.l10n.t('Kite: run which eval case?') });
    return pick ? this.run([pick.label]) : undefined;
  }

  private async run(names: string[] | undefined): Promise<RunEvalsResult | undefined> {
    const root = this.root();
    if (!root) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite: open a folder first; eval cases live in its .kite/evals.'));
    if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite does not run evals in an untrusted workspace: each case runs an agent and its commands.'));
    if (this.busy) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite: evals are already running; cancel them from their notification first.'));
    this.busy = true;
    const suite = suiteOf(root);
    const all = names ?? (await this.tree.getChildren()).flatMap((n) => (n.kind === 'case' ? [n.name] : []));
    this.tree.setRunning(all);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: names?.length === 1 ? vscode.l10n.t('Kite: running eval {0}', names[0]) : all.length === 1 ? vscode.l10n.t('Kite: running 1 eval case') : vscode.l10n.t('Kite: running {0} eval cases', all.length), cancellable: true },
        async (progress, token) => {
          const remaining = new Set(all);
          const sub = this.client.onEvalCaseEnded((e) => {
            if (e.suite !== suite) return;
            remaining.delete(e.result.case);
            progress.report({ increment: 100 / Math.max(1, all.length), message: `${all.length - remaining.size}/${all.length} · ${e.result.case}: ${e.result.status}` });
            this.tree.setRunning([...remaining]);
          });
          try {
            return await this.client.runEvals({ root, suite, cases: names }, token);
          } catch (err) {
            // Cancel rejects the request at once; the server stops the running cases and writes what ran.
            if (token.isCancellationRequested) return { results: [], logDir: null, cancelled: true, error: null };
            throw err;
          } finally {
            sub.dispose();
          }
        },
      );
      this.report(result);
      this.finished.fire({ suite, result });
      return result;
    } catch (err) {
      this.log.error(`evals failed: ${String(err)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite: the evals could not run: {0}', err instanceof Error ? err.message : String(err)), vscode.l10n.t('Show Log')).then((p) => (p ? this.log.show() : undefined));
      return undefined;
    } finally {
      this.busy = false;
      this.tree.setRunning([]);
    }
  }

  /** One notification: how many passed, and each case that did not with its first unmet expectation. */
  private report(r: RunEvalsResult): void {
    if (r.error) return void vscode.window.showErrorMessage(vscode.l10n.t('Kite: the eval suite could not be loaded: {0}', r.error));
    if (r.cancelled && !r.results.length) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite evals cancelled: the running cases were stopped and no new case started.'));
    const bad = r.results.filter((x) => x.status !== 'pass');
    const passed = r.results.length - bad.length;
    const head = `Kite evals${r.cancelled ? ' (cancelled)' : ''}: ${passed}/${r.results.length} passed.`;
    const why = bad.map((x: EvalCaseResult) => `${x.case}: ${x.status === 'error' ? `could not run: ${x.error ?? ''}` : (x.unmet[0] ?? x.notes)}`).join(' · ');
    this.log.info(`${head} ${why}`);
    const firstLog = bad.find((x) => x.log)?.log;
    const actions = firstLog ? ['Open Log'] : [];
    const show = bad.length || r.cancelled ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(why ? `${head} ${why}` : head, ...actions).then((p) => (p && firstLog ? vscode.commands.executeCommand('kite.openTimeline', firstLog) : undefined));
  }

  /** The case's last log in the timeline; takes the view's node or a case name. */
  async openLog(arg?: EvalNode | string): Promise<void> {
    const node = typeof arg === 'string' ? (await this.tree.getChildren()).find((n) => n.kind === 'case' && n.name === arg) : arg;
    const log = node?.kind === 'case' ? node.last?.log : undefined;
    if (!log) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: {0} has not run yet; run it first.', node?.kind === 'case' ? node.name : typeof arg === 'string' ? arg : 'this case'));
    await vscode.commands.executeCommand('kite.openTimeline', log);
  }

  /** "Add to Evals": a case from the run's log (`kite eval add`), opened for the person to edit its expectation. */
  async addToEvals(arg?: AddToEvalsArg): Promise<string | undefined> {
    const root = this.root();
    const log = logOf(arg);
    if (!root) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite: open a folder first.'));
    if (!log) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: choose a run to add (Runs view › Add to Evals, or the timeline header).'));
    const r = await this.client.addEval({ root, log });
    if (r.error || !r.file) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite: no eval case was written: {0}', r.error ?? 'unknown reason'));
      return undefined;
    }
    this.tree.refresh();
    await vscode.window.showTextDocument(vscode.Uri.file(r.file), { preview: false });
    void vscode.window.showInformationMessage(vscode.l10n.t('Kite: eval case {0} written (expects {1}). Edit its "expect" to say what must hold, then commit it.', String(r.name), String(r.expect)), vscode.l10n.t('Run It')).then((p) => (p && r.name ? this.runCase(r.name) : undefined));
    return r.file;
  }

  dispose(): void {
    this.finished.dispose();
  }
}
