// One connection to one MCP server through the official SDK client. A stdio server is started like
// every command Kite starts: the run's sandbox prepares it (bubblewrap where there is one, the
// allowlisted environment plus the server's own configured variables, cwd the workspace root), so it
// sees the workspace and nothing of the person's home or Kite's secrets. The SDK adds PATH, HOME,
// USER, SHELL, TERM of Kite's own environment to the process it spawns; under bwrap that is only
// the sandbox launcher (--clearenv), and none of them is a secret. A Streamable HTTP server is
// reached at its URL. Every request has a timeout; a server that exits or breaks its pipe reports
// it once through onClosed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { resolveHeaders, type McpServerEntry } from './mcpConfig';
import { shellQuote } from '../protocol/shellQuote';

export interface McpToolListing {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface McpConnection {
  readonly name: string;
  /** Process id of what was started (the sandbox launcher under bwrap); null for HTTP. */
  readonly pid: number | null;
  listTools(timeoutMs: number): Promise<McpToolListing[]>;
  callTool(tool: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<McpCallResult>;
  /** Resolves when the server answers a ping within timeoutMs (is it still there after a slow call?). */
  ping(timeoutMs: number): Promise<void>;
  /** Called once when the server went away (exit, crash, broken pipe) before close(). */
  onClosed(listener: (why: string) => void): void;
  close(): Promise<void>;
}

/** The SDK's own request timeout (it also sent the server a cancellation). */
export function isRequestTimeout(e: unknown): boolean {
  return e instanceof McpError && e.code === Number(ErrorCode.RequestTimeout);
}

export type ConnectResult = { ok: true; connection: McpConnection } | { ok: false; reason: string };

/** POSIX shell quoting: the sandbox runs one command line with /bin/sh -c. */
export function shellLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}

const STDERR_KEEP = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export async function connectServer(entry: McpServerEntry, o: { root: string; sandbox: CommandSandbox; timeoutMs: number; env: NodeJS.ProcessEnv }): Promise<ConnectResult> {
  let transport: Transport;
  let stderrTail = '';
  let pid: () => number | null = () => null;
  if ('url' in entry.spec) {
    const headers = resolveHeaders(entry.spec.headers, o.env);
    if (!headers.ok) return { ok: false, reason: `it was not contacted: ${headers.problem}` };
    transport = new StreamableHTTPClientTransport(new URL(entry.spec.url), { requestInit: { headers: headers.headers } });
  } else {
    const prepared = await o.sandbox.prepare({ command: shellLine(entry.spec.command, entry.spec.args), cwd: o.root, timeout_s: o.timeoutMs / 1000, env: entry.spec.env });
    if (!prepared.ok) return { ok: false, reason: `the sandbox refused to start it: ${prepared.refused}` };
    const stdio = new StdioClientTransport({ command: prepared.file, args: prepared.args, env: prepared.env, cwd: o.root, stderr: 'pipe' });
    stdio.stderr?.on('data', (c: Buffer) => {
      stderrTail = (stderrTail + c.toString('utf8')).slice(-STDERR_KEEP);
    });
    pid = () => stdio.pid;
    transport = stdio;
  }
  const client = new Client({ name: 'kite', version: '0.1.0' });
  let closing = false;
  let closedWhy: string | null = null;
  const listeners: ((why: string) => void)[] = [];
  const lastWords = () => (stderrTail.trim() ? `; its last output: ${stderrTail.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}` : '');
  client.onclose = () => {
    if (closing || closedWhy !== null) return;
    closedWhy = `the server exited or closed its connection${lastWords()}`;
    for (const l of listeners) l(closedWhy);
  };
  client.onerror = () => undefined; // surfaced by the request that failed, or by onclose
  try {
    await withTimeout(client.connect(transport), o.timeoutMs, 'starting the server');
  } catch (e) {
    closing = true;
    await client.close().catch(() => undefined);
    return { ok: false, reason: `it did not start: ${(e as Error).message}${lastWords()}` };
  }
  const connection: McpConnection = {
    name: entry.name,
    get pid() {
      return pid();
    },
    async listTools(timeoutMs) {
      const tools: McpToolListing[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
        tools.push(...(page.tools as McpToolListing[]));
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async callTool(tool, args, timeoutMs, signal) {
      if (closedWhy !== null) throw new Error(closedWhy);
      return (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, ...(signal ? { signal } : {}) })) as McpCallResult;
    },
    async ping(timeoutMs) {
      if (closedWhy !== null) throw new Error(closedWhy);
      await client.ping({ timeout: timeoutMs });
    },
    onClosed(listener) {
      listeners.push(listener);
      if (closedWhy !== null) listener(closedWhy);
    },
    async close() {
      closing = true;
      await client.close().catch(() => undefined);
    },
  };
  return { ok: true, connection };
}
