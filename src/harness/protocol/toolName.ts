// The one rule for a tool's name. defineTool enforces it where a tool is declared, and the wire
// checks it where a name crosses a boundary (approval requests). It lives in protocol/ because the
// wire schemas may not import the tools themselves (they read files; protocol/ is pure).
import { z } from 'zod';

export const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export const ToolNameSchema = z.string().regex(TOOL_NAME, { message: `a tool name must match ${TOOL_NAME}` });
export type ToolName = z.infer<typeof ToolNameSchema>;
