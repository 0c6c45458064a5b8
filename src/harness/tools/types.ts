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
  | 'not_utf8' // write tools: the file is not valid UTF-8, so it is never re-encoded
  | 'special_file' // a FIFO, socket or device: never opened
  | 'hardlink' // more than one hard link: may be a file outside the workspace
  | 'too_large'
  | 'outside_workspace'
  | 'protected_path' // .git/ or the log folder (never read or written)
  | 'bad_path' // NUL bytes, empty
  | 'is_directory'
  | 'bad_regex'
  | 'timeout'
  | 'denied' // policy or person said no
  | 'sandbox_unavailable' // no sandbox could be set up: the command did not run
  | 'failed'; // anything else; message says what

export interface ToolContext {
  root: string; // absolute, real path of the workspace root
  logDir: string; // absolute; tools neither read nor write there
  runner: ProcessRunner;
  commandTimeoutS: number;
  signal?: AbortSignal;
  /** A person approved reading this call's file although it has several hard links (rule confine:hardlink). */
  hardLinkApproved?: boolean;
  /** The tool_use id of the call (replay answers an MCP call with its recorded result). */
  callId?: string;
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

/** What a call acts on, for confinement, policy and logs: a workspace path or a command line. */
export type ToolTarget = { path: string } | { command: string } | null;

/** What a write WOULD do, computed without touching disk: approvals show it as a diff, intent records hash it. */
export interface WritePreview {
  path: string; // workspace-relative
  abs: string;
  before: string | null; // null: the file does not exist yet
  proposed: string; // the full content after the call
  count?: number; // edit_file: occurrences replaced
  lines?: number[]; // edit_file: lines where the replaced text started
}

/** What a preview may read: where the workspace is and which folder is off limits. */
export type PreviewContext = Pick<ToolContext, 'root' | 'logDir'>;

interface ToolBase<S extends z.ZodType> {
  name: string; // protocol/toolName.ts TOOL_NAME
  description: string; // written for a real Claude model: specific and honest
  input: S;
  /** What the call acts on (args validated). Pure: the loop confines this path before the policy sees it. */
  target(args: z.infer<S>): ToolTarget;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
  /** The JSON Schema the model is sent when it is not derived from `input` (MCP tools: the server's own schema). */
  jsonSchema?: Record<string, unknown>;
  /** An MCP server's tool (mcp/): the policy decides it by server and tool. */
  mcp?: McpToolRef;
  /** Why the tool cannot be called right now (an MCP server that was withdrawn), or null: checked before the policy. */
  unavailable?: () => string | null;
}

export interface McpToolRef {
  server: string;
  tool: string; // the server's own name for it
  /** The server marks it readOnlyHint and the config lets such tools run without asking (mcp.allow_read_only). */
  readOnlyAllowed: boolean;
}

/** A tool that changes one file. It names the file and says what it would hold without writing,
 *  so the loop can confine, show the diff and hash the intent without knowing the tool. */
export interface WriteToolDefinition<S extends z.ZodType = z.ZodType> extends ToolBase<S> {
  effect: 'write';
  target(args: z.infer<S>): { path: string };
  preview(args: z.infer<S>, ctx: PreviewContext): WritePreview | ToolOutcome;
}

export interface OtherToolDefinition<S extends z.ZodType = z.ZodType> extends ToolBase<S> {
  effect: Exclude<Effect, 'write'>;
}

export type ToolDefinition<S extends z.ZodType = z.ZodType> = WriteToolDefinition<S> | OtherToolDefinition<S>;
export type AnyTool = ToolDefinition<z.ZodType>;

export type Validation = { ok: true; args: unknown; tool: AnyTool } | { ok: false; outcome: ToolOutcome };

export interface Toolbox {
  specs(): ToolSpec[]; // JSON Schema derived from each zod schema; stable order and bytes
  validate(name: string, input: unknown): Validation; // unknown tool / zod issues -> is_error outcome
  run(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutcome>; // never throws
}
