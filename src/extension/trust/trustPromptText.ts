// The words of the trust modal, apart from the modal itself (no 'vscode': unit-tested). Like
// Copilot's MCP trust prompt: every exact command line (env variables by name only, never their
// values), where it is declared, and what follows from each answer.
import type { TrustStatusWire } from '../../harness/protocol/rpc';

type Item = TrustStatusWire['items'][number];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the modal says: the question and every item, exactly. */
export function trustPromptText(s: Pick<TrustStatusWire, 'root' | 'items'> & { hooks_trusted?: boolean }): { message: string; detail: string } {
  const hooks = s.hooks_trusted ? [] : s.items.filter((i) => i.kind === 'hook');
  const servers = s.items.filter((i) => i.kind === 'mcp_server');
  const what = [hooks.length ? plural(hooks.length, 'hook command', 'hook commands') : null, servers.length ? plural(servers.length, 'MCP server', 'MCP servers') : null].filter(Boolean).join(' and ');
  const detail: string[] = [];
  if (hooks.length) {
    detail.push(`${s.root}/.kite/config.json asks Kite to run ${hooks.length === 1 ? 'this command' : 'these commands'} during agent runs (in the sandbox, from the workspace root):`, '', ...hooks.map(hookLine), '');
  }
  if (servers.length) {
    detail.push(`${servers.length === 1 ? 'This MCP server' : 'These MCP servers'} would start for agent runs (in the sandbox, from the workspace root); ${servers.length === 1 ? 'its' : 'their'} tools become mcp__<server>__<tool>, each call asked by the policy:`, '', ...servers.map(serverLine), '');
  }
  const without = [hooks.length ? 'Without trust in the hooks, no run starts here.' : null, servers.length ? `Without trust in the server${servers.length === 1 ? '' : 's'}, runs start without ${servers.length === 1 ? 'its' : 'their'} tools.` : null].filter(Boolean).join(' ');
  detail.push(`Your answer is kept on this machine, outside the workspace (as \`kite trust\` does). A changed command line is asked again. ${without}`);
  return { message: `Trust the ${what} of this workspace?`, detail: detail.join('\n') };
}

function hookLine(i: Item): string {
  return `• ${i.label}: ${i.command}${i.timeout_s ? `  (timeout ${i.timeout_s} s)` : ''}`;
}

function serverLine(i: Item): string {
  return `• ${i.label}${i.state === 'changed' ? ' — CHANGED since you approved it' : ''}: ${i.command}`;
}
