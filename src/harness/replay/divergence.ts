// Compares a live replay with its recording after each tool result and each gate verdict.
// Normalized: timings and call ids are ignored; tool name, is_error, error code, exit code and
// the file hash after a write are compared, and the gate's verdict per check. The first
// difference becomes a `divergence` event in the replay's log. With live MCP servers
// (`--live-mcp`) an MCP call's output is compared too: a server is the one tool whose answer the
// replay cannot reproduce from the work tree, so its text is what tells the person it changed.
import type { EventSink } from '../events/sink';
import { isMcpToolName } from '../mcp/mcpTools';
import type { EventOf, KiteEvent } from '../protocol/events';

export interface DivergenceInfo {
  at_seq: number; // seq of the recorded event that diverged
  id: string | null;
  what: string;
  recorded: unknown;
  live: unknown;
  message: string; // one line for people
}

type Tool = EventOf<'tool'>;
type Gate = EventOf<'gate'>;

export function normalizeTool(e: Tool): Record<string, unknown> {
  return { name: e.name, is_error: e.is_error, error_code: e.error_code, exit_code: e.exit_code ?? null, post_hash: e.post_hash ?? null };
}

export function normalizeGate(e: Gate): Record<string, unknown> {
  return { passed: e.passed, checks: e.checks.map((c) => ({ command: c.command, exit_code: c.exit_code, timed_out: c.timed_out })) };
}

const CLIP = 80;
const clip = (s: string) => JSON.stringify(s.length > CLIP ? `${s.slice(0, CLIP)}…` : s);

/** The first line where two outputs differ, both sides clipped: "line 2: "a" → "b"". */
export function shortDiff(recorded: string, live: string): string {
  const a = recorded.split('\n');
  const b = live.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const ra = i < a.length ? clip(a[i]) : '(end)';
  const lb = i < b.length ? clip(b[i]) : '(end)';
  return `line ${i + 1}: ${ra} → ${lb}`;
}

function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string | null {
  for (const k of Object.keys(a)) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return k;
  return null;
}

function describeCall(e: Tool): string {
  const args = e.args as { command?: unknown; path?: unknown } | null;
  const what = typeof args?.command === 'string' ? ` \`${args.command}\`` : typeof args?.path === 'string' ? ` ${args.path}` : '';
  return `${e.name}${what}`;
}

export class DivergenceWatcher {
  private readonly tools: Tool[];
  private readonly gates: Gate[];
  private toolIndex = 0;
  private gateIndex = 0;
  first: DivergenceInfo | null = null;
  count = 0;

  constructor(
    recorded: readonly KiteEvent[],
    private readonly onDivergence: (d: DivergenceInfo) => void,
    /** Compare MCP calls' outputs as well (the servers answered live). */
    private readonly compareMcpOutput = false,
  ) {
    this.tools = recorded.filter((e): e is Tool => e.kind === 'tool');
    this.gates = recorded.filter((e): e is Gate => e.kind === 'gate');
  }

  /** Feed every live event (after it is on disk); appends a `divergence` event on a difference. */
  observe(e: KiteEvent, log: EventSink): void {
    let d: DivergenceInfo | null = null;
    if (e.kind === 'tool') d = this.checkTool(e);
    else if (e.kind === 'gate') d = this.checkGate(e);
    if (!d) return;
    this.count++;
    log.append({ kind: 'divergence', at_seq: d.at_seq, id: d.id, what: d.what, recorded: d.recorded, live: d.live });
    if (!this.first) {
      this.first = d;
      this.onDivergence(d);
    }
  }

  private checkTool(live: Tool): DivergenceInfo | null {
    const rec = this.tools[this.toolIndex++];
    if (!rec) return { at_seq: -1, id: live.id, what: `an extra tool call ${describeCall(live)}`, recorded: null, live: normalizeTool(live), message: `the replay made a tool call the recording does not have: ${describeCall(live)}` };
    const a = normalizeTool(rec);
    const b = normalizeTool(live);
    const key = firstDifference(a, b);
    if (key === null) return this.compareMcpOutput && isMcpToolName(rec.name) && rec.output !== live.output ? mcpOutputDivergence(rec, live) : null;
    return {
      at_seq: rec.seq,
      id: live.id,
      what: `${describeCall(rec)}: ${key}`,
      recorded: a,
      live: b,
      message: `replay diverged at recorded seq ${rec.seq}: ${describeCall(rec)} ${key} was ${JSON.stringify(a[key])}, now ${JSON.stringify(b[key])}`,
    };
  }

  private checkGate(live: Gate): DivergenceInfo | null {
    const rec = this.gates[this.gateIndex++];
    if (!rec) return { at_seq: -1, id: null, what: `an extra gate attempt ${live.attempt}`, recorded: null, live: normalizeGate(live), message: `the replay ran the gate more often than the recording (attempt ${live.attempt})` };
    const a = normalizeGate(rec);
    const b = normalizeGate(live);
    if (JSON.stringify(a) === JSON.stringify(b)) return null;
    const changed = rec.checks.find((c, i) => {
      const l = live.checks[i];
      return !l || l.command !== c.command || l.exit_code !== c.exit_code || l.timed_out !== c.timed_out;
    });
    const detail = changed ? ` \`${changed.command}\` exit ${changed.exit_code ?? 'killed'} → ${live.checks.find((c) => c.command === changed.command)?.exit_code ?? 'missing'}` : '';
    return {
      at_seq: rec.seq,
      id: null,
      what: `gate attempt ${rec.attempt}`,
      recorded: a,
      live: b,
      message: `replay diverged at recorded seq ${rec.seq}: gate attempt ${rec.attempt} ${rec.passed ? 'passed' : 'failed'} in the recording, ${live.passed ? 'passed' : 'failed'} now${detail}`,
    };
  }
}

function mcpOutputDivergence(rec: Tool, live: Tool): DivergenceInfo {
  const diff = shortDiff(rec.output, live.output);
  return {
    at_seq: rec.seq,
    id: live.id,
    what: `${rec.name} (${rec.id}) answered differently live, ${diff}`,
    recorded: { output: rec.output },
    live: { output: live.output },
    message: `replay diverged at recorded seq ${rec.seq}: MCP call ${rec.name} (${rec.id}) answered differently live, ${diff}`,
  };
}
