// Follows the runs the harness server drives: a status bar item (feature, turn, tokens, cost
// against budget), a progress notification with Cancel, and a closing message per run.
import * as vscode from 'vscode';
import { usdLimitText } from '../harness/budget/usdLimitText';
import type { KiteEvent } from '../harness/protocol/events';
import type { RunEnded } from '../harness/protocol/rpc';
import type { SandboxInfo } from '../harness/protocol/sandboxInfo';
import { addModelEvent, emptyTotals, judgeCallsOf, type RunTotals } from '../harness/protocol/totals';
import { emptyContextTally, observationTokens, tallyEvent, type ContextTally } from '../harness/protocol/contextTally';
import { observationStatus, observationTooltip } from './observationText';
import { formatTokens, formatUsd } from './tokenText';
import { logTotals } from '../harness/events/logTotals';
import { runErrorText } from './runErrorText';
import type { HarnessClient } from './harnessClient';
import { gateAttemptSentence } from '../harness/events/whyEnded';
import { nextStepActions, type Notices } from './notices';
import { DEV_CONTAINERS_EXTENSION, REOPEN_IN_CONTAINER_COMMAND, statusSandbox } from './sandbox/sandboxText';

export interface ActiveRun {
  token: string;
  feature: string;
  /** The feature's title (from the progress file at start, then session_start): what notifications name. */
  title?: string | null;
  log: string | null;
  turn: number;
  tokens: number;
  costUsd: number;
  usdLimit: number | null;
  tokenLimit: number | null;
  lastActivity: string;
  /** How this run contains its commands (session_start / resumed; null: not known yet or an older log). */
  sandbox: SandboxInfo | null;
  /** A reply came from a model with no known price: the dollars shown are not its cost. */
  priceUnknown?: boolean;
  /** A reply's tokens were counted by Kite with the model's tokenizer (VS Code's language models report none). */
  tokensEstimated?: boolean;
  /** Gate attempts before the run ends gate_failed (session_start; null: not known yet). */
  maxGateFailures?: number | null;
  /** Tokens tool results put into the conversation, and the run's budget for them (null: none). */
  observationTokens?: number;
  observationLimit?: number | null;
}

/** What the status bar adds up: the part of the log before this process took over (a resume),
 *  and the replies since. Shown as their sum, so a resumed run continues from the log's totals. */
interface Counts {
  base: { turn: number; tokens: number; costUsd: number; observationTokens?: number };
  live: RunTotals;
  /** The events since this process took over, folded like the reducer does (observation tokens). */
  tally: ContextTally;
}

export { formatTokens, formatUsd };

