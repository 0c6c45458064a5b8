// Starting, stopping and resuming agent runs from the palette and the Kite views.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { keyProviderOf, type RawSettings, type ResolvedSettings } from '../harness/protocol/rpc';
import { loadConfig } from '../harness/config/config';
import { currentFeature, parseProgress, PROGRESS_FILE, ProgressError, type ProgressFile } from '../harness/progress/progressFile';
import { resetFeature } from '../harness/progress/resetFeature';
import type { HarnessClient } from './harnessClient';
import { nextStepActions, type Notices } from './notices';
import type { RunTracker } from './runTracker';
import { ApiKeyStore, persistenceNote } from './secrets';
import { readRunSettings } from './settings/readSettings';
import type { FeatureNode, FeaturesTree } from './views/featuresTree';
import type { RunNode, RunsTree } from './views/runsTree';
import type { HookTrustGate } from './trust/hookTrustGate';

function featureIdOf(arg: FeatureArg): string | undefined {
  return typeof arg === 'string' ? arg : arg?.kind === 'feature' ? arg.feature.id : undefined;
}

export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** Accepts a feature id, a Features-view node, or nothing. */
type FeatureArg = string | FeatureNode | undefined;
/** Accepts a log path, a Runs-view node, a Uri, or nothing. */
type RunArg = string | RunNode | vscode.Uri | undefined;

function logPathOf(arg: RunArg): string | undefined {
  if (!arg) return undefined;
  if (typeof arg === 'string') return arg;
  if (arg instanceof vscode.Uri) return arg.fsPath;
  return arg.path;
}

export class AgentCommands {
  constructor(
    private readonly client: HarnessClient,
    private readonly tracker: RunTracker,
    private readonly keys: ApiKeyStore,
    private readonly features: FeaturesTree,
    private readonly runs: RunsTree,
    private readonly log: vscode.LogOutputChannel,
    private readonly notices: Notices,
    /** Hook commands (later MCP servers) are trusted before any run starts here. */
    private readonly trust?: HookTrustGate,
  ) {}

  /** Starts a run; resolves with the run token, or undefined when it did not start (reason shown). */
  async start(arg?: FeatureArg): Promise<string | undefined> {
    const featureId = typeof arg === 'string' ? arg : arg?.kind === 'feature' ? arg.feature.id : undefined;
    const root = await this.checkedRoot();
    if (!root) return undefined;
    if (!existsSync(join(root, 'kite-progress.json'))) {
      const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Kite: this workspace has no kite-progress.json, so there is no feature to work on.'), vscode.l10n.t('Initialize Kite'));
      if (pick) await vscode.commands.executeCommand('kite.init');
      return undefined;
    }
    if (this.tracker.all().length > 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Kite: {0} is still running. Stop it first (Kite: Stop Agent).', this.tracker.all()[0]!.feature));
      return undefined;
    }
    // The workspace first: a broken progress file or config is the problem to fix, not a missing key.
    const ws = this.checkWorkspace(root, featureId);
    if (!ws.ok) return undefined;
    const s = await this.settingsFor(root, 'start the agent');
    if (!s) return undefined;
    const key = await this.keyFor(s.resolved.model);
    if (key === null) return undefined;
    if (!(await this.trusted(root, 'start the agent'))) return undefined;
    this.log.info(`starting ${featureId ?? 'the current feature'} with ${s.resolved.summary}`);
    try {
      const token = await this.client.startRun({
        root,
        featureId,
        mode: 'attended',
        settings: s.raw,
        allowDirty: vscode.workspace.getConfiguration('kite').get<boolean>('allowDirtyWorkingTree', false),
      });
      // The feature's name from the start (issue 18 item 7), not "current feature".
      this.tracker.track(token, featureId ?? ws.feature ?? 'current feature', null, undefined, ws.title ?? null);
      this.features.refresh();
      return token;
    } catch (err) {
      this.fail('start the agent', err);
      return undefined;
    }
  }

  /** Retry: a fresh run on the feature, whatever its last run ended with. */
  async retry(arg?: FeatureArg): Promise<string | undefined> {
    const id = featureIdOf(arg);
    return id ? this.start(id) : this.startPick();
  }

