// Message content and usage shaped exactly like the Anthropic Messages API, so a recorded real
// response drops into a script or a log unchanged. Pure zod: no node builtins (webview imports it).
import { z } from 'zod';

export const TextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
export const ToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export const ThinkingBlockSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
export const RedactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });
export const ToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
  is_error: z.boolean().optional(),
});

/** A block in an assistant reply. */
export const AssistantBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ToolUseBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
]);
/** A block in a user message the harness sends. */
export const UserBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, ToolResultBlockSchema]);

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type AssistantBlock = z.infer<typeof AssistantBlockSchema>;
export type UserBlock = z.infer<typeof UserBlockSchema>;

export const MessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(UserBlockSchema) }),
  z.object({ role: z.literal('assistant'), content: z.array(AssistantBlockSchema) }),
]);
export type Message = z.infer<typeof MessageSchema>;

export const StopReasonSchema = z.enum([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

export const UsageSchema = z.looseObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullable().optional(),
  cache_read_input_tokens: z.number().int().nonnegative().nullable().optional(),
  /** Counted by Kite with the model's tokenizer, not reported by the provider (VS Code's language models). */
  estimated: z.boolean().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** One model reply: a Messages API response object (other fields allowed and ignored). */
export const ReplySchema = z.looseObject({
  content: z.array(AssistantBlockSchema),
  stop_reason: StopReasonSchema,
  usage: UsageSchema,
  model: z.string().optional(),
  /** Which model of the provider actually answered, as it names itself (VS Code's language models: what selectChatModels returned). */
  model_info: z.object({ id: z.string(), name: z.string(), version: z.string() }).optional(),
});
export type Reply = z.infer<typeof ReplySchema>;

/** Total tokens of a reply as the budget counts them: input + output + cache writes + cache reads. */
export function totalTokens(u: Usage): number {
  return u.input_tokens + u.output_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
}
