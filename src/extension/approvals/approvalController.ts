// Routes approval requests from the harness server to the right UI, one at a time in arrival
// order, and the person's answers back. UI buttons, the Kite view and the test API all answer
// through the same methods here.
import * as vscode from 'vscode';
import type { WireApprovalAnswer } from '../../harness/protocol/rpc';
import type { HarnessClient } from '../harnessClient';
import { ApprovalQueue, approvalKey, type PendingApproval } from './approvalQueue';
import { answerFor, promptCommand, promptRead, type CommandChoice, type ShownPrompt } from './commandApproval';
import { WriteApprovals } from './writeApproval';

/** Argument of the approval commands: a tree item / key, optionally a reason (skips the input box). */
export interface ApprovalTarget {
  key?: string;
  reason?: string;
}

export class ApprovalController implements vscode.Disposable {
  readonly queue = new ApprovalQueue();
  readonly writes: WriteApprovals;
  private presenting: string | null = null;
  private prompt: vscode.CancellationTokenSource | null = null; // the open command/read prompt, closed when answered elsewhere
  private readonly disposables: vscode.Disposable[] = [];
  private readonly shown = new vscode.EventEmitter<ShownPrompt>();
  /** An MCP tool call's prompt is on screen, with exactly these words (test API). */
  readonly onDidShowPrompt = this.shown.event;

  constructor(
    private readonly client: HarnessClient,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.writes = new WriteApprovals((p, a) => this.answer(p, a), log);
    this.disposables.push(
      this.queue,
      this.writes,
      this.shown,
      client.onApprovalRequested((r) => {
        const p = this.queue.add({ token: r.token, id: r.request.id, root: r.root, log: r.log, request: r.request });
        this.log.info(`approval requested: ${describe(p)}`);
        this.showNext();
      }),
      client.onApprovalWithdrawn((w) => void this.drop([approvalKey(w.token, w.id)])),
      client.onRunEnded((e) => void this.drop(this.queue.removeRuns([e.token]).map((p) => p.key))),
      client.onDidRestart((d) => void this.drop(this.queue.removeRuns(d.interrupted).map((p) => p.key))),
    );
  }

  /** Sends an answer for one approval, then shows the next one. */
  async answer(p: PendingApproval, answer: WireApprovalAnswer): Promise<void> {
    const accepted = await this.client.answer(p.token, p.id, answer);
    this.log.info(`answered ${describe(p)}: ${answer.decision}${accepted ? '' : ' (the run was no longer waiting)'}`);
    this.queue.remove(p.key);
    if (this.presenting === p.key) this.endPresenting();
    this.showNext();
  }

  private endPresenting(): void {
    this.presenting = null;
    this.prompt?.cancel();
    this.prompt?.dispose();
    this.prompt = null;
  }

  /** Shows one pending approval (the first when no key is given). */
  async open(target?: ApprovalTarget | string): Promise<void> {
    const key = typeof target === 'string' ? target : target?.key;
    const p = key ? this.queue.get(key) : this.queue.head();
    if (!p) return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: nothing is waiting for your approval.'));
    await this.present(p);
  }

  /** Answers a command or read approval (once / always / deny) from a button, the view or a test. */
  async answerCommand(choice: CommandChoice, target?: ApprovalTarget | string): Promise<void> {
    const key = typeof target === 'string' ? target : target?.key;
    const p = key ? this.queue.get(key) : this.queue.all().find((q) => q.request.kind !== 'write');
    if (!p || p.request.kind === 'write') return void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no command or read is waiting for approval.'));
    const reason = typeof target === 'string' ? undefined : target?.reason;
    const a = await answerFor(choice, p, reason);
    if (a) await this.answer(p, a);
  }

  private showNext(): void {
    if (this.presenting && this.queue.get(this.presenting)) return;
    this.presenting = null;
    const next = this.queue.head();
    if (next) void this.present(next);
  }

  private async present(p: PendingApproval): Promise<void> {
    this.presenting = p.key;
    switch (p.request.kind) {
      case 'write':
        await this.writes.open({ ...p, request: p.request });
        return;
      case 'command':
      case 'read': {
        this.prompt?.cancel();
        const cts = (this.prompt = new vscode.CancellationTokenSource());
        const a = p.request.kind === 'read' ? await promptRead(p, cts.token) : await promptCommand(p, cts.token, (s) => this.shown.fire(s));
        if (!this.queue.get(p.key)) return; // answered elsewhere meanwhile
        if (a) await this.answer(p, a);
        else if (this.presenting === p.key) this.presenting = null; // dismissed: stays in the Kite view
        return;
      }
    }
  }

  private async drop(keys: string[]): Promise<void> {
    for (const k of keys) {
      this.queue.remove(k);
      if (this.writes.has(k)) await this.writes.withdraw(k);
      if (this.presenting === k) this.endPresenting();
    }
    this.showNext();
  }

  dispose(): void {
    this.endPresenting();
    for (const d of this.disposables) d.dispose();
  }
}

export function describe(p: PendingApproval): string {
  switch (p.request.kind) {
    case 'write':
      return `${p.request.tool} ${p.request.path}`;
    case 'read':
      return `${p.request.tool} ${p.request.path} (may hold secrets)`;
    case 'command':
      return p.request.mcp ? `tool ${p.request.mcp.tool} from MCP server ${p.request.mcp.server}` : `run \`${p.request.command}\` in ${p.request.cwd}`;
  }
}