  /** Reset to Todo: the feature's status back to todo (notes kept, nothing committed), like `kite reset`. */
  async reset(arg?: FeatureArg): Promise<boolean> {
    const root = workspaceRoot();
    const id = featureIdOf(arg) ?? (await vscode.window.showQuickPick((await this.features.features()).filter((f) => f.status !== 'todo').map((f) => ({ label: f.id, description: `${f.title} — ${f.status}` })), { title: vscode.l10n.t('Kite: reset which feature to todo?') }))?.label;
    if (!root || !id) return false;
    if (this.tracker.all().some((r) => r.feature === id)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Kite: {0} is running; stop it before resetting it.', id));
      return false;
    }
    try {
      const { was } = resetFeature(join(root, PROGRESS_FILE), id);
      this.features.refresh();
      this.notices.show({ level: 'info', text: was === 'todo' ? `Kite: ${id} is already todo.` : `Kite: ${id} is todo again (was ${was}); its notes are kept and nothing was committed.`, actions: [{ title: 'Start Agent', command: 'kite.startAgent', args: [id] }] });
      return true;
    } catch (err) {
      this.fail(`reset ${id}`, err);
      return false;
    }
  }

  /** The progress file and config parse, and (without a feature id) some feature is left to work on;
   *  otherwise says what is wrong and what to do, and returns ok: false. */
  private checkWorkspace(root: string, featureId: string | undefined): { ok: boolean; feature?: string; title?: string | null } {
    const progressPath = join(root, PROGRESS_FILE);
    let progress: ProgressFile;
    try {
      progress = parseProgress(readFileSync(progressPath, 'utf8'), progressPath);
      loadConfig(root);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const file = err instanceof ProgressError ? progressPath : join(root, '.kite', 'config.json');
      this.notices.show({ level: 'error', text: `Kite cannot start: ${message}`, actions: [{ title: 'Open File', command: 'vscode.open', args: [vscode.Uri.file(file)] }] });
      return { ok: false };
    }
    if (featureId !== undefined) return { ok: true, feature: featureId, title: progress.features.find((f) => f.id === featureId)?.title ?? null };
    try {
      const current = currentFeature(progress);
      return { ok: true, feature: current.id, title: current.title };
    } catch (err) {
      if (!(err instanceof ProgressError) || err.code !== 'no_feature') throw err;
    }
    // Not a dead end: offer what can be done with the features whose runs did not end done.
    const open = progress.features.filter((f) => f.status !== 'done' && f.status !== 'proposed');
    const f = open[0];
    const text = f
      ? `Kite: no feature is todo or in progress; ${f.id} (${f.title}) is ${f.status.replace(/_/g, ' ')}. Retry it, reset it to todo, or pick another feature.`
      : `Kite: every feature is done or proposed; add a feature (status "todo") to ${PROGRESS_FILE}, or pick a proposal to start.`;
    const actions = f
      ? [
          { title: `Retry ${f.id}`, command: 'kite.retryFeature', args: [f.id] },
          { title: `Reset ${f.id} to Todo`, command: 'kite.resetFeature', args: [f.id] },
          { title: 'Pick a Feature…', command: 'kite.startAgentOnFeature', args: [] },
        ]
      : [
          { title: 'Pick a Feature…', command: 'kite.startAgentOnFeature', args: [] },
          { title: 'Open kite-progress.json', command: 'vscode.open', args: [vscode.Uri.file(progressPath)] },
        ];
    this.notices.show({ level: 'warning', text, actions });
    return { ok: false };
  }

