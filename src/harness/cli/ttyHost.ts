// The host of an attended CLI run on a terminal: shows the diff of a write, the command and its
// folder, or the file a read would reveal, then asks. Answers: approve, always (commands, reads),
// deny with a reason, edit in $EDITOR (writes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { createTwoFilesPatch } from 'diff';
import type { ApprovalAnswer, ApprovalRequest, Host, UnsandboxedQuestion } from '../host';
import type { KiteEvent } from '../protocol/events';

const color = (code: number) => (s: string) => (process.stderr.isTTY ? `\x1b[${code}m${s}\x1b[0m` : s);
const red = color(31);
const green = color(32);
const cyan = color(36);
const bold = color(1);

export function colorDiff(patch: string): string {
  return patch
    .split('\n')
    .filter((l) => !/^(=+|Index: .*)$/.test(l)) // createTwoFilesPatch's banner says nothing
    .map((l) => (l.startsWith('+') && !l.startsWith('+++') ? green(l) : l.startsWith('-') && !l.startsWith('---') ? red(l) : l.startsWith('@@') ? cyan(l) : l))
    .join('\n');
}

/** Lines of a diff shown before the rest is summarized (a 2,000-line new file would scroll the question away). */
export const MAX_DIFF_LINES = 150;

export function clipPatch(patch: string, max = MAX_DIFF_LINES): string {
  const lines = patch.replace(/\n$/, '').split('\n');
  if (lines.length <= max) return lines.join('\n');
  return `${lines.slice(0, max).join('\n')}\n… ${lines.length - max} more diff lines not shown ([e]dit opens the whole proposal in $EDITOR)`;
}

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
    if (req.kind === 'write') {
      const patch = createTwoFilesPatch(`a/${req.path}`, `b/${req.path}`, req.before ?? '', req.proposed, req.before === null ? '(new file)' : '', '');
      this.say(`\n${bold(`The agent wants to ${req.before === null ? 'create' : 'change'} ${req.path}:`)}\n${colorDiff(clipPatch(patch))}`);
    } else if (req.kind === 'read') {
      this.say(`\n${bold(`The agent wants to read ${req.path}`)} (${req.tool}):\n  ${req.reason}\n  If you approve, its content is sent to the model.`);
    } else {
      this.say(`\n${bold('The agent wants to run:')}\n  $ ${req.command}\n  in ${req.cwd}`);
    }
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

  private editInEditor(path: string, content: string): string | null {
    const editor = process.env.VISUAL || process.env.EDITOR || 'vi';
    const dir = mkdtempSync(join(tmpdir(), 'kite-edit-'));
    const file = join(dir, basename(path));
    try {
      writeFileSync(file, content);
      this.rl?.pause();
      const r = spawnSync(editor, [file], { stdio: 'inherit', shell: true });
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
