// "Restore Workspace to Here" (a timeline row, the debugger's toolbar and call stack) and "Review
// Changes" (the Runs view, the timeline's title bar, the end-of-run notification). The work is the
// harness's (src/harness/restore); this file asks the person and shows the result.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RunLogFolders } from '../runLogFolders';
import { pickRun } from '../debug/runLogs';
import type { RestoreResult } from '../../harness/restore/applyRestore';
import type { RestorePlan } from '../../harness/restore/restorePlan';
import { RunBaseDocs } from './runBaseDocs';

/** A log path from what a menu passes: a Uri (editor title), a path, {log}, a Runs view node {path}. */
export function logOfArg(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' ? arg.fsPath : undefined;
  if (typeof arg === 'string') return arg || undefined;
  if (arg && typeof arg === 'object') {
    const o = arg as { log?: unknown; path?: unknown; resourceUri?: unknown };
    if (typeof o.log === 'string') return o.log;
    if (typeof o.path === 'string') return o.path;
    if (o.resourceUri instanceof vscode.Uri) return o.resourceUri.fsPath;
  }
  return undefined;
}

/** {log, seq} from the argument, else the stopped frame of the active Kite debug session. */
async function restoreTarget(arg: unknown): Promise<{ log: string; seq: number } | undefined> {
  const log = logOfArg(arg);
  const seq = arg && typeof arg === 'object' ? (arg as { seq?: unknown }).seq : undefined;
  if (log && typeof seq === 'number' && Number.isInteger(seq) && seq >= 0) return { log, seq };
  const item = vscode.debug.activeStackItem;
  const session = item?.session ?? vscode.debug.activeDebugSession;
  if (session?.type !== 'kite' || typeof session.configuration.log !== 'string') return undefined;
  const frameId = item instanceof vscode.DebugStackFrame ? item.frameId : undefined;
  // The adapter evaluates `seq` at its current position: the event the replay is stopped at.
  const r = (await session.customRequest('evaluate', { expression: 'seq', context: 'watch', ...(frameId !== undefined ? { frameId } : {}) })) as { result?: string };
  const at = Number(r.result);
  return Number.isInteger(at) && at >= 0 ? { log: session.configuration.log, seq: at } : undefined;
}

type FileItem = vscode.QuickPickItem & { path: string };

/** The files a restore would change, as quick pick items: ticked unless the person changed the file since the run. */
export function restoreItems(plan: RestorePlan): FileItem[] {
  return plan.changes.map((c) => ({
    path: c.path,
    label: `${c.action === 'remove' ? '$(trash)' : '$(history)'} ${c.path}`,
    description: c.action === 'remove' ? `remove (${c.why})` : `restore ${c.why}`,
    detail: c.changedByPerson ? '$(warning) You changed this file since the run: tick it to overwrite your change.' : undefined,
    picked: !c.changedByPerson,
  }));
}

/** Asks which files to restore (a multi-select list: Enter restores the ticked ones). Null: cancelled. */
async function askFiles(plan: RestorePlan): Promise<string[] | null> {
  const qp = vscode.window.createQuickPick<FileItem>();
  qp.canSelectMany = true;
  qp.ignoreFocusOut = true;
  qp.title = `Restore the workspace to right after event ${plan.toSeq}`;
  const kept = plan.kept.length ? ` Not restorable: ${plan.kept.map((k) => `${k.path} (${k.reason})`).join('; ')}.` : '';
  qp.placeholder = `Enter restores the ticked files; files you changed since the run are unticked.${kept}`;
  qp.items = restoreItems(plan);
  qp.selectedItems = qp.items.filter((i) => i.picked);
  return new Promise((resolve) => {
    let answered = false;
    qp.onDidAccept(() => {
      answered = true;
      resolve(qp.selectedItems.map((i) => i.path));
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!answered) resolve(null);
      qp.dispose();
    });
    qp.show();
  });
}