  /** The settings as read (sent with the run) and what the harness makes of them here, or
   *  undefined (reason shown) when a setting is unusable or the harness could not be asked. */
  private async settingsFor(root: string, what: string): Promise<{ raw: RawSettings; resolved: ResolvedSettings } | undefined> {
    const raw = readRunSettings();
    let resolved: ResolvedSettings;
    try {
      resolved = await this.client.resolveSettings({ root, settings: raw });
    } catch (err) {
      this.fail(what, err);
      return undefined;
    }
    for (const w of resolved.warnings) this.log.warn(w);
    if (resolved.problems.length === 0) return { raw, resolved };
    // Never start with a pattern dropped: a missing deny would loosen the policy.
    const problems = resolved.problems.map((p) => `${p.setting}: ${p.message}`).join('; ');
    this.log.error(`not starting: ${problems}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Kite: fix your settings before starting a run — {0}.', problems), vscode.l10n.t('Open Settings')).then((b) => {
      if (b) void vscode.commands.executeCommand('workbench.action.openSettings', 'kite.policy');
    });
    return undefined;
  }

  async startPick(): Promise<string | undefined> {
    const features = await this.features.features();
    if (features.length === 0) return this.start();
    const pick = await vscode.window.showQuickPick(
      features.map((f) => ({ label: `${f.id}  ${f.title}`, description: f.status === 'proposed' ? 'proposal' : f.status, id: f.id })),
      { title: vscode.l10n.t('Kite: start the agent on…'), placeHolder: vscode.l10n.t('Pick a feature'), matchOnDescription: true },
    );
    return pick ? this.start(pick.id) : undefined;
  }

  /** Stops a run: the one named (token, Features-view node, Runs-view node), the only one, or a picked one. */
  async stop(arg?: { token: string } | FeatureNode | RunNode): Promise<boolean> {
    const active = this.tracker.all();
    if (active.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no agent is running.'));
      return false;
    }
    const named =
      arg && 'token' in arg
        ? active.find((r) => r.token === arg.token)
        : arg && 'kind' in arg && arg.kind === 'feature'
          ? active.find((r) => r.feature === arg.feature.id)
          : arg && 'path' in arg
            ? active.find((r) => r.log === arg.path)
            : undefined;
    const run =
      named ??
      (active.length === 1
        ? active[0]
        : (await vscode.window.showQuickPick(active.map((r) => ({ label: r.feature, description: `turn ${r.turn}`, run: r })), { title: vscode.l10n.t('Stop which run?') }))?.run);
    if (!run) return false;
    this.log.info(`stopping ${run.feature}`);
    return this.client.stopRun(run.token);
  }

  /** Resumes an interrupted run from its log (the Runs view, the palette, or after a crash). */
  async resume(arg?: RunArg | FeatureNode): Promise<string | undefined> {
    if (arg && typeof arg === 'object' && 'kind' in arg) return this.resumeFeature(arg);
    let logPath = logPathOf(arg);
    if (!logPath) {
      const open = (await this.runs.list()).filter((n) => n.summary.outcome === 'open' && !n.running);
      if (open.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no interrupted run to resume.'));
        return undefined;
      }
      const pick = await vscode.window.showQuickPick(
        open.map((n) => ({ label: n.summary.feature, description: n.summary.run, detail: n.summary.pendingApprovals.length ? 'was waiting for your approval' : undefined, path: n.path })),
        { title: vscode.l10n.t('Kite: resume which run?') },
      );
      logPath = pick?.path;
    }
    if (!logPath) return undefined;
    const root = await this.checkedRoot();
    if (!root) return undefined;
    // The model and limits come from the log; max gate failures and the policy additions from the settings now.
    const s = await this.settingsFor(root, 'resume the run');
    if (!s) return undefined;
    const summary = (await this.runs.list()).find((n) => n.path === logPath)?.summary;
    const key = await this.keyFor(summary?.model ?? '');
    if (key === null) return undefined;
    if (!(await this.trusted(root, 'resume the run'))) return undefined;
    try {
      const token = await this.client.resumeRun({ log: logPath, mode: 'attended', settings: s.raw });
      // A resumed run continues its totals (the status bar counts from the log's numbers).
      this.tracker.track(token, summary?.feature ?? basename(logPath), logPath, summary ? { turn: summary.turns, tokens: summary.tokens, costUsd: summary.costUsd } : undefined);
      this.log.info(`resuming ${logPath}`);
      return token;
    } catch (err) {
      this.fail('resume the run', err);
      return undefined;
    }
  }

  /** Resume on a feature: its newest run, when that log never ended (paused, interrupted). */
  private async resumeFeature(node: FeatureNode): Promise<string | undefined> {
    if (node.kind !== 'feature') return undefined;
    const id = node.feature.id;
    const last = (await this.runs.list()).find((n) => n.summary.feature === id);
    if (last && last.summary.outcome === 'open' && !last.running) return this.resume(last.path);
    const why = last ? `its last run ended ${last.summary.outcome.replace(/_/g, ' ')}, and a run that ended cannot be resumed` : 'it has no run yet';
    this.notices.show({ level: 'info', text: `Kite: ${id} cannot be resumed: ${why}. Retry starts a fresh run.`, actions: nextStepActions(id, last?.path ?? null, false) });
    return undefined;
  }

  /** After a crash or reload: offer to resume runs that never ended. */
  async offerResume(logs: string[], why: string): Promise<void> {
    const mode = vscode.workspace.getConfiguration('kite').get<'ask' | 'always' | 'never'>('resumeInterruptedRuns', 'ask');
    for (const logPath of logs) {
      if (mode === 'never') {
        this.log.info(`${why} ${logPath} was interrupted; not resuming (kite.resumeInterruptedRuns = never)`);
        continue;
      }
      if (mode === 'always') {
        this.log.info(`${why} resuming ${logPath} (kite.resumeInterruptedRuns = always)`);
        await this.resume(logPath);
        continue;
      }
      const pick = await vscode.window.showWarningMessage(vscode.l10n.t('{0} Run {1} was interrupted. Resume it from its log?', why, basename(logPath, '.jsonl')), vscode.l10n.t('Resume'), vscode.l10n.t('Open Timeline'));
      if (pick === vscode.l10n.t('Resume')) await this.resume(logPath);
      else if (pick === vscode.l10n.t('Open Timeline')) await this.openRun(logPath);
    }
  }

  async openRun(arg?: RunArg): Promise<void> {
    const logPath = logPathOf(arg) ?? (await this.runs.list())[0]?.path;
    if (!logPath) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no runs yet.'));
    const commands = await vscode.commands.getCommands(true);
    if (commands.includes('kite.openTimeline')) await vscode.commands.executeCommand('kite.openTimeline', logPath);
    else await vscode.window.showTextDocument(vscode.Uri.file(logPath));
  }

  async openLastRun(arg?: FeatureArg): Promise<void> {
    const id = typeof arg === 'string' ? arg : arg?.kind === 'feature' ? arg.feature.id : undefined;
    const last = (await this.runs.list()).find((n) => !id || n.summary.feature === id);
    if (!last) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no run of {0} yet.', id ?? 'any feature'));
    await this.openRun(last.path);
  }

  async replay(arg?: RunArg): Promise<void> {
    const logPath = logPathOf(arg);
    await vscode.commands.executeCommand('kite.replayInDebugger', logPath);
  }

  /** The workspace root when an agent may run here; otherwise says why and returns undefined. */
  private async checkedRoot(): Promise<string | undefined> {
    const root = workspaceRoot();
    if (!root) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Kite: open a folder first; the agent works inside a workspace folder.'));
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      const pick = await vscode.window.showWarningMessage(
        vscode.l10n.t('Kite does not start agents in an untrusted workspace: an agent runs commands and writes files here. Trust this folder to use Kite.'),
        vscode.l10n.t('Manage Workspace Trust'),
      );
      if (pick) await vscode.commands.executeCommand('workbench.trust.manage');
      return undefined;
    }
    return root;
  }

  /** Whether the model can run: '' (no key needed) or the key; null when one is needed and missing
   *  (reason shown). The key itself reaches the server through its environment (HarnessClient). */
  private async keyFor(model: string): Promise<string | null> {
    const provider = keyProviderOf(model);
    if (!provider) return '';
    const key = await this.keys.get(provider);
    if (key) return key;
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Kite: {0} needs an {1} API key and none is set. {2} Set one, or try Kite with a scripted model (setting kite.model = "script:<file>").', model, ApiKeyStore.label(provider), persistenceNote(provider)),
      vscode.l10n.t('Set API Key'),
      vscode.l10n.t('Open Settings'),
    );
    if (pick === vscode.l10n.t('Set API Key')) await this.keys.prompt(provider);
    if (pick === vscode.l10n.t('Open Settings')) await vscode.commands.executeCommand('workbench.action.openSettings', 'kite.model');
    return null;
  }

  /** The workspace's hooks are trusted on this machine (asked now when not); false: not starting. */
  private async trusted(root: string, what: string): Promise<boolean> {
    if (!this.trust) return true;
    try {
      return await this.trust.ensure(root);
    } catch (err) {
      this.fail(what, err);
      return false;
    }
  }

  private fail(what: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.log.error(`could not ${what}: ${message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Kite could not {0}: {1}', what, message), vscode.l10n.t('Show Log')).then((p) => (p ? this.log.show() : undefined));
  }
}
