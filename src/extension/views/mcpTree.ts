// The Kite view's MCP Servers: each server the workspace declares (.kite/config.json, .vscode/
// mcp.json, .mcp.json) with its state — approved, not approved, changed since approved, running in
// a run, withdrawn (why in the tooltip) — and, expanded, its tools (the server started in the
// sandbox just to list them, only when approved and the workspace is trusted). The data comes from
// the harness server (kite/mcpServers); refreshed when those files change, when an approval is
// recorded and when a run starts or withdraws a server.
import * as vscode from 'vscode';
import type { McpServerWire, McpServersResult, McpToolWire } from '../../harness/protocol/rpc';
import type { HarnessClient } from '../harnessClient';
import { McpLiveState } from './mcpLiveState';

export type McpNode =
  | { kind: 'server'; server: McpServerWire }
  | { kind: 'tool'; server: string; tool: McpToolWire }
  | { kind: 'note'; text: string; tooltip: string; icon: string; command?: vscode.Command };

const MCP_FILES = ['.kite/config.json', '.vscode/mcp.json', '.mcp.json'];
const REVIEW: vscode.Command = { title: 'Review MCP Servers…', command: 'kite.reviewMcpServers' };

export class McpTree implements vscode.TreeDataProvider<McpNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly live = new McpLiveState();
  private list: Promise<McpServersResult> | null = null;
  private tools: Promise<McpServersResult> | null = null;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly client: HarnessClient,
    private readonly root: () => string | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    for (const f of MCP_FILES) {
      const w = vscode.workspace.createFileSystemWatcher(`**/${f}`);
      this.disposables.push(w, w.onDidCreate(() => this.refresh()), w.onDidChange(() => this.refresh()), w.onDidDelete(() => this.refresh()));
    }
    this.disposables.push(
      client.onEvent((n) => (this.live.apply(n.token, n.event) ? this.changed.fire() : undefined)),
      client.onRunEnded((e) => (this.live.ended(e.token) ? this.changed.fire() : undefined)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refresh()),
    );
  }

  /** Reads the servers (and their tools, when expanded) again. */
  refresh(): void {
    this.list = null;
    this.tools = null;
    this.changed.fire();
  }

  async getChildren(parent?: McpNode): Promise<McpNode[]> {
    const root = this.root();
    if (!root) return [];
    if (!parent) {
      const r = await (this.list ??= this.fetch(root, false));
      if (r.error) return [{ kind: 'note', text: r.error, tooltip: r.error, icon: 'error' }];
      const nodes: McpNode[] = r.servers.map((server) => ({ kind: 'server', server }));
      if (nodes.length && !vscode.workspace.isTrusted) nodes.unshift({ kind: 'note', text: 'Untrusted workspace: no MCP server starts here', tooltip: 'Kite starts no agent and no MCP server in an untrusted workspace.', icon: 'shield', command: { title: 'Manage Workspace Trust', command: 'workbench.trust.manage' } });
      for (const s of r.shadowed) nodes.push({ kind: 'note', text: s, tooltip: s, icon: 'warning' });
      return nodes;
    }
    if (parent.kind !== 'server') return [];
    const s = parent.server;
    if (s.state !== 'approved') {
      const why = s.state === 'changed' ? 'Its command line changed since it was approved' : 'Not approved on this machine';
      return [{ kind: 'note', text: `${why}: its tools are not offered`, tooltip: `${why}. Review it to approve (the same store as kite trust).`, icon: 'lock', command: REVIEW }];
    }
    if (!vscode.workspace.isTrusted) return [{ kind: 'note', text: 'Not started in an untrusted workspace', tooltip: 'Trust the workspace to let Kite start it.', icon: 'shield' }];
    const listed = (await (this.tools ??= this.fetch(root, true))).servers.find((x) => x.name === s.name);
    if (!listed) return [];
    if (listed.tools_error) return [{ kind: 'note', text: `Tools not listed: ${listed.tools_error}`, tooltip: listed.tools_error, icon: 'error' }];
    if (!listed.tools?.length) return [{ kind: 'note', text: 'It offers no tools', tooltip: 'The server lists no tools.', icon: 'info' }];
    return listed.tools.map((tool) => ({ kind: 'tool', server: s.name, tool }));
  }

  getTreeItem(n: McpNode): vscode.TreeItem {
    switch (n.kind) {
      case 'note': {
        const item = new vscode.TreeItem(n.text);
        item.tooltip = n.tooltip;
        item.iconPath = new vscode.ThemeIcon(n.icon);
        if (n.command) item.command = n.command;
        item.contextValue = 'kite.mcpNote';
        return item;
      }
      case 'tool': {
        const item = new vscode.TreeItem(n.tool.tool);
        item.id = `mcp:${n.server}:${n.tool.tool}`;
        item.description = n.tool.read_only ? vscode.l10n.t('read-only') : undefined;
        item.tooltip = new vscode.MarkdownString()
          .appendText(n.tool.description || vscode.l10n.t('(no description)'))
          .appendMarkdown(`\n\n${vscode.l10n.t('Kite name: {0}', `\`${n.tool.name}\``)}${n.tool.read_only ? vscode.l10n.t(' · the server marks it read-only (readOnlyHint)') : ''}`);
        item.iconPath = new vscode.ThemeIcon(n.tool.read_only ? 'eye' : 'tools');
        item.contextValue = 'kite.mcpTool';
        return item;
      }
      case 'server':
        return this.serverItem(n.server);
    }
  }

  private serverItem(s: McpServerWire): vscode.TreeItem {
    const live = this.live.of(s.name);
    const state =
      s.state === 'not_approved'
        ? vscode.l10n.t('not approved')
        : s.state === 'changed'
          ? vscode.l10n.t('changed since approved — not approved')
          : live.running
            ? vscode.l10n.t('running')
            : live.withdrawn
              ? vscode.l10n.t('withdrawn')
              : vscode.l10n.t('approved');
    const item = new vscode.TreeItem(s.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `mcp:${s.name}`;
    item.description = state;
    const icon = s.state !== 'approved' ? ['lock', 'list.warningForeground'] : live.running ? ['debug-start', 'testing.iconPassed'] : live.withdrawn ? ['warning', 'list.warningForeground'] : ['plug', undefined];
    item.iconPath = new vscode.ThemeIcon(icon[0] as string, icon[1] ? new vscode.ThemeColor(icon[1]) : undefined);
    const tip = new vscode.MarkdownString().appendMarkdown(`**${s.name}** (${s.source}) — ${state}\n\n`).appendCodeblock(s.command, 'sh');
    if (live.withdrawn && s.state === 'approved') tip.appendText(`\n${live.withdrawn}`);
    item.tooltip = tip;
    item.contextValue = s.state === 'approved' ? 'kite.mcpServer.approved' : 'kite.mcpServer.notApproved';
    return item;
  }

  private async fetch(root: string, tools: boolean): Promise<McpServersResult> {
    try {
      return await this.client.mcpServers(root, tools && vscode.workspace.isTrusted);
    } catch (e) {
      this.log.error(`could not list the MCP servers of ${root}: ${String(e)}`);
      return { servers: [], shadowed: [], error: `Could not list the MCP servers: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
