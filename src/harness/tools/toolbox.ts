// The toolbox the loop sees: specs for the model (JSON Schema derived from zod, computed once so
// the bytes never change between turns — the prompt-cache prefix depends on it), validation that
// turns unknown tools and bad arguments into precise is_error results, and a run that never throws.
import { z } from 'zod';
import { describeMalformed, malformedOf } from '../model/malformedCall';
import type { ToolSpec } from '../model/model';
import { fail } from './defineTool';
import { reduceOutput } from './reduce';
import type { AnyTool, ToolContext, ToolOutcome, Toolbox, Validation } from './types';

/** Hard cap on any tool result, after each tool's own limits. */
export const MAX_TOOL_OUTPUT_CHARS = 60_000;

/** Drops what only adds noise for the model: $schema and zod's ±MAX_SAFE_INTEGER bounds on ints. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if ((k === 'maximum' || k === 'minimum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = tidy(v);
  }
  return out;
}

export function toolSpec(tool: AnyTool): ToolSpec {
  if (tool.jsonSchema) return { name: tool.name, description: tool.description, input_schema: tool.jsonSchema };
  const schema = tidy(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, input_schema: schema };
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.map(String).join('.') : '(arguments)';
      return `- ${where}: ${i.message}`;
    })
    .join('\n');
}

export function createToolboxFrom(tools: AnyTool[]): Toolbox {
  const byName = new Map<string, AnyTool>();
  for (const t of tools) {
    if (byName.has(t.name)) throw new Error(`duplicate tool name "${t.name}"`);
    byName.set(t.name, t);
  }
  const specs = tools.map(toolSpec);
  const names = tools.map((t) => t.name).join(', ');
  return {
    specs: () => specs,
    validate(name: string, input: unknown): Validation {
      const tool = byName.get(name);
      // A call the model got wrong on the wire (not JSON, written as text): say exactly that.
      const malformed = malformedOf(input);
      if (malformed) return { ok: false, outcome: fail('invalid_args', describeMalformed(name, malformed) + (tool ? '' : ` (Note: there is no tool named "${name}"; available tools: ${names}.)`)) };
      if (!tool) return { ok: false, outcome: fail('unknown_tool', `There is no tool named "${name}". Nothing was run. Available tools: ${names}.`) };
      const parsed = tool.input.safeParse(input ?? {});
      if (!parsed.success) {
        return { ok: false, outcome: fail('invalid_args', `Invalid arguments for ${name}; it was not run.\n${formatIssues(parsed.error)}`) };
      }
      return { ok: true, args: parsed.data, tool };
    },
    async run(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutcome> {
      let out: ToolOutcome;
      try {
        out = await tool.run(args, ctx);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        const code = err.code ? ` (${err.code})` : '';
        out = fail('failed', `${tool.name} failed unexpectedly${code}: ${err.message ?? String(e)}. It may not have completed; check the state before retrying.`);
      }
      return out.output.length > MAX_TOOL_OUTPUT_CHARS ? { ...out, output: reduceOutput(out.output, MAX_TOOL_OUTPUT_CHARS) } : out;
    },
  };
}
