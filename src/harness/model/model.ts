// The model seam. The loop only knows this interface; scripted, replayed and Anthropic models
// implement it, and logging wraps it (ARCHITECTURE.md §2: wrappers, not edits).
import type { Message, Reply } from '../protocol/content';

export interface ToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>; // JSON Schema object derived from the tool's zod schema
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  max_tokens: number;
  signal?: AbortSignal;
  /** 'compaction': a summary call with its own prompt (context/compactor.ts), not a turn of the run. */
  purpose?: 'turn' | 'compaction';
}

/** Called for transport retries so the log can record them (never re-runs tools). */
export interface ModelObserver {
  onRetry?(info: { attempt: number; reason: string; wait_ms: number }): void;
  onText?(delta: string): void; // streaming progress
  onThinking?(delta: string): void; // streaming progress of a thinking block
  /** Non-fatal problems worth a `warning` event, e.g. code 'prefix_changed' (the prompt cache is rebuilt). */
  onWarning?(info: { code: string; message: string }): void;
}

export interface Model {
  /** Identifies the model in the log, e.g. "anthropic:claude-sonnet-4-6" or "script:/abs/file.json". */
  readonly id: string;
  complete(request: ModelRequest, observer?: ModelObserver): Promise<Reply>;
}

export type ModelErrorCode =
  | 'script_exhausted'
  | 'script_invalid'
  | 'auth'
  | 'missing_key'
  | 'bad_request'
  | 'context_exceeded'
  | 'network'
  | 'overloaded'
  | 'cancelled'
  | 'unknown'
  // VS Code's language models (vscode.LanguageModelError codes, model/vscodeLm.ts):
  | 'no_permission' // the person did not allow Kite to use the model (VS Code's consent dialog)
  | 'blocked' // the vendor blocks Kite (quota, rate limit)
  | 'model_not_found' // no such model in this VS Code
  | 'no_answer'; // the model's reply held neither text nor a tool call

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export type { Reply, Message };
