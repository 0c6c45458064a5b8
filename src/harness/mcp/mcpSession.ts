// The MCP servers of one run: which are declared, which the person approved (only those start),
// their tools as Kite tools, and what happens when one fails. Servers start before session_start
// (their tools are part of it); what the start found is logged right after it (warnings, so the
// timeline, the CLI and VS Code show it). A server that exits, crashes or does not answer in time
// later is withdrawn: its tools leave the wire, a call to one is refused, the model is told, and
// the run goes on. A replay never starts a server: recordedMcpTools (mcpReplay.ts) answers instead.
import type { EventSink } from '../events/sink';
import type { ToolSpec } from '../model/model';
import type { Mode } from '../protocol/events';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { fail, ok } from '../tools/defineTool';
import type { AnyTool, ToolOutcome } from '../tools/types';
import { connectServer, isRequestTimeout, type McpConnection } from './mcpClient';
import { describeServer, loadMcpServers, timeoutsOf, type McpServerEntry } from './mcpConfig';
import type { McpConfig } from './mcpConfigSchema';
import { mcpResultText } from './mcpResult';
import { compileInputSchema, defineMcpTool } from './mcpTools';
import { approvalOf } from './mcpTrust';

export interface McpNotice {
  code: 'mcp_unapproved' | 'mcp_not_started' | 'mcp_withdrawn' | 'mcp_started' | 'mcp_shadowed';
  message: string;
  server?: string;
}

export interface McpStartOptions {
  root: string;
  /** The workspace whose approvals count (root, or the person's checkout for a scratch worktree replay). */
  trustRoot: string;
  mcp: McpConfig | undefined;
  mode: Mode;
  env: NodeJS.ProcessEnv;
  sandbox: CommandSandbox;
  /** false: the sandbox is on but this machine has none, so no stdio server may start. */
  sandboxUsable: boolean;
}

/** After a call timed out: how long the server has to answer a ping to keep its tools. */
const PING_AFTER_TIMEOUT_MS = 5000;

interface Live {
  entry: McpServerEntry;
  connection: McpConnection;
  callMs: number;
  tools: AnyTool[];
  withdrawn: string | null;
}

/** The servers' tools for one run; call attach() once session_start is logged, close() at the end. */
export class McpSession {
  private log: EventSink | null = null;
  private wire: ToolSpec[] | null = null;
  private readonly pending: McpNotice[] = [];

  private constructor(
    private readonly live: Live[],
    notices: McpNotice[],
    private readonly fallbackTimeoutS: number | undefined,
  ) {
    this.pending.push(...notices);
  }

  get tools(): AnyTool[] {
    return this.live.filter((l) => l.withdrawn === null).flatMap((l) => l.tools);
  }

  /** Process ids of the started servers by name (tests kill one). */
  pids(): Map<string, number | null> {
    return new Map(this.live.map((l) => [l.entry.name, l.connection.pid]));
  }

  static async start(o: McpStartOptions): Promise<McpSession> {
    const { servers, shadowed } = loadMcpServers(o.root, o.mcp);
    const notices: McpNotice[] = shadowed.map((message) => ({ code: 'mcp_shadowed', message }));
    const session = new McpSession([], notices, o.mcp?.timeout_s);
    const started = await Promise.all(servers.map((entry) => session.startOne(entry, o)));
    for (const l of started) if (l) session.live.push(l);
    return session;
  }

