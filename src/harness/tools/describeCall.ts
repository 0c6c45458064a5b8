// Where a validated call points, asked of the tool itself (its target): the path a file tool acts
// on, the command a run acts on. The loop confines the path and gives both to the policy and logs.
import type { AnyTool } from './types';

export interface CallTarget {
  path: string | null; // as the model gave it; the loop resolves it inside the workspace
  command: string | null;
}

export function describeCall(tool: AnyTool, args: unknown): CallTarget {
  const t = tool.target(args);
  if (t === null) return { path: null, command: null };
  return 'path' in t ? { path: t.path, command: null } : { path: null, command: t.command };
}
