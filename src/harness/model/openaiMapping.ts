// Kite's conversation (Anthropic-shaped content blocks, the log's format) to chat-completions
// messages, and OpenAI's finish reasons and usage back to Kite's. Only the wire changes: the log,
// replay, resume and the debugger stay provider-neutral.
//   text blocks        ⇄ message content        tool_use ⇄ assistant tool_calls (function)
//   tool_result        → a `tool` message        thinking → not sent (no chat-completions field)
import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool } from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Message, StopReason, ToolResultBlock, Usage } from '../protocol/content';
import { malformedOf } from './malformedCall';
import type { ToolSpec } from './model';

export function toChatTools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
}

/** The arguments text as the model sent it: a malformed call goes back exactly as it came. */
function argumentsText(input: unknown): string {
  const bad = malformedOf(input);
  if (bad) return bad.problem === 'arguments_not_json' ? bad.sent : '{}';
  return JSON.stringify(input ?? {});
}

function resultText(b: ToolResultBlock): string {
  const text = typeof b.content === 'string' ? b.content : b.content.map((c) => (typeof c.text === 'string' ? c.text : `[${c.type}]`)).join('\n');
  // Chat completions has no is_error flag: say it in the text.
  return b.is_error ? `Error: ${text}` : text;
}

export function toChatMessages(system: string, messages: readonly Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const calls: ChatCompletionMessageToolCall[] = m.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: argumentsText(b.input) } }] : [],
      );
      out.push(calls.length ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text });
      continue;
    }
    // Tool results first: chat completions wants them right after the assistant's tool_calls.
    for (const b of m.content) if (b.type === 'tool_result') out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: resultText(b) });
    const text = m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n');
    if (text) out.push({ role: 'user', content: text });
  }
  return out;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/**
 * Kite's stop handling for a finish reason: tool_calls → tool_use (run them), stop → end_turn (the
 * model claims done: the gate decides), length → max_tokens (calls not trusted), content_filter →
 * refusal. Some local servers say "stop" after a tool call: the calls decide. null when unknown.
 */
export function stopReasonOf(finish: string, hasToolCalls: boolean): StopReason | null {
  switch (finish) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'stop':
      return hasToolCalls ? 'tool_use' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return null;
  }
}

/** OpenAI counts cached tokens inside prompt_tokens; Kite (like the log) counts them apart. */
export function usageOf(u: CompletionUsage | null | undefined): Usage {
  if (!u) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const cached = Math.min(u.prompt_tokens, u.prompt_tokens_details?.cached_tokens ?? 0);
  return { input_tokens: u.prompt_tokens - cached, output_tokens: u.completion_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: cached };
}
