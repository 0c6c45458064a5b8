// Which MCP servers the active runs have started, and which a run withdrew (and why), folded from
// the runs' `warning` events that name a server (mcp_started, mcp_withdrawn). No 'vscode': unit-tested.
import type { KiteEvent } from '../../harness/protocol/events';

export interface ServerLive {
  /** Active runs it is started in (not withdrawn there). */
  running: number;
  /** The last withdrawal's message, until a run starts it again. */
  withdrawn: string | null;
}

export class McpLiveState {
  private readonly started = new Map<string, Set<string>>(); // server → run tokens
  private readonly withdrawn = new Map<string, string>();

  /** True when the event changed what the view shows. */
  apply(token: string, e: KiteEvent): boolean {
    if (e.kind !== 'warning' || !e.server) return false;
    if (e.code === 'mcp_started') {
      let runs = this.started.get(e.server);
      if (!runs) this.started.set(e.server, (runs = new Set()));
      runs.add(token);
      this.withdrawn.delete(e.server);
      return true;
    }
    if (e.code === 'mcp_withdrawn' || e.code === 'mcp_not_started') {
      this.started.get(e.server)?.delete(token);
      this.withdrawn.set(e.server, e.message);
      return true;
    }
    return e.code === 'mcp_unapproved';
  }

  /** The run ended: its servers stopped with it. */
  ended(token: string): boolean {
    let any = false;
    for (const runs of this.started.values()) any = runs.delete(token) || any;
    return any;
  }

  of(server: string): ServerLive {
    return { running: this.started.get(server)?.size ?? 0, withdrawn: this.withdrawn.get(server) ?? null };
  }
}
