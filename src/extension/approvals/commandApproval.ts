// Approval of a proposed command (the command, its working folder and where it runs — in the
// sandbox or not: Run once / Always allow / Deny with a reason) or of a read the policy asks about (a file that may hold secrets, e.g. .env:
// Allow once / Always allow this path / Deny). Dismissing either leaves the approval pending in the
// Kite view, where it can be opened again.
import * as vscode from 'vscode';
import { showControlChars } from '../../harness/protocol/controlChars';
import type { McpApprovalInfo } from '../../harness/host';
import type { ScriptChange, WireApprovalAnswer } from '../../harness/protocol/rpc';
import { whereCommandRuns } from '../sandbox/sandboxText';
import type { PendingApproval } from './approvalQueue';
import { mcpPromptText } from './mcpPromptText';

export type CommandChoice = 'once' | 'always' | 'deny';

type Item = vscode.QuickPickItem & { choice: CommandChoice };

/** What a command/read/MCP prompt showed (the test API and the log see exactly this). */
export interface ShownPrompt {
  key: string;
  title: string;
  placeHolder: string;
  items: string[];
}

/** Shows the prompt; resolves with the answer, or undefined when dismissed. */
export async function promptCommand(p: PendingApproval, token: vscode.CancellationToken, shown?: (s: ShownPrompt) => void): Promise<WireApprovalAnswer | undefined> {
  if (p.request.kind !== 'command') return undefined;
  if (p.request.mcp) return promptMcp(p, p.request.mcp, token, shown);
  // Escaped: a `\r` or ESC in the command must not hide what really runs.
  const [command, cwd] = [p.request.command, p.request.cwd].map((s) => showControlChars(s, { oneLine: true }));
  const where = whereCommandRuns(p.request.sandbox); // the person decides knowing what contains it
  const items: Item[] = [
    { choice: 'once', label: '$(play) Run once', description: 'run this command now; ask again next time' },
    { choice: 'always', label: '$(pass-filled) Always allow', description: 'add an allow rule for it to .kite/config.json, then run it' },
    { choice: 'deny', label: '$(circle-slash) Deny…', description: 'do not run it; tell the agent why' },
  ];
  const changed = await showScriptChanges(p.request.scriptChanges ?? []);
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Kite wants to run: {0} — {1}{2}', command, where, changed),
    placeHolder: vscode.l10n.t('$ {0}    (in {1}) · {2}{3}', command, cwd, where, changed),
    ignoreFocusOut: true,
  }, token);
  if (!pick || token.isCancellationRequested) return undefined;
  return answerFor(pick.choice, p);
}

/** An MCP tool call: tool and server by name, the validated arguments, the rule that asked. */
async function promptMcp(p: PendingApproval, m: McpApprovalInfo, token: vscode.CancellationToken, shown?: (s: ShownPrompt) => void): Promise<WireApprovalAnswer | undefined> {
  const t = mcpPromptText(m);
  const items: Item[] = [
    { choice: 'once', label: '$(play) Allow once', description: `call ${m.tool} now; ask again next time` },
    { choice: 'always', label: '$(pass-filled) Always allow this tool', description: 'add an allow rule for this tool to .kite/config.json, then call it' },
    { choice: 'deny', label: '$(circle-slash) Deny…', description: 'do not call it; tell the agent why' },
  ];
  if (t.placeHolder.includes('full arguments beside')) {
    const doc = await vscode.workspace.openTextDocument({ content: t.args, language: 'json' });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
  const options = { title: t.title, placeHolder: t.placeHolder, ignoreFocusOut: true };
  const pending = vscode.window.showQuickPick(items, options, token);
  shown?.({ key: p.key, title: t.title, placeHolder: t.placeHolder, items: items.map((i) => i.label) });
  const pick = await pending;
  if (!pick || token.isCancellationRequested) return undefined;
  return answerFor(pick.choice, p);
}

/**
 * A command that runs a script this run changed (`npm run lint` after the lint script was
 * rewritten): the diffs open beside the prompt, and the prompt says so. '' when nothing changed.
 */
async function showScriptChanges(changes: readonly ScriptChange[]): Promise<string> {
  if (!changes.length) return '';
  const names = changes.map((c) => showControlChars(c.script === null ? c.file : `${c.file} "${c.script}"`, { oneLine: true }));
  const content = changes.map((c, i) => `# ${names[i]} changed in this run:\n${showControlChars(c.diff)}`).join('\n');
  const doc = await vscode.workspace.openTextDocument({ content, language: 'diff' });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  return ` · ⚠ runs ${names.join(', ')}, changed in this run (diff beside)`;
}

/** The read prompt; "Always allow" makes the harness add an allow rule for exactly this path. */
export async function promptRead(p: PendingApproval, token: vscode.CancellationToken): Promise<WireApprovalAnswer | undefined> {
  if (p.request.kind !== 'read') return undefined;
  const [path, tool, reason] = [p.request.path, p.request.tool, p.request.reason].map((s) => showControlChars(s, { oneLine: true }));
  const items: Item[] = [
    { choice: 'once', label: '$(eye) Allow once', description: `let ${tool} read it now; ask again next time` },
    { choice: 'always', label: '$(pass-filled) Always allow this path', description: `add an allow rule for ${path} to .kite/config.json` },
    { choice: 'deny', label: '$(circle-slash) Deny…', description: 'do not read it; tell the agent why' },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Kite wants to read {0} (may contain secrets)', path), placeHolder: reason, ignoreFocusOut: true }, token);
  if (!pick || token.isCancellationRequested) return undefined;
  return answerFor(pick.choice, p);
}

export async function answerFor(choice: CommandChoice, p: PendingApproval, reason?: string): Promise<WireApprovalAnswer | undefined> {
  switch (choice) {
    case 'once':
      return { decision: 'approve' };
    case 'always':
      return { decision: 'approve', always: true };
    case 'deny': {
      const read = p.request.kind === 'read';
      const mcp = p.request.kind === 'command' ? p.request.mcp : undefined;
      if (mcp) {
        const why = reason ?? (await vscode.window.showInputBox({ title: showControlChars(`Deny: tool ${mcp.tool} from MCP server ${mcp.server}`, { oneLine: true }), prompt: 'Why? The agent is told the tool was not called and reads your reason.', ignoreFocusOut: true }));
        if (why === undefined) return undefined;
        return { decision: 'deny', reason: why.trim() || 'The person denied the MCP tool call without giving a reason.' };
      }
      const why =
        reason ??
        (await vscode.window.showInputBox({
          title: showControlChars(p.request.kind === 'command' ? `Deny: ${p.request.command}` : p.request.kind === 'read' ? `Deny reading ${p.request.path}` : 'Deny', { oneLine: true }),
          prompt: read ? 'Why? The agent is told the file was not read and reads your reason.' : 'Why? The agent is told the command did not run and reads your reason.',
          ignoreFocusOut: true,
        }));
      if (why === undefined) return undefined;
      return { decision: 'deny', reason: why.trim() || (read ? 'The person denied reading the file without giving a reason.' : 'The person denied the command without giving a reason.') };
    }
  }
}
