// What the timeline's row buttons do: open the raw event, the full output, the diff of a write
// (before / as proposed / as applied), or replay the run in the debugger from that event.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { KiteEvent, SessionStart } from '../../harness/protocol/events';
import { fileBeforeRun } from '../../harness/events/fileBeforeRun';
import type { TimelineDocs } from './timelineDocs';
import { resolveWrite, type WriteIndex } from '../../harness/events/writeResolver';
import { cannotRebuild, diffViews } from './diffViews';
import { checkExitText } from '../../harness/protocol/checkExit';

/** What a row action needs from the timeline showing the log. */
export interface ActionSource {
  readonly logPath: string;
  event(seq: number): Promise<KiteEvent | null>;
  raw(seq: number): Promise<string | null>;
  readonly writes: WriteIndex;
  readonly start: SessionStart | null;
}

export class RowActions {
  constructor(
    private readonly docs: TimelineDocs,
    private readonly log?: vscode.LogOutputChannel,
  ) {}

  private run(src: ActionSource): string {
    return basename(src.logPath, '.jsonl');
  }

  async openRaw(src: ActionSource, seq: number): Promise<void> {
    const raw = await src.raw(seq);
    if (raw === null) return this.missing(src, seq);
    let text = raw;
    try {
      text = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      // Not JSON after all (a problem line): show it as it is.
    }
    await this.show(`${this.run(src)}/event-${seq}.json`, text);
  }

  async openOutput(src: ActionSource, seq: number): Promise<void> {
    const e = await src.event(seq);
    if (!e) return this.missing(src, seq);
    let text: string;
    switch (e.kind) {
      case 'tool':
        text = e.output;
        break;
      case 'gate':
        text = [e.feedback || 'All checks passed.', ...e.checks.map((c) => `$ ${c.command}\n→ ${checkExitText(c)} after ${c.ms} ms (${c.source})\n${c.output_tail}`)].join('\n\n');
        break;
      case 'user':
        text = e.text;
        break;
      case 'model':
        text = e.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `→ ${b.name} ${JSON.stringify(b.input, null, 2)}` : b.type === 'thinking' ? b.thinking : '(redacted thinking)')).join('\n\n');
        break;
      case 'approval_request':
      case 'approval':
      case 'budget_stop':
      case 'divergence':
      case 'intent':
      case 'model_retry':
      case 'paused':
      case 'policy':
      case 'progress':
      case 'proposed':
      case 'resumed':
      case 'session_end':
      case 'session_start':
      case 'warning':
      case 'hook':
      case 'person_edit':
      case 'restore':
      case 'compaction':
      default:
        return this.openRaw(src, seq);
    }
    const name = e.kind === 'tool' ? `${e.name}-${seq}.txt` : `${e.kind}-${seq}.txt`;
    await this.show(`${this.run(src)}/${name}`, text);
  }

  async openDiff(src: ActionSource, seq: number): Promise<void> {
    const e = await src.event(seq);
    const call = e ? src.writes.callOf(e) : null;
    if (!call) {
      await vscode.window.showInformationMessage(vscode.l10n.t('Kite: this event is not part of a file write.'));
      return;
    }
    const v = await resolveWrite(src.writes, call, { event: (s) => src.event(s), base: (p, h) => fileBeforeRun(src.start, p, h) });
    for (const n of v.notes) this.log?.info(`timeline diff of ${call.path} (seq ${seq}): ${n}`);
    const views = diffViews(v);
    if (!views.length) {
      // Never an empty side passed off as the file: say what is missing and why.
      await vscode.window.showWarningMessage(vscode.l10n.t('Kite: cannot show the diff of {0} at event {1}: {2}. Details are in the Kite output.', call.path, seq, cannotRebuild(v)));
      return;
    }
    let view = views[0];
    if (views.length > 1) {
      const pick = await vscode.window.showQuickPick(
        views.map((x) => ({ label: x.label, description: x.description, view: x })),
        { title: vscode.l10n.t('{0}: the proposal was edited before it was applied', call.path) },
      );
      if (!pick) return;
      view = pick.view;
    }
    const run = this.run(src);
    // Titles are fixed words: notes (possibly an internal error) go to the log, never to a tab.
    const side = (label: string, text: string) => this.docs.put(`${run}/${label}/${call.path}`, text);
    await vscode.commands.executeCommand('vscode.diff', side(view.left.name, view.left.text), side(view.right.name, view.right.text), `${call.path}: ${view.title}`);
  }

  async replayFromHere(src: ActionSource, seq: number): Promise<void> {
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes('kite.replayInDebugger')) {
      await vscode.window.showInformationMessage(vscode.l10n.t('Kite: the replay debugger is not available in this build.'));
      return;
    }
    await vscode.commands.executeCommand('kite.replayInDebugger', { log: src.logPath, seq });
  }

  async restoreToHere(src: ActionSource, seq: number): Promise<void> {
    await vscode.commands.executeCommand('kite.restoreToHere', { log: src.logPath, seq });
  }

  private async show(name: string, text: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.docs.put(name, text));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  private async missing(src: ActionSource, seq: number): Promise<void> {
    await vscode.window.showWarningMessage(vscode.l10n.t('Kite: event {0} is no longer in {1}.', seq, src.logPath));
  }
}
