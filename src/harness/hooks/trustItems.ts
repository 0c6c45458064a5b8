// What a workspace asks the person to trust before a run: its hook commands and its MCP servers
// that are not approved on this machine (new, or their command line changed). One list serves
// `kite trust` and VS Code's trust modal, one store keeps the answers (hooks/trust.ts,
// mcp/mcpTrust.ts), and the digest the person approved is checked again when the approval is
// stored, so what is recorded is exactly what was shown.
import { createHash } from 'node:crypto';
import { loadConfig } from '../config/config';
import { describeServer, loadMcpServers, type McpServerEntry } from '../mcp/mcpConfig';
import { approvalOf, approveServers, serverDigest } from '../mcp/mcpTrust';
import { groupsOf, hasHooks, RUN_HOOK_EVENTS, type HooksConfig } from './hookConfig';
import { hooksDigest, isTrusted, trustWorkspace } from './trust';
import { hookLabel } from '../protocol/hookLabel';

export interface TrustItem {
  kind: 'hook' | 'mcp_server';
  /** Where it comes from, e.g. "PreToolUse [write_file|edit_file]" or "MCP server everything (.mcp.json)". */
  label: string;
  /** The exact command line that would run (env variables by NAME only: their values are never shown). */
  command: string;
  timeout_s: number | null;
  /** MCP servers: never approved here, or approved once with another command line. */
  state?: 'not_approved' | 'changed';
}

export interface TrustStatus {
  root: string;
  items: TrustItem[];
  /** True when nothing needs trust, or these exact items are approved on this machine. */
  trusted: boolean;
  /** The hooks alone are approved (or there are none): refusing the servers still lets a run start. */
  hooks_trusted: boolean;
  /** Identifies the items shown; trustShown() refuses a different one. */
  digest: string;
}

export function hookTrustItems(hooks: HooksConfig): TrustItem[] {
  return RUN_HOOK_EVENTS.flatMap((event) =>
    groupsOf(hooks, event).flatMap(({ configured, group: g }) => g.hooks.map((h) => ({ kind: 'hook' as const, label: hookLabel({ event: configured, matcher: g.matcher }), command: h.command, timeout_s: h.timeout ?? null }))),
  );
}

function mcpTrustItem(s: McpServerEntry, state: 'not_approved' | 'changed'): TrustItem {
  return { kind: 'mcp_server', label: `MCP server ${s.name} (${s.source})`, command: describeServer(s.spec), timeout_s: null, state };
}

interface Pending {
  hooks: HooksConfig;
  hooksPending: boolean;
  servers: McpServerEntry[];
}

function pendingOf(root: string, env: NodeJS.ProcessEnv): Pending & { status: TrustStatus } {
  const config = loadConfig(root);
  const withHooks = hasHooks(config.hooks);
  const hooksPending = withHooks && !isTrusted(root, config.hooks, env);
  const servers: McpServerEntry[] = [];
  const serverItems: TrustItem[] = [];
  for (const s of loadMcpServers(root, config.mcp).servers) {
    const state = approvalOf(root, s, env);
    if (state === 'approved') continue;
    servers.push(s);
    serverItems.push(mcpTrustItem(s, state));
  }
  // The hooks' digest as before when there are no servers to approve (approvals in flight stay valid).
  const hooksPart = hooksDigest(withHooks ? config.hooks : {});
  const digest = servers.length ? createHash('sha256').update(JSON.stringify({ hooks: hooksPart, mcp: servers.map((s) => [s.name, serverDigest(s.spec)]) })).digest('hex') : hooksPart;
  const items = [...(withHooks ? hookTrustItems(config.hooks) : []), ...serverItems];
  return { hooks: config.hooks, hooksPending, servers, status: { root, items, trusted: !hooksPending && !servers.length, hooks_trusted: !hooksPending, digest } };
}

export function trustStatus(root: string, env: NodeJS.ProcessEnv = process.env): TrustStatus {
  return pendingOf(root, env).status;
}

export class TrustChangedError extends Error {
  readonly code = 'trust_changed';
}

/** Records the approval of what the person was shown (digest), refusing when the config changed since. */
export function trustShown(root: string, digest: string, env: NodeJS.ProcessEnv = process.env): string {
  const p = pendingOf(root, env);
  if (p.status.digest !== digest) throw new TrustChangedError(`the hooks or MCP servers of ${root} changed after you were asked; nothing was approved, start again to see the new commands`);
  let file = '';
  if (p.hooksPending || !p.servers.length) file = trustWorkspace(root, p.hooks, env);
  if (p.servers.length) file = approveServers(root, p.servers, env);
  return file;
}
