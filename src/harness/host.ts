// What the loop needs from whoever hosts it (CLI on a TTY, the VS Code extension over JSON-RPC,
// tests). Approvals are asked here; the host answers. The loop never imports a UI.
import type { KiteEvent } from './protocol/events';
import type { LmAsk, LmReplyPart, LmRequestResult } from './protocol/languageModel';
import type { ScriptChange } from './protocol/rpc';
import type { SandboxInfo } from './protocol/sandboxInfo';
import type { ToolName } from './protocol/toolName';
import type { UnsandboxedQuestion } from './sandbox/runSandbox';

export type { UnsandboxedQuestion };

export interface WriteApprovalRequest {
  kind: 'write';
  id: string; // tool_use id
  tool: ToolName; // the write tool's own name (write_file, edit_file, or any tool the registry holds)
  path: string; // workspace-relative
  before: string | null; // current content (null: file does not exist)
  proposed: string; // full proposed content
}

export interface CommandApprovalRequest {
  kind: 'command';
  id: string;
  command: string;
  cwd: string; // absolute
  /** Where the command will run (absent from older hosts' callers): the prompt says so. */
  sandbox?: SandboxInfo;
  /** Scripts it runs that this run changed (policy/changedScripts.ts): the prompt shows each diff. */
  scriptChanges?: ScriptChange[];
  /** A call to an MCP server's tool: the prompt names server and tool, the validated arguments and the rule that asked. */
  mcp?: McpApprovalInfo;
}

export interface McpApprovalInfo {
  server: string; // as configured
  tool: string; // the server's own name for it
  args: Record<string, unknown>; // validated against the tool's schema
  rule: string;
  reason: string;
}

/** A read the policy wants a person to allow (e.g. rule ask:secret-file for `.env`, keys). */
export interface ReadApprovalRequest {
  kind: 'read';
  id: string;
  tool: ToolName; // the reading tool's own name (read_file, search, list_files, …)
  path: string; // workspace-relative
  reason: string; // why the policy asks, for the person
}

export interface StreamDelta {
  turn: number;
  kind: 'text' | 'thinking';
  text: string;
}

export interface DoneWithoutCheckQuestion {
  feature: string;
  title: string;
}

export type ApprovalRequest = WriteApprovalRequest | CommandApprovalRequest | ReadApprovalRequest;

export type ApprovalAnswer =
  | { decision: 'approve'; always?: boolean } // always: add an allow rule to the workspace policy (commands, reads)
  | { decision: 'deny'; reason: string }
  | { decision: 'edit'; content: string; reason?: string }; // writes only: the final content the person kept (reason: why they cut some of it)

/** VS Code's language models, reachable only through the extension (`vscode-lm:` models). */
export interface LanguageModelHost {
  /** One reply: its parts reach onPart before the promise resolves; an aborted signal cancels the
   *  request in VS Code (its CancellationToken). Never rejects for a model problem: see the result. */
  request(ask: LmAsk, onPart: (part: LmReplyPart) => void, signal: AbortSignal): Promise<LmRequestResult>;
}

export interface Host {
  /** Resolve with the person's answer. Rejecting or never resolving is allowed: the run pauses. */
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Asked once per attended run when no OS sandbox can be set up: may commands run without one?
   *  Absent, rejecting or false: no (every command is refused and the run ends). */
  confirmUnsandboxed?(question: UnsandboxedQuestion, signal: AbortSignal): Promise<boolean>;
  /** The feature says `"verify": "none"` and no check is configured: may it be marked done (and
   *  committed) without any check? Absent, rejecting or false: no, the run ends unverified. */
  confirmDoneWithoutCheck?(question: DoneWithoutCheckQuestion, signal: AbortSignal): Promise<boolean>;
  /** Every event, after it is on disk. */
  onEvent?(event: KiteEvent): void;
  /** Subscribes to the files the person saves (creates, deletes, renames) in the editor during the
   *  run, as absolute paths; returns the unsubscribe. Absent (the CLI): the commit relies on the
   *  file states the log records. */
  onPersonEdit?(listener: (absPaths: readonly string[]) => void): () => void;
  /** Absent (the CLI, tests): a `vscode-lm:` model cannot be used here. */
  languageModels?: LanguageModelHost;
  /** The model's reply as it is generated (text and thinking deltas of turn `turn`). Never logged:
   *  the `model` event with the whole reply is. Called often; a host throttles what it shows. */
  onStream?(delta: StreamDelta): void;
}
