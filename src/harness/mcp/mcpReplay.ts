// A replay's MCP tools: the ones the recorded run offered (its session_start), each answering a
// call with the result recorded for the same tool_use id. No server is started, so a replay has no
// effect outside Kite and needs no approval; a call the recording never made is answered as such.
import type { KiteEvent } from '../protocol/events';
import type { ToolErrorCode } from '../tools/types';
import { fail } from '../tools/defineTool';
import type { AnyTool } from '../tools/types';
import { compileInputSchema, defineMcpTool, isMcpToolName, MCP_PREFIX, serverOfToolName } from './mcpTools';

const ORIGIN = /\n\n\(MCP tool "([^"]*)" of the server "([^"]*)"\.\)$/;

export function recordedMcpTools(events: readonly KiteEvent[]): AnyTool[] {
  const start = events.find((e) => e.kind === 'session_start');
  if (!start || start.kind !== 'session_start') return [];
  const results = new Map<string, { output: string; is_error: boolean; error_code: string | null }>();
  const readOnlyAllowed = new Set<string>();
  for (const e of events) {
    if (e.kind === 'tool' && isMcpToolName(e.name)) results.set(e.id, e);
    if (e.kind === 'policy' && e.rule === 'allow:mcp-read-only') readOnlyAllowed.add(e.name);
  }
  const tools: AnyTool[] = [];
  for (const spec of start.tools) {
    const server = serverOfToolName(spec.name);
    if (server === null) continue;
    const compiled = compileInputSchema(spec.input_schema);
    if (!compiled.ok) continue; // it compiled when recorded; a hand-edited log loses the tool, and the replay says so as a divergence
    // The description ends with the server's own names for both (defineMcpTool writes it).
    const named = ORIGIN.exec(spec.description);
    const t = defineMcpTool({
      server: named?.[2] ?? server,
      tool: named?.[1] ?? spec.name.slice(MCP_PREFIX.length + server.length + 2),
      description: named ? spec.description.slice(0, named.index) : spec.description,
      schema: compiled.schema,
      input: compiled.input,
      readOnlyAllowed: readOnlyAllowed.has(spec.name),
      unavailable: () => null,
      call: (_args, ctx) => {
        const r = ctx.callId ? results.get(ctx.callId) : undefined;
        if (!r) return Promise.resolve(fail('failed', `Replay: the recording has no result for this call to ${spec.name}, and a replay never starts MCP servers. Nothing was run.`));
        return Promise.resolve({ output: r.output, is_error: r.is_error, error_code: (r.error_code as ToolErrorCode | null) ?? null });
      },
    });
    if (!('problem' in t)) tools.push(t);
  }
  return tools;
}
