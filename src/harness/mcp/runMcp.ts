// The MCP part of starting (or resuming, or replaying) a run: the servers' tools join the built-in
// ones in the toolbox and on the wire, before session_start records them. A replay gets the
// recorded tools (mcpReplay.ts) and starts nothing, unless asked to call the servers live
// (`--live-mcp`: the replay's divergence check then compares their results with the recording). Tests that inject their own toolbox get no MCP.
import type { KiteConfig } from '../config/config';
import type { EventSink } from '../events/sink';
import type { LoopDeps } from '../loop/session';
import { wireTools } from '../loop/assemble';
import type { Feature } from '../progress/progressFile';
import type { KiteEvent, Mode } from '../protocol/events';
import type { RunSandbox } from '../sandbox/runSandbox';
import { ALL_TOOLS, createToolbox } from '../tools/index';
import { recordedMcpTools } from './mcpReplay';
import { McpSession } from './mcpSession';

export interface RunMcp {
  /** Logs what the start found (after session_start / resumed); withdrawals are logged from then on. */
  attach(log: EventSink): void;
  close(): Promise<void>;
}

export interface RunMcpInput {
  root: string;
  config: KiteConfig;
  feature: Feature;
  mode: Mode;
  env: NodeJS.ProcessEnv;
  /** A replay: the recorded events (tools and results come from them; no server starts). */
  replayEvents?: readonly KiteEvent[];
  /** With replayEvents: start the approved servers anyway and call them live. */
  liveMcp?: boolean;
  /** Whose approvals apply, when not root's (a replay's scratch worktree). */
  trustRoot?: string;
  /** The caller injected its own toolbox: leave it as it is. */
  toolboxInjected: boolean;
}

export async function withMcpTools<D extends LoopDeps & { sandbox: RunSandbox }>(deps: D, i: RunMcpInput): Promise<{ deps: D; mcp: RunMcp }> {
  const none: RunMcp = { attach: () => undefined, close: () => Promise.resolve() };
  if (i.toolboxInjected) return { deps, mcp: none };
  if (i.replayEvents && !i.liveMcp) {
    const tools = recordedMcpTools(i.replayEvents);
    if (!tools.length) return { deps, mcp: none };
    const toolbox = createToolbox([...ALL_TOOLS, ...tools]);
    return { deps: { ...deps, toolbox, tools: wireTools(toolbox, i.feature) }, mcp: none };
  }
  const session = await McpSession.start({
    root: i.root,
    trustRoot: i.trustRoot ?? i.root,
    mcp: i.config.mcp,
    mode: i.mode,
    env: i.env,
    sandbox: deps.sandbox,
    sandboxUsable: !i.config.sandbox.enabled || deps.sandbox.info.kind !== 'none',
  });
  const toolbox = createToolbox([...ALL_TOOLS, ...session.tools]);
  const next = { ...deps, toolbox, tools: wireTools(toolbox, i.feature) };
  return { deps: next, mcp: { attach: (log) => session.attach(log, next.tools), close: () => session.close() } };
}
