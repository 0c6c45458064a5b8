// The words of the trust modal, apart from the modal itself (no 'vscode': unit-tested). Like
// Copilot's MCP trust prompt: every exact command line (env variables by name only, never their
// values), where it is declared, and what follows from each answer.
import * as l10n from '@vscode/l10n';
import type { TrustStatusWire } from '../../harness/protocol/rpc';

type Item = TrustStatusWire['items'][number];

/** What the modal says: the question and every item, exactly. Singular and plural are whole messages (translatable). */
export function trustPromptText(s: Pick<TrustStatusWire, 'root' | 'items'> & { hooks_trusted?: boolean }): { message: string; detail: string } {
  const hooks = s.hooks_trusted ? [] : s.items.filter((i) => i.kind === 'hook');
  const servers = s.items.filter((i) => i.kind === 'mcp_server');
  const hookCount = hooks.length === 1 ? l10n.t('1 hook command') : l10n.t('{0} hook commands', hooks.length);
  const serverCount = servers.length === 1 ? l10n.t('1 MCP server') : l10n.t('{0} MCP servers', servers.length);
  const what = hooks.length && servers.length ? l10n.t('{0} and {1}', hookCount, serverCount) : hooks.length ? hookCount : serverCount;
  const detail: string[] = [];
  if (hooks.length) {
    const intro =
      hooks.length === 1
        ? l10n.t('{0}/.kite/config.json asks Kite to run this command during agent runs (in the sandbox, from the workspace root):', s.root)
        : l10n.t('{0}/.kite/config.json asks Kite to run these commands during agent runs (in the sandbox, from the workspace root):', s.root);
    detail.push(intro, '', ...hooks.map(hookLine), '');
  }
  if (servers.length) {
    const intro =
      servers.length === 1
        ? l10n.t('This MCP server would start for agent runs (in the sandbox, from the workspace root); its tools become mcp__<server>__<tool>, each call asked by the policy:')
        : l10n.t('These MCP servers would start for agent runs (in the sandbox, from the workspace root); their tools become mcp__<server>__<tool>, each call asked by the policy:');
    detail.push(intro, '', ...servers.map(serverLine), '');
  }
  const without = [
    hooks.length ? l10n.t('Without trust in the hooks, no run starts here.') : null,
    servers.length ? (servers.length === 1 ? l10n.t('Without trust in the server, runs start without its tools.') : l10n.t('Without trust in the servers, runs start without their tools.')) : null,
  ]
    .filter(Boolean)
    .join(' ');
  detail.push(l10n.t('Your answer is kept on this machine, outside the workspace (as `kite trust` does). A changed command line is asked again. {0}', without));
  return { message: l10n.t('Trust the {0} of this workspace?', what), detail: detail.join('\n') };
}

function hookLine(i: Item): string {
  return `• ${i.label}: ${i.command}${i.timeout_s ? `  ${l10n.t('(timeout {0} s)', i.timeout_s)}` : ''}`;
}

function serverLine(i: Item): string {
  return `• ${i.label}${i.state === 'changed' ? ` — ${l10n.t('CHANGED since you approved it')}` : ''}: ${i.command}`;
}
