// The host of an attended CLI run on a terminal: shows the diff of a write, the command and its
// folder, or the file a read would reveal, then asks. Answers: approve, always (commands, reads),
// deny with a reason, edit in $EDITOR (writes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import type { ApprovalAnswer, ApprovalRequest, DoneWithoutCheckQuestion, Host, UnsandboxedQuestion } from '../host';
import type { KiteEvent } from '../protocol/events';
import { bold, red, requestText } from './approvalText';
import { editorArgv } from './editorCommand';

export { clipPatch, colorDiff, MAX_DIFF_LINES } from './approvalText';

export class TtyHost implements Host {
  private rl: Interface | null = null;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
    private readonly listener?: (e: KiteEvent) => void,
  ) {}

  private say(text: string): void {
    this.output.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private readline(): Interface {
    this.rl ??= createInterface({ input: this.input, output: this.output, terminal: (this.input as { isTTY?: boolean }).isTTY === true });
    return this.rl;
  }

  onEvent(e: KiteEvent): void {
    this.listener?.(e);
  }

  async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    this.say(`\n${requestText(req)}`);
    const choices = req.kind === 'write' ? '[a]pprove, [d]eny, [e]dit' : '[a]pprove, [A]lways allow, [d]eny';
    for (;;) {
      const answer = (await this.readline().question(`${choices}? `, { signal })).trim();
      if (answer === 'a' || answer === 'y' || answer === 'yes') return { decision: 'approve' };
      if (answer === 'A' && req.kind !== 'write') return { decision: 'approve', always: true };
      if (answer === 'd' || answer === 'n' || answer === 'no') {
        const reason = (await this.readline().question('Reason (the agent is told): ', { signal })).trim();
        return { decision: 'deny', reason: reason || 'the person declined' };
      }
      if (answer === 'e' && req.kind === 'write') {
        const edited = this.editInEditor(req.path, req.proposed);
        if (edited !== null) return edited === req.proposed ? { decision: 'approve' } : { decision: 'edit', content: edited };
        this.say('No editor could be started (set $EDITOR).');
        continue;
      }
      this.say(`Please answer one of: ${choices}.`);
    }
  }

  /** Asked once per run when no sandbox can be set up; anything but yes is no. */
  async confirmUnsandboxed(q: UnsandboxedQuestion, signal: AbortSignal): Promise<boolean> {
    this.say(`\n${bold(red('Kite cannot sandbox commands on this machine:'))} ${q.reason}.\n  Fix: ${q.fix}.\n  Without a sandbox, commands (the agent's and the gate's) run as you, with your files and network.`);
    const answer = (await this.readline().question('Run this run\'s commands WITHOUT a sandbox? [y/N] ', { signal })).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  }

  /** `"verify": "none"` and no check: only a yes marks the feature done without one. */
  async confirmDoneWithoutCheck(q: DoneWithoutCheckQuestion, signal: AbortSignal): Promise<boolean> {
    this.say(`\n${bold(`${q.feature} (${q.title}) has no check`)} ("verify": "none") and .kite/config.json lists none: nothing verified the agent's claim that it is done.`);
    const answer = (await this.readline().question(`Mark ${q.feature} done and commit it without a check? [y/N] `, { signal })).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  }

  private editInEditor(path: string, content: string): string | null {
    const dir = mkdtempSync(join(tmpdir(), 'kite-edit-'));
    const file = join(dir, basename(path));
    try {
      writeFileSync(file, content);
      const editor = editorArgv(file);
      if (!editor) return null;
      this.rl?.pause();
      // No shell: the proposed file name is one argument, never shell code.
      const r = spawnSync(editor.command, editor.args, { stdio: 'inherit' });
      this.rl?.resume();
      if (r.status !== 0) return null;
      return readFileSync(file, 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  close(): void {
    this.rl?.close();
    this.rl = null;
  }
}
