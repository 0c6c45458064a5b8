// An MCP server starts only after the person approved its exact command line on this machine:
// keyed to a hash of command + args + the NAMES of its env variables (values may be tokens and
// change; a new variable is a new approval), or of its URL, its header names and the variables they take (values are tokens). Kept with the hook approvals in the
// person's own Kite state (hooks/trust.ts), so a repository shipping .mcp.json cannot approve itself.
import { createHash } from 'node:crypto';
import { readTrust, stateInsideWorkspace, trustKey, writeTrust } from '../hooks/trust';
import { headerEnvRefs, type McpServerEntry, type McpServerSpec } from './mcpConfig';

export type ApprovalState = 'approved' | 'not_approved' | 'changed';

/** An approval state as the terminal says it (`kite mcp list`, `kite trust`). */
export const APPROVAL_TEXT: Record<ApprovalState, string> = { approved: 'approved', not_approved: 'not approved', changed: 'changed since approval (not approved)' };

export function serverDigest(spec: McpServerSpec): string {
  const headerNames = 'url' in spec ? Object.keys(spec.headers).sort() : [];
  // Without headers the basis is the URL alone, as it was before headers existed (old approvals hold).
  const basis = 'url' in spec ? (headerNames.length ? { url: spec.url, header_names: headerNames, header_env: headerEnvRefs(spec.headers) } : { url: spec.url }) : { command: spec.command, args: spec.args, env_names: Object.keys(spec.env).sort() };
  return createHash('sha256').update(JSON.stringify(basis)).digest('hex');
}

/** approved; not_approved (never); changed (approved once, its command line differs now). */
export function approvalOf(root: string, server: McpServerEntry, env: NodeJS.ProcessEnv = process.env): ApprovalState {
  if (stateInsideWorkspace(root, env)) return 'not_approved';
  const rec = readTrust(env).workspaces[trustKey(root)]?.mcp_servers?.[server.name];
  if (!rec) return 'not_approved';
  return rec.sha256 === serverDigest(server.spec) ? 'approved' : 'changed';
}

/** Records the person's approval of these servers (as they are now); returns the trust file's path. */
export function approveServers(root: string, servers: readonly McpServerEntry[], env: NodeJS.ProcessEnv = process.env, now = new Date()): string {
  const inside = stateInsideWorkspace(root, env);
  if (inside) throw new Error(`Kite's state folder ${inside} is inside the workspace; a workspace cannot approve its own MCP servers (set KITE_STATE_DIR elsewhere)`);
  const t = readTrust(env);
  const ws = (t.workspaces[trustKey(root)] ??= {});
  const approved = { ...ws.mcp_servers };
  for (const s of servers) approved[s.name] = { sha256: serverDigest(s.spec), approved_at: now.toISOString() };
  ws.mcp_servers = approved;
  return writeTrust(t, env);
}
