// Builds Kite's parts and registers its commands and views. extension.ts only calls this.
import * as vscode from 'vscode';
import type { KeyProvider, RunEnded } from '../harness/protocol/rpc';
import { AgentCommands } from './agentCommands';
import { ApprovalController, type ApprovalTarget } from './approvals/approvalController';
import { ORIGINAL_SCHEME, PROPOSAL_SCHEME } from './approvals/proposalFs';
import type { RejectArgs } from './approvals/writeApproval';
import { HarnessClient, type ServerDeath } from './harnessClient';
import { initWorkspace } from './initWorkspace';
import type { RunLogFolders } from './runLogFolders';
import { RunTracker, type ActiveRun } from './runTracker';
import { confirmUnsandboxed } from './sandbox/confirmUnsandboxed';
import { confirmDoneWithoutCheck } from './confirmDone';
import { reportPersonEdits } from './personEdits';
import { answerLmRequest } from './languageModels/answerLmRequest';
import { ChatModelCache } from './languageModels/chatModelCache';
import { selectModel, type ModelChoice } from './languageModels/selectModel';
import { whereCommandRuns } from './sandbox/sandboxText';
import { ApiKeyStore } from './secrets';
import { Notices, type Notice } from './notices';
import { ApprovalsTree } from './views/approvalsTree';
import { FeaturesTree } from './views/featuresTree';
import { RunsTree } from './views/runsTree';
import { logIsBeingWritten } from '../harness/events/logLock';
import { workspaceRoot } from './agentCommands';
import type { KiteCommandId } from './commandIds';
import { SteerCommands, type PromptArgs, type TellArgs } from './steerCommands';
import type { StreamNotification } from '../harness/protocol/rpc';
import { EvalCommands, type AddToEvalsArg, type EvalsFinished } from './evals/evalCommands';
import { EvalsTree, type EvalNode } from './evals/evalsTree';
import { OnboardingContext } from './onboarding/onboardingContext';
import { askTrustModal, HookTrustGate, type TrustAsker } from './trust/hookTrustGate';
import { McpTree } from './views/mcpTree';
import type { ShownPrompt } from './approvals/commandApproval';

/** Kite's parts once loaded; activate() exposes them to tests as `ready` (answers still go through commands). */
export interface KiteParts {
  /** The implementation behind every command id (extension.ts registers them). */
  commands: Record<KiteCommandId, (...args: never[]) => unknown>;
  serverPid(): number | null;
  /** `where`: the command prompt's line on where it runs (sandboxText.ts), null for writes and reads. */
  pendingApprovals(): { key: string; kind: 'write' | 'command' | 'read'; path: string | null; command: string | null; where: string | null }[];
  onDidChangeApprovals: vscode.Event<void>;
  /** An Accept held back to protect the person's work (unsaved buffer / file changed on disk). */
  onDidHoldApproval: vscode.Event<{ key: string; why: 'unsaved' | 'changed_on_disk' }>;
  activeRuns(): ActiveRun[];
  /** The status bar's runs changed (an event, new totals). */
  onDidChangeRuns: vscode.Event<void>;
  /** What the Runs view lists: each log with the totals it shows (test hook). */
  runsView(): Promise<{ path: string; turns: number; tokens: number; costUsd: number; counting: boolean }[]>;
  /** The Runs view was told to redraw: one run's row (its log's path), or every row (undefined). */
  onDidChangeRunsView: vscode.Event<string | undefined>;
  /** How often the Runs view listed its folder, and drew one log's row (test hooks). */
  runsViewListings(): number;
  runsViewRowsDrawn(path: string): number;
  onDidEndRun: vscode.Event<RunEnded>;
  onDidRestartServer: vscode.Event<ServerDeath>;
  features(): Promise<{ id: string; status: string }[]>;
  /** What Set API Key… does with the typed key (tests cannot type into a password box). */
  storeApiKey(key: string, provider?: KeyProvider): Promise<void>;
  onDidChangeFeatures: vscode.Event<void>;
  refreshViews(): void;
  /** The Features view's items as VS Code shows them (label, contextValue, click command). */
  featureItems(): Promise<vscode.TreeItem[]>;
  /** Every run notification Kite shows (text and action buttons), as it is shown. */
  onDidNotify: vscode.Event<Notice>;
  /** What Kite: Select Model… does, with the pick made by the caller (tests cannot click a quick pick). */
  selectModel(pick: (items: ModelChoice[]) => ModelChoice | undefined): Promise<string | undefined>;
  /** The reply a run's model is generating (throttled deltas), for the timeline's current turn row. */
  onDidStream: vscode.Event<StreamNotification>;
  /** The Evals view's items as VS Code shows them (test hook). */
  evalItems(): Promise<vscode.TreeItem[]>;
  /** A suite run from the Evals view ended, with what it found. */
  onDidFinishEvals: vscode.Event<EvalsFinished>;
  /** Replaces what the hook trust modal answers (tests: this mode refuses modals); null restores the modal. */
  answerTrustPromptWith(ask: TrustAsker | null): void;
  /** The MCP Servers view as VS Code shows it: each server's item and, expanded, its children (test hook). */
  mcpItems(): Promise<{ item: vscode.TreeItem; children: vscode.TreeItem[] }[]>;
  /** An MCP tool call's approval prompt is on screen, with these words. */
  onDidShowApprovalPrompt: vscode.Event<ShownPrompt>;
}

