// Contract of tools and the toolbox (the loop sees only Toolbox).
import type { z } from 'zod';
import type { Effect } from '../protocol/events';
import type { ToolSpec } from '../model/model';
import type { SandboxInfo } from '../protocol/sandboxInfo';
import type { ProcessRunner } from '../sandbox/types';

export type ToolErrorCode =
  | 'unknown_tool'
  | 'invalid_args'
  | 'not_found'
  | 'not_unique' // edit_file: old_string matches more than once
  | 'no_match' // edit_file: old_string not found
  | 'binary_file'
  | 'too_large'
  | 'outside_workspace'
  | 'protected_path' // .git/ or the log folder
  | 'bad_path' // NUL bytes, empty
  | 'is_directory'
  | 'bad_regex'
  | 'timeout'
  | 'denied' // policy or person said no
  | 'sandbox_unavailable' // no sandbox could be set up: the command did not run
  | 'failed'; // anything else; message says what

export interface ToolContext {
  root: string; // absolute, real path of the workspace root
  logDir: string; // absolute; writes there are refused
  runner: ProcessRunner;
  commandTimeoutS: number;
  signal?: AbortSignal;
}

export interface ToolOutcome {
  output: string; // exactly what the model will see (already reduced)
  is_error: boolean;
  error_code: ToolErrorCode | null;
  exit_code?: number | null;
  path?: string | null; // workspace-relative, for file tools
  post_hash?: string | null;
  sandbox?: SandboxInfo; // run: which sandbox ran it
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string; // written for a real Claude model: specific and honest
  input: S;
  effect: Effect;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}
export type AnyTool = ToolDefinition<z.ZodType>;

export type Validation = { ok: true; args: unknown; tool: AnyTool } | { ok: false; outcome: ToolOutcome };

export interface Toolbox {
  specs(): ToolSpec[]; // JSON Schema derived from each zod schema; stable order and bytes
  validate(name: string, input: unknown): Validation; // unknown tool / zod issues -> is_error outcome
  run(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutcome>; // never throws
}
