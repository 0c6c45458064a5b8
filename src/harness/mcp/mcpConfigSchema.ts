// The `mcp` key of .kite/config.json and the shape of one server entry, shared by the three files
// that may declare servers (mcpConfig.ts reads them). No imports from config/: config.ts uses it.
import { z } from 'zod';

/** Per-server waits; each falls back to mcp.timeout_s, then to Kite's defaults (mcpConfig.ts). */
const timeouts = {
  start_timeout_s: z.number().positive().optional().describe('How long this server may take to start and list its tools (default: mcp.timeout_s, else 10).'),
  call_timeout_s: z.number().positive().optional().describe('How long one call to this server may take (default: mcp.timeout_s, else 60). A call that takes longer is reported as timed out; the server is withdrawn only if it no longer answers a ping.'),
};

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'not an environment variable name' });

export const StdioServerSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1).describe('The program to start (run in the sandbox, from the workspace root).'),
    args: z.array(z.string()).default([]).describe('Its arguments.'),
    env: z.record(EnvName, z.string()).default({}).describe('Variables given to the server besides the sandbox\'s allowlisted ones. Their names are part of the approval.'),
    ...timeouts,
  })
  .describe('An MCP server Kite starts and speaks to over stdio.');

export const HttpServerSchema = z
  .object({
    type: z.enum(['http', 'streamable-http']).optional(),
    url: z.url().describe('A Streamable HTTP MCP endpoint.'),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { message: 'not an HTTP header name' }), z.string())
      .default({})
      .describe('Request headers sent with every request (e.g. Authorization). A value may take a variable of Kite\'s environment with ${env:NAME}, so a token need not be in the file. Header names are part of the approval; values are never logged.'),
    ...timeouts,
  })
  .describe('An MCP server Kite reaches over Streamable HTTP.');

/** One server entry; other editors' keys (cwd, envFile…) are not Kite's and are refused by name. */
export const McpServerSchema = z.union([z.strictObject(StdioServerSchema.shape), z.strictObject(HttpServerSchema.shape)]);

/** Server names become part of tool names (mcp__<server>__<tool>). */
export const ServerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, { message: 'a server name is letters, digits, "_", "-" or "." (at most 40)' });

export const McpConfigSchema = z
  .strictObject({
    servers: z.record(ServerName, McpServerSchema).default({}).describe('MCP servers by name: {"command", "args", "env"} (stdio) or {"url"} (Streamable HTTP).'),
    timeout_s: z.number().positive().optional().describe('Default for every server\'s start_timeout_s and call_timeout_s (Kite\'s defaults: 10 s to start and list tools, 60 s per call).'),
    allow_read_only: z.boolean().optional().describe('Tools a server marks readOnlyHint run without asking (default false: every MCP call asks). A policy rule that denies still wins.'),
  })
  .describe('MCP servers whose tools the agent may use; each starts only once approved with `kite trust`.');
export type McpConfig = z.infer<typeof McpConfigSchema>;

