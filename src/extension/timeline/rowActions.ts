// What the timeline's row buttons do: open the raw event, the full output, the diff of a write
// (before / as proposed / as applied), or replay the run in the debugger from that event.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative } from 'node:path';
import * as vscode from 'vscode';
import type { KiteEvent, SessionStart } from '../../harness/protocol/events';
import { sha256 } from '../../harness/tools/hash';
import type { TimelineDocs } from './timelineDocs';
import { resolveWrite, type WriteIndex } from '../../harness/events/writeResolver';

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
        text = [e.feedback || 'All checks passed.', ...e.checks.map((c) => `$ ${c.command}\n→ ${c.timed_out ? 'timed out' : `exit ${c.exit_code}`} after ${c.ms} ms (${c.source})\n${c.output_tail}`)].join('\n\n');
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
      await vscode.window.showInformationMessage('Kite: this event is not part of a file write.');
      return;
    }
    const v = await resolveWrite(src.writes, call, { event: (s) => src.event(s), base: (p, h) => this.base(src, p, h) });
    for (const n of v.notes) this.log?.info(`timeline diff of ${call.path} (seq ${seq}): ${n}`);
    const run = this.run(src);
    const side = (label: string, text: string | null) => this.docs.put(`${run}/${label}/${call.path}`, text ?? '');
    let choice: 'proposed' | 'applied' | 'edit' = 'applied';
    if (v.edited && v.proposed !== null && v.applied !== null) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Your edit', description: 'as proposed ↔ as applied', value: 'edit' as const },
          { label: 'Change as applied', description: 'before ↔ as applied', value: 'applied' as const },
          { label: 'Change as proposed', description: 'before ↔ as the model proposed it', value: 'proposed' as const },
        ],
        { title: `${call.path}: the proposal was edited before it was applied` },
      );
      if (!pick) return;
      choice = pick.value;
    } else if (v.applied === null) choice = 'proposed';
    const before = side('before', v.before);
    const proposed = side('proposed', v.proposed);
    const applied = side('applied', v.applied);
    const note = v.notes.length ? ` (${v.notes[0]})` : '';
    if (choice === 'edit') await vscode.commands.executeCommand('vscode.diff', proposed, applied, `${call.path}: as proposed ↔ as applied`);
    else if (choice === 'proposed') await vscode.commands.executeCommand('vscode.diff', before, proposed, `${call.path}: before ↔ as proposed${note}`);
    else await vscode.commands.executeCommand('vscode.diff', before, applied, `${call.path}: before ↔ as applied${note}`);
  }

  async replayFromHere(src: ActionSource, seq: number): Promise<void> {
    const commands = await vscode.commands.getCommands(true);
    if (!commands.includes('kite.replayInDebugger')) {
      await vscode.window.showInformationMessage('Kite: the replay debugger is not available in this build.');
      return;
    }
    await vscode.commands.executeCommand('kite.replayInDebugger', { log: src.logPath, seq });
  }

  async restoreToHere(src: ActionSource, seq: number): Promise<void> {
    await vscode.commands.executeCommand('kite.restoreToHere', { log: src.logPath, seq });
  }

  /** The file before the run: from the run's git commit, or the file on disk, if its hash matches. */
  private async base(src: ActionSource, path: string, preHash: string | null | undefined): Promise<string | null> {
    if (preHash === null) return '';
    const root = src.start?.root;
    if (!root) return null;
    const rel = isAbsolute(path) ? relative(root, path) : path;
    const candidates: (() => Promise<string | null>)[] = [];
    const head = src.start?.git_head;
    if (head) candidates.push(() => gitShow(root, head, rel));
    candidates.push(() => readFile(join(root, rel), 'utf8').catch(() => null));
    for (const get of candidates) {
      const text = await get();
      if (text !== null && (preHash === undefined || sha256(text) === preHash)) return text;
    }
    return null;
  }

  private async show(name: string, text: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.docs.put(name, text));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  private async missing(src: ActionSource, seq: number): Promise<void> {
    await vscode.window.showWarningMessage(`Kite: event ${seq} is no longer in ${src.logPath}.`);
  }
}

function gitShow(root: string, commit: string, rel: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['show', `${commit}:${rel.split('\\').join('/')}`], { cwd: root, maxBuffer: 32 << 20, timeout: 10_000 }, (err, stdout) => resolve(err ? null : stdout));
  });
}
