// One place where a tool is declared: name, description for the model, zod input schema (the JSON
// Schema sent to the model is derived from it), effect, and the implementation.
import type { z } from 'zod';
import type { AnyTool, ToolDefinition, ToolErrorCode, ToolOutcome } from './types';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): AnyTool {
  if (!NAME.test(def.name)) throw new Error(`tool name "${def.name}" must match ${NAME}`);
  if (def.description.trim() === '') throw new Error(`tool "${def.name}" needs a description`);
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
