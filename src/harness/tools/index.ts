// The tools of Kite (the registry) and the toolbox built from them. A new tool is its own file
// (defineTool: schema, effect, target, preview for writes, run) plus one entry in ALL_TOOLS.
import { createToolboxFrom } from './toolbox';
import { editFileTool } from './editFile';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { runTool } from './runTool';
import { searchTool } from './search';
import type { AnyTool, Toolbox } from './types';
import { writeFileTool } from './writeFile';

/** Every built-in tool, in the order the model sees them (stable: part of the cached prefix). */
export const ALL_TOOLS: readonly AnyTool[] = [readFileTool, listFilesTool, searchTool, writeFileTool, editFileTool, runTool];

export function createToolbox(tools: readonly AnyTool[] = ALL_TOOLS): Toolbox {
  return createToolboxFrom([...tools]);
}

export { defineTool } from './defineTool';
export { describeCall, type CallTarget } from './describeCall';
export { previewFile, previewWrite, commitWrite, isOutcome, type Proposal, type WritePreview } from './preview';
export { resolveInWorkspace } from './paths';
export { sha256 } from './hash';
export { reduceOutput } from './reduce';
export type { AnyTool, PreviewContext, ToolTarget, Toolbox, ToolContext, ToolOutcome, ToolErrorCode, Validation, WriteToolDefinition } from './types';