  private async startOne(entry: McpServerEntry, o: McpStartOptions): Promise<Live | null> {
    const what = `MCP server "${entry.name}" (${entry.source}: ${describeServer(entry.spec)})`;
    const approval = approvalOf(o.trustRoot, entry, o.env);
    if (approval !== 'approved') {
      const why = approval === 'changed' ? 'changed since it was approved on this machine' : 'not approved on this machine';
      const unattended = o.mode === 'unattended' ? ' Unattended runs use only servers approved before they start.' : '';
      this.pending.push({ server: entry.name, code: 'mcp_unapproved', message: `${what} is ${why}, so it was not started and its tools are not offered.${unattended} Review and approve it with: kite trust ${o.trustRoot}` });
      return null;
    }
    if (!('url' in entry.spec) && !o.sandboxUsable) {
      this.pending.push({ server: entry.name, code: 'mcp_not_started', message: `${what} was not started: stdio MCP servers run only in the sandbox, and this machine cannot provide one. Its tools are not offered.` });
      return null;
    }
    const { startMs, callMs } = timeoutsOf(entry, this.fallbackTimeoutS);
    const c = await connectServer(entry, { root: o.root, sandbox: o.sandbox, timeoutMs: startMs, env: o.env });
    if (!c.ok) {
      this.pending.push({ server: entry.name, code: 'mcp_not_started', message: `${what}: ${c.reason}. Its tools are not offered.` });
      return null;
    }
    const live: Live = { entry, connection: c.connection, callMs, tools: [], withdrawn: null };
    let listing;
    try {
      listing = await c.connection.listTools(startMs);
    } catch (e) {
      await c.connection.close();
      const why = isRequestTimeout(e) ? `it did not answer tools/list within ${seconds(startMs)}` : (e as Error).message;
      this.pending.push({ server: entry.name, code: 'mcp_not_started', message: `${what} did not list its tools: ${why}. It was stopped and its tools are not offered; the run continues without them.` });
      return null;
    }
    const names = new Set<string>();
    for (const t of listing) {
      const compiled = compileInputSchema(t.inputSchema);
      const tool = compiled.ok
        ? defineMcpTool({
            server: entry.name,
            tool: t.name,
            description: t.description ?? '',
            schema: compiled.schema,
            input: compiled.input,
            readOnlyAllowed: o.mcp?.allow_read_only === true && t.annotations?.readOnlyHint === true,
            unavailable: () => (live.withdrawn === null ? null : `The MCP server "${entry.name}" was withdrawn (${live.withdrawn}); its tools are no longer available. Nothing was run.`),
            call: (args, ctx) => this.call(live, t.name, args, ctx.signal),
          })
        : { problem: compiled.problem };
      const problem = 'problem' in tool ? tool.problem : names.has(tool.name) ? `two of its tools map to the Kite name ${tool.name}` : null;
      if (problem !== null || 'problem' in tool) {
        await c.connection.close();
        this.pending.push({ server: entry.name, code: 'mcp_withdrawn', message: `${what} lists a tool Kite cannot offer ("${t.name}": ${problem}), so all its tools are withdrawn.` });
        return null;
      }
      names.add(tool.name);
      live.tools.push(tool);
    }
    c.connection.onClosed((why) => this.withdraw(live, why));
    this.pending.push({ server: entry.name, code: 'mcp_started', message: `${what} started; its tools: ${live.tools.map((x) => x.name).join(', ') || '(none)'}` });
    return live;
  }

  /** After session_start: what the start found goes into the log; from now on withdrawals are logged as they happen. */
  attach(log: EventSink, wire: ToolSpec[]): void {
    this.log = log;
    this.wire = wire;
    for (const n of this.pending.splice(0)) log.append({ kind: 'warning', code: n.code, message: n.message, ...(n.server ? { server: n.server } : {}) });
    for (const l of this.live) if (l.withdrawn !== null) this.logWithdrawal(l);
  }

  private async call(live: Live, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> {
    const gone = () => `It may not have completed; its tools are withdrawn for the rest of the run. Check its effects before relying on them.`;
    const name = live.entry.name;
    try {
      const r = await live.connection.callTool(tool, args, live.callMs, signal);
      const text = mcpResultText(r);
      return r.isError ? fail('failed', text) : ok(text);
    } catch (e) {
      if (signal?.aborted) return fail('failed', `The call to ${tool} was cancelled. It may have partly run.`);
      if (isRequestTimeout(e)) {
        // A slow tool is not a dead server: only one that no longer answers a ping loses its tools.
        const alive = await live.connection.ping(Math.min(PING_AFTER_TIMEOUT_MS, live.callMs)).then(
          () => true,
          () => false,
        );
        if (alive) return fail('timeout', `The MCP server "${name}" did not answer the call to ${tool} within ${seconds(live.callMs)}; Kite stopped waiting and asked the server to cancel it. It may still complete on the server: check its effects before relying on them. The server still responds, so its tools remain available.`);
        this.withdraw(live, `it did not answer a call to ${tool} within ${seconds(live.callMs)}, nor a ping after it`);
        await live.connection.close();
        return fail('timeout', `The MCP server "${name}" did not answer within ${seconds(live.callMs)} and no longer responds. ${gone()}`);
      }
      const message = (e as Error).message;
      if (live.withdrawn !== null) return fail('failed', `The MCP server "${name}" stopped during the call (${live.withdrawn}). ${gone()}`);
      return fail('failed', `The MCP server "${name}" answered with an error: ${message}`);
    }
  }

  private withdraw(live: Live, why: string): void {
    if (live.withdrawn !== null) return;
    live.withdrawn = why;
    if (this.log) this.logWithdrawal(live);
  }

  private logWithdrawal(live: Live): void {
    const names = live.tools.map((t) => t.name);
    if (this.wire) for (let i = this.wire.length - 1; i >= 0; i--) if (names.includes(this.wire[i].name)) this.wire.splice(i, 1);
    const log = this.log as EventSink;
    log.append({ kind: 'warning', code: 'mcp_withdrawn', server: live.entry.name, message: `MCP server "${live.entry.name}" was withdrawn: ${live.withdrawn}. Its tools (${names.join(', ') || 'none'}) are no longer offered; the run continues.` });
    log.append({ kind: 'user', reason: 'notice', text: `[Kite] The MCP server "${live.entry.name}" stopped (${live.withdrawn}). Its tools (${names.join(', ')}) are no longer available; do not call them again. Continue with the other tools.` });
  }

  async close(): Promise<void> {
    await Promise.all(this.live.map((l) => l.connection.close()));
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
