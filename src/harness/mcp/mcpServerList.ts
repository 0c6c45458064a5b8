// The workspace's MCP servers as the Kite view shows them: where each is declared, its command line
// (env NAMES only), whether it is approved here, and — when asked — the tools of the approved ones.
// Listing tools starts the server exactly as a run would (the sandbox, from the workspace root;
// never an unapproved server, and where no sandbox exists, no stdio server), then stops it.
import { loadConfig } from '../config/config';
import { workspaceLogDir } from '../events/logFiles';
import type { EventBody, KiteEvent } from '../protocol/events';
import type { McpServerWire, McpServersResult, McpToolWire } from '../protocol/rpc';
import { existingProtected, protectionOf } from '../policy/protect';
import { RunSandbox } from '../sandbox/runSandbox';
import { connectServer } from './mcpClient';
import { describeServer, loadMcpServers, timeoutsOf, type McpServerEntry } from './mcpConfig';
import { mcpToolName } from './mcpTools';
import { approvalOf } from './mcpTrust';

const noLog = { append: (b: EventBody) => b as KiteEvent };

export async function listMcpServers(root: string, o: { tools: boolean; env?: NodeJS.ProcessEnv }): Promise<McpServersResult> {
  const env = o.env ?? process.env;
  const config = loadConfig(root);
  const { servers, shadowed } = loadMcpServers(root, config.mcp);
  // Unattended: where no sandbox exists nothing is asked, every stdio start is refused.
  const sandbox = o.tools
    ? new RunSandbox({ root, logDir: workspaceLogDir(root, config), protect: existingProtected(root, protectionOf(root, config.policy?.protect, {})), settings: config.sandbox, offBy: config.sandbox_off_by ?? undefined, mode: 'unattended', env, log: noLog })
    : null;
  const rows = await Promise.all(
    servers.map(async (s): Promise<McpServerWire> => {
      const state = approvalOf(root, s, env);
      const row: McpServerWire = { name: s.name, source: s.source, command: describeServer(s.spec), state, tools: null, tools_error: null };
      if (!sandbox || state !== 'approved') return row;
      // A listing waits as long as a run's start would (the server's start_timeout_s, else mcp.timeout_s).
      const listed = await listTools(root, s, sandbox, timeoutsOf(s, config.mcp?.timeout_s).startMs, env);
      return 'error' in listed ? { ...row, tools_error: listed.error } : { ...row, tools: listed.tools };
    }),
  );
  return { servers: rows, shadowed, error: null };
}

async function listTools(root: string, s: McpServerEntry, sandbox: RunSandbox, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<{ tools: McpToolWire[] } | { error: string }> {
  const c = await connectServer(s, { root, sandbox, timeoutMs, env });
  if (!c.ok) return { error: c.reason };
  try {
    const listing = await c.connection.listTools(timeoutMs);
    return { tools: listing.map((t) => ({ name: mcpToolName(s.name, t.name), tool: t.name, description: t.description ?? '', read_only: t.annotations?.readOnlyHint === true })) };
  } catch (e) {
    return { error: `it did not list its tools: ${(e as Error).message}` };
  } finally {
    await c.connection.close();
  }
}