export class RestoreCommands implements vscode.Disposable {
  private readonly docs = new RunBaseDocs();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly folders: RunLogFolders,
    private readonly followed: () => string | null,
    private readonly log?: vscode.LogOutputChannel,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RunBaseDocs.scheme, this.docs);
  }

  /** Resolves to what was done (null: nothing, e.g. the person said no). */
  async restoreToHere(arg?: unknown): Promise<RestoreResult | null> {
    const target = await restoreTarget(arg);
    if (!target) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Kite: pick an event to restore to: "Restore Workspace to Here" on a timeline row, or stop a replay in the debugger at it.'));
      return null;
    }
    const { planRestoreOfLog, RestoreError } = await import('../../harness/restore/restorePlan');
    const { applyRestore } = await import('../../harness/restore/applyRestore');
    try {
      const plan = await planRestoreOfLog(target.log, target.seq);
      if (!plan.changes.length) {
        const kept = plan.kept.length ? ` Kept as they are: ${plan.kept.map((k) => `${k.path} (${k.reason})`).join('; ')}.` : '';
        void vscode.window.showInformationMessage(vscode.l10n.t('Kite: nothing to restore: every file the run touched is already as it was right after event {0}.{1}', plan.toSeq, kept));
        return null;
      }
      const picked = await askFiles(plan);
      if (picked === null || !picked.length) {
        if (picked) void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no file ticked; nothing restored.'));
        return null;
      }
      const chosen = new Set(picked);
      const notChosen = plan.changes.filter((c) => !chosen.has(c.path)).map((c) => ({ path: c.path, reason: 'not ticked; left as it is' }));
      const asked: RestorePlan = { ...plan, changes: plan.changes.filter((c) => chosen.has(c.path)), kept: [...plan.kept, ...notChosen] };
      // Only files the person ticked are in `asked`: a changed one there was chosen explicitly.
      const overwriteChanged = asked.changes.some((c) => c.changedByPerson);
      const result = await applyRestore(asked, { overwriteChanged });
      this.log?.info(`restore of ${target.log} to event ${target.seq}: ${result.restored.length} file(s) restored, ${result.kept.length} kept`);
      const done = `Kite: ${result.restored.length} file(s) restored to right after event ${plan.toSeq}${result.event ? ` (logged as event ${result.event.seq})` : ''}.`;
      if (result.kept.length) void vscode.window.showWarningMessage(vscode.l10n.t('{0} Kept as they are: {1}.', done, result.kept.map((k) => `${k.path} (${k.reason})`).join('; ')));
      else void vscode.window.showInformationMessage(done);
      return result;
    } catch (e) {
      if (e instanceof RestoreError) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Kite: cannot restore: {0}.', e.message));
        return null;
      }
      throw e;
    }
  }

  /** Opens the multi-file diff: each file at the run's starting commit ↔ the file now. Resolves to the files shown. */
  async reviewChanges(arg?: unknown): Promise<string[]> {
    const log = logOfArg(arg) ?? this.followed() ?? (await pickRun(this.folders, 'Review the changes of which run?'));
    if (!log) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no run to review yet.'));
      return [];
    }
    const { runChanges } = await import('../../harness/restore/runChanges');
    const changes = await runChanges(log);
    for (const s of changes.skipped) this.log?.info(`review changes of ${log}: ${s.path} left out: ${s.reason}`);
    if (!changes.files.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Kite: run {0} left no file changed{1}.', basename(log, '.jsonl'), changes.skipped.length ? ` (${changes.skipped.length} left out, see the Kite log)` : ''));
      return [];
    }
    const run = basename(log, '.jsonl');
    const resources: [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined][] = changes.files.map((f) => {
      const now = vscode.Uri.file(f.abs);
      // A file the run created has no original side: the editor shows it as added.
      const original = f.original === null ? undefined : this.docs.put(run, f.abs, f.original ?? `(the content of ${f.path} at the starting commit is not known)\n`);
      return [now, original, f.exists ? now : undefined];
    });
    const from = changes.startCommit ? `commit ${changes.startCommit.slice(0, 8)}` : 'the start';
    await vscode.commands.executeCommand('vscode.changes', `Kite: ${run} — ${from} ↔ now`, resources);
    return changes.files.map((f) => f.path);
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.dispose();
  }
}
