// The tools of Kite and the toolbox built from them.
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

/** Where a validated call points: the path for file tools, the command for run (for policy and logs). */
export function describeCall(name: string, args: unknown): { path: string | null; command: string | null } {
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const path = typeof a.path === 'string' ? a.path : name === 'list_files' || name === 'search' ? '.' : null;
  const command = name === 'run' && typeof a.command === 'string' ? a.command : null;
  return { path, command };
}

export { defineTool } from './defineTool';
export { previewWrite, commitWrite, isOutcome, type WritePreview } from './preview';
export { resolveInWorkspace } from './paths';
export { sha256 } from './hash';
export { reduceOutput } from './reduce';
export type { AnyTool, Toolbox, ToolContext, ToolOutcome, ToolErrorCode, Validation } from './types';