export function wireKite(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, folders: RunLogFolders): KiteParts {
  const keys = new ApiKeyStore(context.secrets);
  const chatModels = new ChatModelCache();
  const client = new HarnessClient(context.asAbsolutePath('dist/harnessServer.js'), log, () => keys.env(), (q) => confirmUnsandboxed(q, log), (q) => confirmDoneWithoutCheck(q, log), (q, onPart, token) => answerLmRequest(q, onPart, token, chatModels, log));
  const notices = new Notices();
  const tracker = new RunTracker(client, log, notices);
  const approvals = new ApprovalController(client, log);
  const runningFeatures = () => new Set(tracker.all().map((r) => r.feature));
  const runningLogs = () => new Set(tracker.all().flatMap((r) => (r.log ? [r.log] : [])));
  const runs = new RunsTree(workspaceRoot, runningLogs, folders);
  const lastRunOf = async (id: string) => {
    const last = (await runs.list()).find((n) => n.summary.feature === id);
    return last ? (logIsBeingWritten(last.path) ? { live: true as const } : { live: false as const, outcome: last.summary.outcome }) : null;
  };
  const features = new FeaturesTree(workspaceRoot, runningFeatures, lastRunOf);
  const trust = new HookTrustGate(client, log);
  const mcpTree = new McpTree(client, workspaceRoot, log);
  const agent = new AgentCommands(client, tracker, keys, features, runs, log, notices, trust);
  const evalsTree = new EvalsTree(workspaceRoot, folders);
  const evals = new EvalCommands(client, evalsTree, workspaceRoot, log);
  const onboarding = new OnboardingContext(workspaceRoot, keys, runs, features.onDidChangeTreeData, () => features.features());
  const approvalsTree = new ApprovalsTree(approvals.queue);
  const steer = new SteerCommands(client, tracker, agent, notices, log);
  let runningKey = '';

  context.subscriptions.push(
    keys,
    chatModels,
    notices,
    keys.onDidChange(() => void client.restartIfIdle()),
    client,
    tracker,
    approvals,
    reportPersonEdits(client, log),
    features,
    runs,
    vscode.window.registerTreeDataProvider('kite.features', features),
    vscode.window.registerTreeDataProvider('kite.runs', runs),
    vscode.window.registerTreeDataProvider('kite.approvals', approvalsTree),
    evalsTree,
    evals,
    onboarding,
    vscode.window.registerTreeDataProvider('kite.evals', evalsTree),
    trust,
    mcpTree,
    trust.onDidChange(() => mcpTree.refresh()),
    vscode.window.registerTreeDataProvider('kite.mcp', mcpTree),
    evals.onDidFinish(() => evalsTree.refresh()),
    tracker.onDidChange(() => {
      // Refresh the trees only when the set of running runs changes, not on every event.
      const key = tracker.all().map((r) => `${r.token}:${r.feature}:${r.log ?? ''}`).join('|');
      if (key === runningKey) return;
      runningKey = key;
      for (const r of tracker.all()) if (r.log) folders.logStarted(r.log);
      features.refresh();
      runs.refresh();
    }),
    approvals.queue.onDidChange(() => void vscode.commands.executeCommand('setContext', 'kite.pendingApprovals', approvals.queue.all().length)),
    client.onDidRestart((d) => {
      const what = d.restarted ? 'stopped unexpectedly and was restarted.' : 'keeps stopping, so it was left stopped; the next command starts it again.';
      void vscode.window.showErrorMessage(vscode.l10n.t('Kite\'s harness server {0}{1}', what, d.interrupted.length ? ` ${d.interrupted.length} run(s) were interrupted.` : ''), vscode.l10n.t('Show Log')).then((p) => (p ? log.show() : undefined));
      void agent.offerResume(d.logs, "Kite's harness server stopped.");
    }),
  );
  const commands: Record<KiteCommandId, (...args: never[]) => unknown> = {
    'kite.startAgent': (arg?: string) => agent.start(arg),
    'kite.startAgentOnFeature': (arg?: Parameters<AgentCommands['start']>[0]) => (arg ? agent.start(arg) : agent.startPick()),
    'kite.stopAgent': (arg?: Parameters<AgentCommands['stop']>[0]) => agent.stop(arg),
    'kite.resumeRun': (arg?: Parameters<AgentCommands['resume']>[0]) => agent.resume(arg),
    'kite.retryFeature': (arg?: Parameters<AgentCommands['start']>[0]) => agent.retry(arg),
    'kite.resetFeature': (arg?: Parameters<AgentCommands['start']>[0]) => agent.reset(arg),
    'kite.openRun': (arg?: Parameters<AgentCommands['openRun']>[0]) => agent.openRun(arg),
    'kite.openLastRun': (arg?: Parameters<AgentCommands['openLastRun']>[0]) => agent.openLastRun(arg),
    'kite.replayRun': (arg?: Parameters<AgentCommands['replay']>[0]) => agent.replay(arg),
    'kite.refreshViews': () => {
      features.refresh();
      runs.refresh();
    },
    'kite.init': async () => {
      const root = workspaceRoot();
      if (!root) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite: open a folder first.'));
      await initWorkspace(root);
      features.refresh();
    },
    'kite.setApiKey': () => keys.prompt(),
    'kite.selectModel': () => selectModel(log),
    'kite.acceptAll': (target?: vscode.Uri | string) => approvals.writes.acceptAll(target),
    'kite.rejectAll': (args?: vscode.Uri | string | RejectArgs) => approvals.writes.rejectAll(args),
    'kite.acceptHunk': (uri: string, key: string) => approvals.writes.acceptHunk(uri, key),
    'kite.rejectHunk': (uri: string, key: string, reason?: string) => approvals.writes.rejectHunk(uri, key, typeof reason === 'string' ? reason : undefined),
    'kite.approval.open': (t?: ApprovalTarget) => approvals.open(t),
    'kite.approval.runOnce': (t?: ApprovalTarget) => approvals.answerCommand('once', t),
    'kite.approval.alwaysAllow': (t?: ApprovalTarget) => approvals.answerCommand('always', t),
    'kite.approval.deny': (t?: ApprovalTarget) => approvals.answerCommand('deny', t),
    'kite.tellAgent': (arg?: TellArgs) => steer.tell(arg && typeof arg === 'object' ? arg : {}),
    'kite.newFeatureFromPrompt': (arg?: PromptArgs) => steer.newFeature(arg && typeof arg === 'object' ? arg : {}),
    'kite.evals.runAll': () => evals.runAll(),
    'kite.evals.runCase': (n?: EvalNode | string) => evals.runCase(n),
    'kite.evals.openLog': (n?: EvalNode | string) => evals.openLog(n),
    'kite.evals.refresh': () => evalsTree.refresh(),
    'kite.addToEvals': (arg?: AddToEvalsArg) => evals.addToEvals(arg),
    'kite.reviewMcpServers': async () => {
      const root = workspaceRoot();
      if (!root) return void vscode.window.showWarningMessage('Kite: open a folder first.');
      if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage('Kite starts no MCP server in an untrusted workspace. Trust this folder first.');
      const s = await client.trustStatus(root);
      if (s.trusted && !s.error) return void vscode.window.showInformationMessage('Kite: every MCP server (and hook) of this workspace is approved on this machine.');
      await trust.ensure(root, { review: true });
      mcpTree.refresh();
    },
    'kite.mcp.refresh': () => mcpTree.refresh(),
    'kite.openWalkthrough': () => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#gettingStarted`, false),
  };
  void closeStaleApprovalTabs().then(() => offerResumeAfterReload(agent, runs));

  return {
    commands,
    serverPid: () => client.serverPid,
    pendingApprovals: () =>
      approvals.queue.all().map((p) => ({
        key: p.key,
        kind: p.request.kind,
        path: p.request.kind === 'command' ? null : p.request.path,
        command: p.request.kind === 'command' ? p.request.command : null,
        where: p.request.kind === 'command' ? whereCommandRuns(p.request.sandbox) : null,
      })),
    onDidChangeApprovals: approvals.queue.onDidChange,
    onDidHoldApproval: approvals.writes.onDidHold,
    activeRuns: () => tracker.all(),
    onDidChangeRuns: tracker.onDidChange,
    runsView: async () => (await runs.getChildren()).map((n) => ({ path: n.path, turns: n.summary.turns, tokens: n.summary.tokens, costUsd: n.summary.costUsd, counting: n.summary.counting === true })),
    onDidChangeRunsView: (listener, thisArg, disposables) => runs.onDidChangeTreeData((n) => listener.call(thisArg, n?.path), null, disposables),
    runsViewListings: () => runs.listings,
    runsViewRowsDrawn: (path) => runs.rowsDrawn.get(path) ?? 0,
    onDidEndRun: tracker.onDidEnd,
    onDidRestartServer: client.onDidRestart,
    features: async () => (await features.features()).map((f) => ({ id: f.id, status: f.status })),
    onDidChangeFeatures: features.onDidChangeTreeData,
    storeApiKey: async (key, provider) => {
      await keys.store(key, provider);
      await client.restartIfIdle();
    },
    refreshViews: () => {
      features.refresh();
      runs.refresh();
    },
    onDidNotify: notices.onDidShow,
    selectModel: (pick) => selectModel(log, async (items) => pick(items)),
    onDidStream: client.onStream,
    featureItems: async () => (await features.getChildren()).map((n) => features.getTreeItem(n)),
    evalItems: async () => (await evalsTree.getChildren()).map((n) => evalsTree.getTreeItem(n)),
    onDidFinishEvals: evals.onDidFinish,
    answerTrustPromptWith: (ask) => {
      trust.ask = ask ?? askTrustModal;
    },
    mcpItems: async () =>
      Promise.all(
        (await mcpTree.getChildren()).map(async (n) => ({ item: mcpTree.getTreeItem(n), children: (await mcpTree.getChildren(n)).map((c) => mcpTree.getTreeItem(c)) })),
      ),
    onDidShowApprovalPrompt: approvals.onDidShowPrompt,
  };
}

/** Diffs restored from before a reload show approvals nobody waits for any more (a resumed run opens new ones). */
async function closeStaleApprovalTabs(): Promise<void> {
  const stale = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && (t.input.modified.scheme === PROPOSAL_SCHEME || t.input.original.scheme === ORIGINAL_SCHEME));
  if (stale.length) await vscode.window.tabGroups.close(stale);
}

/** A window reload kills the server with its runs: runs left waiting for an approval are offered again. */
async function offerResumeAfterReload(agent: AgentCommands, runs: RunsTree): Promise<void> {
  // The listing's summaries are the logs as they are now (read again when size or mtime changed),
  // their waiting approvals from one fold of each unfinished log, which the Runs view then reuses.
  const waiting = (await runs.list()).filter((n) => n.summary.outcome === 'open' && n.summary.pendingApprovals.length > 0).map((n) => n.path);
  if (waiting.length) await agent.offerResume(waiting, 'Kite was waiting for your approval when the window closed.');
}
