// The Pending Approvals view: every approval the agent waits for, in the order asked, until answered.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { showControlChars } from '../../harness/protocol/controlChars';
import type { ApprovalQueue, PendingApproval } from '../approvals/approvalQueue';
import type { McpApprovalInfo } from '../../harness/host';
import { mcpPromptText } from '../approvals/mcpPromptText';
import { whereCommandRuns } from '../sandbox/sandboxText';

export class ApprovalsTree implements vscode.TreeDataProvider<PendingApproval>, vscode.Disposable {
  readonly onDidChangeTreeData: vscode.Event<void>;

  constructor(private readonly queue: ApprovalQueue) {
    this.onDidChangeTreeData = queue.onDidChange;
  }

  getChildren(parent?: PendingApproval): PendingApproval[] {
    return parent ? [] : [...this.queue.all()];
  }

  getTreeItem(p: PendingApproval): vscode.TreeItem {
    const r = visible(p.request);
    if (r.kind === 'command' && r.mcp) return this.mcpItem(p, r.mcp);
    const item =
      r.kind === 'write'
        ? new vscode.TreeItem(r.before === null ? vscode.l10n.t('Create {0}', path.basename(r.path)) : r.tool === 'edit_file' ? vscode.l10n.t('Edit {0}', path.basename(r.path)) : vscode.l10n.t('Write {0}', path.basename(r.path)))
        : r.kind === 'read'
          ? new vscode.TreeItem(vscode.l10n.t('Read: {0}', r.path))
          : new vscode.TreeItem(vscode.l10n.t('Run: {0}', r.command));
    item.id = `approval:${p.key}`;
    item.description = r.kind === 'write' ? path.dirname(r.path) : r.kind === 'read' ? vscode.l10n.t('may contain secrets') : r.cwd;
    item.iconPath = new vscode.ThemeIcon(r.kind === 'write' ? 'diff' : r.kind === 'read' ? 'key' : 'terminal', new vscode.ThemeColor('list.warningForeground'));
    item.tooltip =
      r.kind === 'write'
        ? r.tool === 'edit_file'
          ? vscode.l10n.t('The agent wants to edit {0}. Click to review the diff.', r.path)
          : vscode.l10n.t('The agent wants to write {0}. Click to review the diff.', r.path)
        : r.kind === 'read'
          ? vscode.l10n.t('The agent wants to read {0} ({1}). {2}', r.path, r.tool, r.reason)
          : `$ ${r.command}\n${vscode.l10n.t('(in {0})', r.cwd)}\n${whereCommandRuns(r.sandbox)}${r.scriptChanges?.length ? `\n⚠ ${vscode.l10n.t('runs {0}, changed in this run', r.scriptChanges.map((c) => showControlChars(c.script === null ? c.file : `${c.file} "${c.script}"`, { oneLine: true })).join(', '))}` : ''}`;
    item.contextValue = `kite.approval.${r.kind}`;
    item.command = { title: 'Review', command: 'kite.approval.open', arguments: [{ key: p.key }] };
    return item;
  }

  /** An MCP tool call: the tool and its server, not the command-like line the log keeps. */
  private mcpItem(p: PendingApproval, m: McpApprovalInfo): vscode.TreeItem {
    const t = mcpPromptText(m);
    const one = (x: string) => showControlChars(x, { oneLine: true });
    const item = new vscode.TreeItem(vscode.l10n.t('Call {0}', one(m.tool)));
    item.id = `approval:${p.key}`;
    item.description = vscode.l10n.t('MCP server {0}', one(m.server));
    item.iconPath = new vscode.ThemeIcon('plug', new vscode.ThemeColor('list.warningForeground'));
    item.tooltip = `${t.title}\n${t.placeHolder}`;
    item.contextValue = 'kite.approval.command';
    item.command = { title: 'Review', command: 'kite.approval.open', arguments: [{ key: p.key }] };
    return item;
  }

  dispose(): void {}
}

/** The request with control characters in its command, paths and reason shown escaped. */
function visible(r: PendingApproval['request']): PendingApproval['request'] {
  const v = (s: string) => showControlChars(s, { oneLine: true });
  if (r.kind === 'write') return { ...r, path: v(r.path) };
  if (r.kind === 'read') return { ...r, path: v(r.path), reason: v(r.reason) };
  return { ...r, command: v(r.command), cwd: v(r.cwd) };
}
