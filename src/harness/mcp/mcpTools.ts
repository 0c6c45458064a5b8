// An MCP server's tool as a Kite tool: named mcp__<server>__<tool>, its JSON Schema compiled with
// ajv and checked before any call (a failing call never reaches the server), effect "exec" (what
// it does is the server's business: the policy asks by default, an interrupted call is never run
// again on resume), its result reduced like any tool output.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { TOOL_NAME } from '../protocol/toolName';
import { defineTool, fail, ok } from '../tools/defineTool';
import type { AnyTool, ToolOutcome } from '../tools/types';

export const MCP_PREFIX = 'mcp__';

/** Lowercase, [a-z0-9_] only; the server part never holds "__" so the name splits back unambiguously. */
function part(s: string, isServer: boolean): string {
  const p = s.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return isServer ? p.replace(/_+/g, '_') : p;
}

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${part(server, true)}__${part(tool, false)}`;
}

export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_PREFIX);
}

/** The server part of a Kite MCP tool name (as sanitized), or null. */
export function serverOfToolName(name: string): string | null {
  if (!isMcpToolName(name)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const i = rest.indexOf('__');
  return i > 0 ? rest.slice(0, i) : null;
}

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

function issueOf(e: ErrorObject): { path: string[]; message: string } {
  const path = e.instancePath.split('/').filter(Boolean);
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty?: string }).missingProperty));
  const extra = e.keyword === 'additionalProperties' ? ` ("${String((e.params as { additionalProperty?: string }).additionalProperty)}")` : e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}` : '';
  return { path, message: `${e.message ?? e.keyword}${extra}` };
}

export type CompiledSchema = { ok: true; schema: Record<string, unknown>; input: z.ZodType } | { ok: false; problem: string };

/** The schema as sent to the model ($schema dropped) and a zod input that runs the compiled ajv check. */
export function compileInputSchema(raw: unknown): CompiledSchema {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, problem: 'its input schema is not a JSON object' };
  const { $schema: _drop, ...schema } = raw as Record<string, unknown>;
  if (schema.type !== 'object') return { ok: false, problem: `its input schema has type ${JSON.stringify(schema.type)}, not "object"` };
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    return { ok: false, problem: `its input schema does not compile: ${(e as Error).message}` };
  }
  const input = z.unknown().superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const e of validate.errors ?? []) {
      const i = issueOf(e);
      ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
    }
  });
  return { ok: true, schema, input };
}

export interface McpToolInput {
  server: string; // the configured server name
  tool: string; // the server's own tool name
  description: string;
  schema: Record<string, unknown>;
  input: z.ZodType;
  readOnlyAllowed: boolean;
  /** Why the tool cannot be called now (its server was withdrawn), or null. */
  unavailable: () => string | null;
  call: (args: Record<string, unknown>, ctx: { signal?: AbortSignal; callId?: string }) => Promise<ToolOutcome>;
}

export function defineMcpTool(i: McpToolInput): AnyTool | { problem: string } {
  const name = mcpToolName(i.server, i.tool);
  if (!TOOL_NAME.test(name)) return { problem: `its Kite name ${name} is longer than 64 characters or not a valid tool name` };
  return defineTool({
    name,
    description: `${i.description.trim() || `The ${i.tool} tool.`}\n\n(MCP tool "${i.tool}" of the server "${i.server}".)`,
    input: i.input,
    jsonSchema: i.schema,
    mcp: { server: i.server, tool: i.tool, readOnlyAllowed: i.readOnlyAllowed },
    effect: 'exec',
    target: () => null,
    unavailable: i.unavailable,
    run: (args, ctx) => i.call((args ?? {}) as Record<string, unknown>, { ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.callId ? { callId: ctx.callId } : {}) }),
  });
}

export { fail, ok };
