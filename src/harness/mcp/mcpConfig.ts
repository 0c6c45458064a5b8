// Where a workspace's MCP servers are declared, read into one list: .kite/config.json `mcp.servers`,
// VS Code's .vscode/mcp.json (`servers`) and the Claude-style .mcp.json (`mcpServers`). Every file
// is parsed with zod; a bad one is a ConfigError naming the file and the JSON path. Declaring a
// server does not start it: it starts only once the person approved it (mcpTrust.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../config/config';
import { KITE_OWN_SECRETS } from '../sandbox/settings';
import { formatIssues } from '../config/formatIssues';
import { describeJsonProblem, parseJsonWithComments } from '../config/jsonText';
import { McpServerSchema, ServerName, type McpConfig } from './mcpConfigSchema';
import { shellQuote } from '../protocol/shellQuote';

const VscodeFileSchema = z.object({ servers: z.record(ServerName, McpServerSchema).default({}) }).loose();
const ClaudeFileSchema = z.object({ mcpServers: z.record(ServerName, McpServerSchema).default({}) }).loose();

export type McpServerSpec = { command: string; args: string[]; env: Record<string, string> } | { url: string; headers: Record<string, string> };

export interface McpServerEntry {
  name: string;
  /** Workspace-relative file that declares it (.kite/config.json, .vscode/mcp.json, .mcp.json). */
  source: string;
  spec: McpServerSpec;
  /** Its own waits from the file (not part of the approval); resolve with timeoutsOf(). */
  start_timeout_s?: number;
  call_timeout_s?: number;
}

export const DEFAULT_MCP_START_TIMEOUT_S = 10;
export const DEFAULT_MCP_CALL_TIMEOUT_S = 60;

/** The server's waits in ms: its own setting, else mcp.timeout_s, else Kite's default. */
export function timeoutsOf(entry: McpServerEntry, fallbackS: number | undefined): { startMs: number; callMs: number } {
  return { startMs: (entry.start_timeout_s ?? fallbackS ?? DEFAULT_MCP_START_TIMEOUT_S) * 1000, callMs: (entry.call_timeout_s ?? fallbackS ?? DEFAULT_MCP_CALL_TIMEOUT_S) * 1000 };
}

function toSpec(s: z.infer<typeof McpServerSchema>): McpServerSpec {
  return 'url' in s ? { url: s.url, headers: s.headers } : { command: s.command, args: s.args, env: s.env };
}

function readJsonFile<T>(root: string, rel: string, schema: z.ZodType<T>): T | null {
  const file = join(root, rel);
  if (!existsSync(file)) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError('unreadable', `${file}: cannot read (${(e as Error).message})`);
  }
  const json = parseJsonWithComments(text);
  if (!json.ok) throw new ConfigError('invalid_json', describeJsonProblem(file, json.problem));
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) throw new ConfigError('invalid_config', formatIssues(file, parsed.error, { raw: json.value, text }));
  return parsed.data;
}

/** Every declared server, Kite's own config first; a name declared twice keeps its first entry (and says so). */
export function loadMcpServers(root: string, kiteMcp: McpConfig | undefined): { servers: McpServerEntry[]; shadowed: string[] } {
  const lists: [string, Record<string, z.infer<typeof McpServerSchema>>][] = [[join('.kite', 'config.json'), kiteMcp?.servers ?? {}]];
  const vscode = readJsonFile(root, join('.vscode', 'mcp.json'), VscodeFileSchema);
  if (vscode) lists.push([join('.vscode', 'mcp.json'), vscode.servers]);
  const claude = readJsonFile(root, '.mcp.json', ClaudeFileSchema);
  if (claude) lists.push(['.mcp.json', claude.mcpServers]);
  const servers: McpServerEntry[] = [];
  const shadowed: string[] = [];
  for (const [source, map] of lists) {
    for (const [name, s] of Object.entries(map)) {
      const first = servers.find((x) => x.name === name);
      if (first) shadowed.push(`MCP server "${name}" in ${source} is ignored: ${first.source} declares a server of the same name`);
      else servers.push({ name, source, spec: toSpec(s), ...(s.start_timeout_s !== undefined ? { start_timeout_s: s.start_timeout_s } : {}), ...(s.call_timeout_s !== undefined ? { call_timeout_s: s.call_timeout_s } : {}) });
    }
  }
  return { servers, shadowed };
}

/** The command line as a person reads it in `kite mcp list` and the approval. */
export function describeServer(spec: McpServerSpec): string {
  if ('url' in spec) return [spec.url, ...Object.keys(spec.headers).map((n) => `${n}: …`)].join(' ');
  const env = Object.keys(spec.env).map((n) => `${n}=…`);
  return [...env, shellQuote(spec.command), ...spec.args.map(shellQuote)].join(' ');
}

const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variables a server's headers take from Kite's environment (part of its approval). */
export function headerEnvRefs(headers: Record<string, string>): string[] {
  return [...new Set(Object.values(headers).flatMap((v) => [...v.matchAll(ENV_REF)].map((m) => m[1])))].sort();
}

/** Header values with ${env:NAME} filled in from Kite's environment; a missing variable is a problem naming the header. */
export function resolveHeaders(headers: Record<string, string>, env: NodeJS.ProcessEnv): { ok: true; headers: Record<string, string> } | { ok: false; problem: string } {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const other = /\$\{(?!env:[A-Za-z_][A-Za-z0-9_]*\})[^}]*\}/.exec(value)?.[0];
    if (other) return { ok: false, problem: `its header ${name} uses ${other}, which Kite cannot fill in (only \${env:NAME}, from Kite's environment)` };
    const own = [...value.matchAll(ENV_REF)].map((m) => m[1]).find((v) => KITE_OWN_SECRETS.includes(v.toUpperCase()));
    if (own) return { ok: false, problem: `its header ${name} uses \${env:${own}}, Kite's own credential, which is never sent to an MCP server` };
    const missing = [...value.matchAll(ENV_REF)].map((m) => m[1]).find((v) => env[v] === undefined);
    if (missing) return { ok: false, problem: `its header ${name} uses \${env:${missing}}, and ${missing} is not set in Kite's environment` };
    out[name] = value.replace(ENV_REF, (_, v: string) => env[v] ?? '');
  }
  return { ok: true, headers: out };
}
