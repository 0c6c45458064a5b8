// Talking to the agent: "Kite: Tell the Agent…" (and the timeline's box) sends a message to the
// running agent, delivered at its next turn; with no run going, "Kite: New Feature from Prompt…"
// turns the typed request into a feature of kite-progress.json and starts the agent on it, so a
// person who thinks in chat still gets a verified, committed feature.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { detectTestCommand } from '../harness/config/detectChecks';
import { featureFromPrompt } from '../harness/progress/featureFromPrompt';
import { parseProgress, PROGRESS_FILE, saveProgress } from '../harness/progress/progressFile';
import { STEER_MAX_CHARS } from '../harness/protocol/rpc';
import { workspaceRoot, type AgentCommands } from './agentCommands';
import type { HarnessClient } from './harnessClient';
import type { Notices } from './notices';
import type { ActiveRun, RunTracker } from './runTracker';

/** What became of a message (the timeline's box announces `message`). */
export interface SteerOutcome {
  status: 'queued' | 'no_run' | 'ended' | 'cancelled' | 'failed';
  message: string;
}

/** Arguments of kite.tellAgent: the text (else an input box asks) and which run's log (else the only one, or a pick). */
export interface TellArgs {
  text?: string;
  log?: string | null;
}

/** Arguments of kite.newFeatureFromPrompt (tests and the timeline pass them; people type them). */
export interface PromptArgs {
  text?: string;
  /** The verify command; null: none; absent: proposed from the project's test command and confirmed. */
  verify?: string | null;
}

const checkLength = (t: string): string | null => (!t.trim() ? 'Type a message for the agent.' : t.length > STEER_MAX_CHARS ? `At most ${STEER_MAX_CHARS} characters.` : null);

export class SteerCommands {
  constructor(
    private readonly client: HarnessClient,
    private readonly tracker: RunTracker,
    private readonly agent: AgentCommands,
    private readonly notices: Notices,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async tell(arg: TellArgs = {}): Promise<SteerOutcome> {
    const active = this.tracker.all();
    if (active.length === 0) {
      // Not a dead end: the same words can start a feature.
      const message = 'No agent is running, so there is nobody to tell. Turn your message into a new feature and start the agent on it?';
      this.notices.show({ level: 'info', text: `Kite: ${message}`, actions: [{ title: 'New Feature from Prompt…', command: 'kite.newFeatureFromPrompt', args: [{ text: arg.text }] }] });
      return { status: 'no_run', message };
    }
    const run = await this.pickRun(active, arg.log ?? null);
    if (!run) return { status: 'cancelled', message: 'Nothing was sent.' };
    const text =
      arg.text ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Kite: Tell the Agent ({0})', run.feature),
        prompt: vscode.l10n.t('Delivered to the agent at its next turn, word for word, and kept in the run log.'),
        placeHolder: vscode.l10n.t('e.g. Keep the old function and add a flag instead'),
        ignoreFocusOut: true,
        validateInput: checkLength,
      }));
    if (text === undefined) return { status: 'cancelled', message: 'Nothing was sent.' };
    const problem = checkLength(text);
    if (problem) return { status: 'failed', message: problem };
    try {
      const r = await this.client.steer(run.token, text);
      if (!r.queued) return { status: 'ended', message: `${run.feature} has just ended; the message was not sent.` };
      const message = `Sent to ${run.feature}: the agent reads it at its next turn${r.waiting > 1 ? ` (${r.waiting} messages waiting)` : ''}.`;
      this.log.info(`told ${run.feature} (${text.length} characters)`);
      vscode.window.setStatusBarMessage(`Kite: ${message}`, 5000);
      return { status: 'queued', message };
    } catch (err) {
      const message = `The message could not be sent: ${err instanceof Error ? err.message : String(err)}`;
      this.log.error(message);
      return { status: 'failed', message };
    }
  }

  /** Writes the request into kite-progress.json as a new todo feature and starts the agent on it. */
  async newFeature(arg: PromptArgs = {}): Promise<string | undefined> {
    const root = workspaceRoot();
    if (!root) return void vscode.window.showWarningMessage(vscode.l10n.t('Kite: open a folder first; the agent works inside a workspace folder.'));
    const running = this.tracker.all()[0];
    if (running) {
      this.notices.show({ level: 'warning', text: `Kite: ${running.feature} is still running. Tell it what you want, or stop it before starting a new feature.`, actions: [{ title: 'Tell the Agent…', command: 'kite.tellAgent', args: [{ text: arg.text }] }] });
      return undefined;
    }
    const progressPath = join(root, PROGRESS_FILE);
    if (!existsSync(progressPath)) {
      const pick = await vscode.window.showWarningMessage(vscode.l10n.t('Kite: this workspace has no kite-progress.json yet. Initialize Kite first; then the request becomes its first feature.'), vscode.l10n.t('Initialize Kite'));
      if (pick) await vscode.commands.executeCommand('kite.init');
      return undefined;
    }
    const text =
      arg.text ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Kite: New Feature from Prompt'),
        prompt: vscode.l10n.t('What should the agent do? It becomes a feature (title, verify command, notes) and the agent starts on it.'),
        placeHolder: vscode.l10n.t('e.g. Add a 2% late fee to overdue invoices, rounded half-up'),
        ignoreFocusOut: true,
        validateInput: (t) => (t.trim() ? null : 'Describe the change you want.'),
      }));
    if (!text?.trim()) return undefined;
    const verify = arg.verify !== undefined ? arg.verify : await this.askVerify(root);
    if (verify === undefined) return undefined;
    let id: string;
    try {
      const progress = parseProgress(readFileSync(progressPath, 'utf8'), progressPath);
      const feature = featureFromPrompt(progress, text, verify);
      progress.features.push(feature);
      saveProgress(progressPath, progress);
      id = feature.id;
      this.log.info(`new feature ${id} "${feature.title}" from a prompt (verify: ${feature.verify ?? 'none'})`);
    } catch (err) {
      this.notices.show({ level: 'error', text: `Kite could not add the feature: ${err instanceof Error ? err.message : String(err)}`, actions: [{ title: 'Open kite-progress.json', command: 'vscode.open', args: [vscode.Uri.file(progressPath)] }] });
      return undefined;
    }
    return this.agent.start(id);
  }

  /** The verify command, proposed from the project's test command; '' → none. undefined: cancelled. */
  private async askVerify(root: string): Promise<string | null | undefined> {
    const detected = detectTestCommand(root);
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Kite: How is this feature verified?'),
      prompt: detected
        ? `Proposed from ${detected.from}. The run ends done only when this command passes. Clear it to rely on the checks in .kite/config.json.`
        : 'No test command found (package.json scripts.test, pytest, cargo test, go test, make test). Type one; with no command and no checks the run ends unverified, never done.',
      value: detected?.command ?? '',
      ignoreFocusOut: true,
    });
    if (typed === undefined) return undefined;
    return typed.trim() || null;
  }

  private async pickRun(active: ActiveRun[], log: string | null): Promise<ActiveRun | undefined> {
    const byLog = log ? active.find((r) => r.log === log) : undefined;
    if (byLog) return byLog;
    if (active.length === 1) return active[0];
    return (await vscode.window.showQuickPick(active.map((r) => ({ label: r.feature, description: `turn ${r.turn}`, run: r })), { title: vscode.l10n.t('Tell which agent?') }))?.run;
  }
}
