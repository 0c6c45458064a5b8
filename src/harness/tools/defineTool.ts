// One place where a tool is declared: name, description for the model, zod input schema (the JSON
// Schema sent to the model is derived from it), effect, what a call acts on (target), what a write
// would do (preview, write tools only), and the implementation. The loop asks the tool these
// things, so a new tool is its own file plus one line in the registry (tools/index.ts).
import type { z } from 'zod';
import { TOOL_NAME } from '../protocol/toolName';
import type { AnyTool, ToolDefinition, ToolErrorCode, ToolOutcome } from './types';

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): AnyTool {
  if (!TOOL_NAME.test(def.name)) throw new Error(`tool name "${def.name}" must match ${TOOL_NAME}`);
  if (def.description.trim() === '') throw new Error(`tool "${def.name}" needs a description`);
  // The types require these; checked again for tools built from data (e.g. adapters) at run time.
  if (typeof def.target !== 'function') throw new Error(`tool "${def.name}" needs target(args): the path or command it acts on`);
  if (def.effect === 'write' && typeof def.preview !== 'function') throw new Error(`write tool "${def.name}" needs preview(args, ctx): what it would write`);
  return def as unknown as AnyTool;
}

/** A successful outcome. */
export function ok(output: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return { output, is_error: false, error_code: null, ...extra };
}

/** A failed outcome; the message must say what did NOT happen. */
export function fail(code: ToolErrorCode, output: string, extra: Partial<ToolOutcome> = {}): ToolOutcome {
  return { output, is_error: true, error_code: code, ...extra };
}