export class RunTracker implements vscode.Disposable {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly counts = new Map<string, Counts>();
  private readonly progress = new Map<string, { report(message: string): void; done(): void }>();
  private readonly status = vscode.window.createStatusBarItem('kite.run', vscode.StatusBarAlignment.Left, 50);
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly ended = new vscode.EventEmitter<RunEnded>();
  readonly onDidChange = this.changed.event;
  readonly onDidEnd = this.ended.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly client: HarnessClient,
    private readonly log: vscode.LogOutputChannel,
    private readonly notices: Notices,
  ) {
    this.status.name = 'Kite run';
    this.disposables.push(
      this.status,
      this.changed,
      this.ended,
      client.onEvent((n) => this.onEvent(n.token, n.log, n.event)),
      client.onRunEnded((e) => this.onEnded(e)),
      client.onDidRestart((d) => {
        for (const t of d.interrupted) this.forget(t);
      }),
    );
  }

  all(): ActiveRun[] {
    return [...this.runs.values()];
  }

  /** Registers a run just started, with its progress notification (Cancel stops the run). */
  track(token: string, feature: string, log: string | null = null, sofar: { turn: number; tokens: number; costUsd: number } = { turn: 0, tokens: 0, costUsd: 0 }, title: string | null = null): void {
    this.runs.set(token, { token, feature, title, log, ...sofar, usdLimit: null, tokenLimit: null, lastActivity: 'starting', sandbox: null });
    this.counts.set(token, { base: { ...sofar }, live: emptyTotals(), tally: emptyContextTally() });
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Kite: {0}', featureName(feature, title)), cancellable: true },
      (p, cancel) =>
        new Promise<void>((resolve) => {
          cancel.onCancellationRequested(() => void this.client.stopRun(token).catch(() => undefined));
          this.progress.set(token, { report: (message) => p.report({ message }), done: resolve });
        }),
    );
    this.render();
  }

  private onEvent(token: string, log: string, e: KiteEvent): void {
    let r = this.runs.get(token);
    if (!r) {
      this.track(token, e.kind === 'session_start' ? e.feature : 'run', log);
      r = this.runs.get(token)!;
    }
    if (log) r.log = log;
    const counts = this.counts.get(token);
    if (counts) tallyEvent(counts.tally, e);
    if (e.kind === 'tool') this.show(r); // a result adds to the observation count
    switch (e.kind) {
      case 'session_start':
        r.observationLimit = e.limits.observation_tokens ?? null;
        r.feature = e.feature;
        r.title = e.title;
        r.usdLimit = e.limits.usd;
        r.tokenLimit = e.limits.tokens;
        r.lastActivity = 'started';
        r.sandbox = e.sandbox ?? null;
        r.maxGateFailures = e.max_gate_failures;
        break;
      case 'resumed':
        r.observationLimit = e.limits.observation_tokens ?? null;
        r.usdLimit = e.limits.usd;
        r.tokenLimit = e.limits.tokens;
        r.lastActivity = 'resumed';
        r.sandbox = e.sandbox ?? r.sandbox;
        if (r.log) this.rebase(token, r.log, e.seq);
        break;
      case 'model': {
        const c = this.counts.get(token);
        if (c) addModelEvent(c.live, e);
        if (e.price_unknown) r.priceUnknown = true;
        if (e.estimated) r.tokensEstimated = true;
        r.turn = e.turn;
        this.show(r);
        r.lastActivity = `turn ${e.turn}`;
        break;
      }
      case 'approval_request':
        r.lastActivity = `waiting for your approval (${e.name})`;
        break;
      case 'approval':
        // Answered: no longer "waiting for your approval" (issue 18 item 7).
        r.lastActivity = e.decision === 'deny' ? 'denied; the agent is told why' : 'approved';
        break;
      case 'intent':
        r.lastActivity = `running ${e.name}${e.path ? ` (${e.path})` : ''}`;
        break;
      case 'compaction': {
        // A summary is a model call: its tokens and dollars join the live totals.
        const c = this.counts.get(token);
        if (c && e.summary) addModelEvent(c.live, e.summary);
        r.lastActivity = `compacted the conversation (~${e.tokens_before} → ~${e.tokens_after} tokens)`;
        this.show(r);
        break;
      }
      case 'tool':
        r.lastActivity = `${e.name}${e.is_error ? ' failed' : ''}`;
        break;
      case 'gate': {
        // A judged check's call is a model call: its tokens and dollars join the live totals.
        const c = this.counts.get(token);
        if (c) for (const j of judgeCallsOf(e)) addModelEvent(c.live, j);
        r.lastActivity = e.passed ? 'gate passed' : `gate failed (attempt ${e.attempt})`;
        // A failed attempt the run goes on from is worth a notification (the last one ends the run, which says why).
        if (!e.passed && e.unverified === undefined && (r.maxGateFailures == null || e.attempt < r.maxGateFailures)) {
          this.notices.show({ level: 'warning', text: `Kite: ${gateAttemptSentence(featureName(r.feature, r.title ?? null), e, r.maxGateFailures ?? null)}`, actions: r.log ? [{ title: 'Open Log', command: 'kite.openRun', args: [r.log] }] : [] });
        }
        break;
      }
      case 'warning':
        // Said at the start of a run on a machine without a sandbox (e.g. Windows), before the
        // first command asks; a dev container is the recommended way to get one.
        if (e.code === 'sandbox_unavailable') this.warnNoSandbox(e.message);
        // An MCP server whose tools this run goes without (not approved, did not start, withdrawn).
        // What the person told the agent and a PromptSubmit hook kept from it: they hear it where they sent it from.
        if (e.code === 'steer_blocked') this.notices.show({ level: 'warning', text: `Kite: ${e.message}`, actions: [] });
        if (e.code === 'mcp_unapproved' || e.code === 'mcp_not_started' || e.code === 'mcp_withdrawn') {
          this.notices.show({ level: 'warning', text: `Kite: ${e.message}`, actions: e.code === 'mcp_unapproved' ? [{ title: 'Review MCP Servers…', command: 'kite.reviewMcpServers', args: [] }] : [] });
        }
        return void this.render();
      case 'budget_stop':
      case 'divergence':
      case 'model_retry':
      case 'paused':
      case 'policy':
      case 'progress':
      case 'proposed':
      case 'session_end':
      case 'user':
      case 'hook':
      case 'person_edit':
      case 'restore':
      default:
        return;
    }
    this.progress.get(token)?.report(r.lastActivity);
    this.render();
  }

  /** The totals of the log before the `resumed` event become the base (the fold, as everywhere). */
  private rebase(token: string, log: string, resumedSeq: number): void {
    void logTotals(log, resumedSeq).then(
      (t) => {
        const c = this.counts.get(token);
        const r = this.runs.get(token);
        if (!c || !r) return; // ended meanwhile
        c.base = { turn: t.turns, tokens: t.tokens, costUsd: t.cost_usd, observationTokens: t.observation_tokens };
        r.turn = Math.max(r.turn, t.turns);
        this.show(r);
        this.render();
      },
      (e: unknown) => this.log.warn(`could not read ${log} for the run's totals so far: ${(e as Error).message}`),
    );
  }

  private show(r: ActiveRun): void {
    const c = this.counts.get(r.token);
    if (!c) return;
    r.tokens = c.base.tokens + c.live.tokens.total;
    r.costUsd = c.base.costUsd + c.live.cost_usd;
    r.observationTokens = (c.base.observationTokens ?? 0) + observationTokens(c.tally);
  }

  private warnNoSandbox(message: string): void {
    const reopen = vscode.extensions.getExtension(DEV_CONTAINERS_EXTENSION) ? [vscode.l10n.t('Reopen in Container')] : [];
    void vscode.window.showWarningMessage(vscode.l10n.t('Kite: no sandbox for commands on this machine — {0}', message), ...reopen).then((p) => (p ? vscode.commands.executeCommand(REOPEN_IN_CONTAINER_COMMAND) : undefined));
  }

  private onEnded(e: RunEnded): void {
    const r = this.runs.get(e.token);
    this.forget(e.token);
    this.ended.fire(e);
    const id = e.summary?.feature ?? r?.feature;
    // Named by the feature's title, not only its id (issue 18 item 7).
    const feature = id ? featureName(id, r?.title ?? null) : 'run';
    if (e.error) {
      this.log.error(`run ${feature} failed: ${e.error.message}`);
      const scm = vscode.l10n.t('Open Source Control');
      const allowDirty = vscode.l10n.t('Allow Uncommitted Changes…');
      const setKey = vscode.l10n.t('Set API Key');
      const fixes = e.error.code === 'dirty_tree' ? [scm, allowDirty] : [e.error.code === 'missing_key' ? setKey : vscode.l10n.t('Show Log')];
      void vscode.window.showErrorMessage(runErrorText(feature, e.error), ...fixes).then((p) => {
        if (p === scm) return vscode.commands.executeCommand('workbench.view.scm');
        if (p === allowDirty) return vscode.commands.executeCommand('workbench.action.openSettings', 'kite.allowDirtyWorkingTree');
        if (p === setKey) return vscode.commands.executeCommand('kite.setApiKey');
        if (p) this.log.show();
        return undefined;
      });
      return;
    }
    const s = e.summary!;
    const totals = `${s.turns} turn(s), ${formatTokens(s.tokens)} tokens, ${formatUsd(s.cost_usd)}`;
    if (s.outcome === 'done') {
      const text = `Kite: ${feature} ended done after ${totals}${s.commit ? `; commit ${s.commit.slice(0, 8)}` : ''}`;
      this.log.info(`${text} (${s.logPath})`);
      return this.notices.show({ level: 'info', text, actions: [{ title: 'Open Timeline', command: 'kite.openRun', args: [s.logPath] }, { title: 'Review Changes', command: 'kite.reviewChanges', args: [s.logPath] }] });
    }
    // Not done: the cause in one sentence (the CLI prints the same one), and what to do next.
    // The sentence is shared with the CLI, which names the feature by id: here it gets its title too.
    const why = s.why && id && s.why.startsWith(`${id} `) ? `${feature}${s.why.slice(id.length)}` : (s.why ?? `${feature} ended ${s.outcome}.`);
    this.log.info(`Kite: ${why} (${totals}; ${s.logPath})`);
    this.notices.show({ level: 'warning', text: `Kite: ${why}`, actions: nextStepActions(s.feature, s.logPath, s.paused === true) });
  }

  private forget(token: string): void {
    this.progress.get(token)?.done();
    this.progress.delete(token);
    this.runs.delete(token);
    this.counts.delete(token);
    this.render();
  }

  private render(): void {
    this.changed.fire();
    void vscode.commands.executeCommand('setContext', 'kite.running', this.runs.size > 0);
    const r = [...this.runs.values()].at(-1);
    if (!r) return this.status.hide();
    const budget = r.usdLimit !== null ? ` / ${usdLimitText(r.usdLimit)}` : '';
    const more = this.runs.size > 1 ? ` (+${this.runs.size - 1})` : '';
    const sb = statusSandbox(r.sandbox);
    this.status.text = `$(sync~spin) Kite ${r.feature} · turn ${r.turn} · ${r.tokensEstimated ? '~' : ''}${formatTokens(r.tokens)} tok${r.tokensEstimated ? ' (estimated)' : ''} · ${r.priceUnknown ? 'price unknown' : formatUsd(r.costUsd)}${budget}${observationStatus(r.observationTokens ?? 0, r.observationLimit ?? null)}${sb.mark}${more}`;
    this.status.tooltip = `${vscode.l10n.t('Kite is working on {0}: {1}.', r.feature, r.lastActivity)}\n${r.tokensEstimated ? `${vscode.l10n.t('Token counts are estimates: the model\'s tokenizer counted them (VS Code reports no usage for its language models).')}\n` : ''}${observationTooltip(r.observationTokens ?? 0, r.observationLimit ?? null)}${sb.tooltip ? `\n${sb.tooltip}` : ''}\n${vscode.l10n.t('Click to open the timeline.')}`;
    // An unsandboxed run stands out, not only in the text.
    this.status.backgroundColor = r.sandbox?.kind === 'none' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.status.command = { title: 'Open Timeline', command: 'kite.openRun', arguments: [r.log ?? undefined] };
    this.status.show();
  }

  dispose(): void {
    for (const t of [...this.progress.keys()]) this.forget(t);
    for (const d of this.disposables) d.dispose();
  }
}

/** "F1 (Fees round half-up)", or the id alone when the title is not known. */
export function featureName(id: string, title: string | null | undefined): string {
  return title ? `${id} (${title})` : id;
}
