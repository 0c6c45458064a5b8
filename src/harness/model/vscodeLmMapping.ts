// Kite's conversation (Anthropic-shaped content blocks, the log's format) to the neutral
// language-model messages that cross to the extension (protocol/languageModel.ts), and the streamed
// reply parts back to a Reply. Only the wire changes: the log, replay and resume stay provider-neutral.
//   text      ⇄ LanguageModelTextPart          tool_use ⇄ LanguageModelToolCallPart
//   tool_result → LanguageModelToolResultPart  thinking → not sent (no such part)
// VS Code's stable API has no system role: the system prompt leads the first user message.
import type { Message, Reply, ToolResultBlock, Usage } from '../protocol/content';
import type { LmMessage, LmReplyPart, LmTool } from '../protocol/languageModel';
import { malformedOf } from './malformedCall';
import type { ToolSpec } from './model';

export function toLmTools(tools: readonly ToolSpec[]): LmTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema }));
}

function resultText(b: ToolResultBlock): string {
  const text = typeof b.content === 'string' ? b.content : b.content.map((c) => (typeof c.text === 'string' ? c.text : `[${c.type}]`)).join('\n');
  // VS Code's tool result part has no error flag: say it in the text.
  return b.is_error ? `Error: ${text}` : text;
}

/** A malformed call goes back as the empty object it could be read as (its result says what was wrong). */
function callInput(input: unknown): object {
  if (malformedOf(input)) return {};
  return input !== null && typeof input === 'object' ? input : {};
}

export function toLmMessages(system: string, messages: readonly Message[]): LmMessage[] {
  const out: LmMessage[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const parts: Extract<LmMessage, { role: 'assistant' }>['parts'] = [];
      for (const b of m.content) {
        if (b.type === 'text' && b.text) parts.push({ type: 'text', text: b.text });
        else if (b.type === 'tool_use') parts.push({ type: 'tool_call', callId: b.id, name: b.name, input: callInput(b.input) });
      }
      // An assistant turn of only thinking still keeps its place in the alternation.
      out.push({ role: 'assistant', parts: parts.length ? parts : [{ type: 'text', text: '' }] });
      continue;
    }
    const parts: Extract<LmMessage, { role: 'user' }>['parts'] = [];
    // Tool results first: they answer the assistant's calls just before.
    for (const b of m.content) if (b.type === 'tool_result') parts.push({ type: 'tool_result', callId: b.tool_use_id, content: resultText(b) });
    for (const b of m.content) if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    out.push({ role: 'user', parts });
  }
  if (system) {
    const first = out[0];
    const lead = { type: 'text' as const, text: system };
    if (first?.role === 'user') first.parts.unshift(lead);
    else out.unshift({ role: 'user', parts: [lead] });
  }
  return out;
}

/** Folds the streamed parts into a Reply: text pieces joined, then each tool call in order. */
export class LmReplyAssembler {
  private text = '';
  private readonly calls: { id: string; name: string; input: unknown }[] = [];

  constructor(private readonly onText?: (delta: string) => void) {}

  add(part: LmReplyPart): void {
    if (part.type === 'text') {
      this.text += part.text;
      if (part.text) this.onText?.(part.text);
    } else this.calls.push({ id: part.callId, name: part.name, input: part.input ?? {} });
  }

  /** What streamed so far, in characters (tool calls as their JSON): the live output estimate. */
  get outputChars(): number {
    return this.text.length + this.calls.reduce((n, c) => n + JSON.stringify({ name: c.name, input: c.input }).length, 0);
  }

  /** VS Code reports no stop reason: tool calls mean tool_use, anything else the model's end of turn; cut: Kite stopped it at max_tokens. */
  reply(usage: Usage, model: string, cut = false): Reply {
    const content: Reply['content'] = [];
    if (this.text) content.push({ type: 'text', text: this.text });
    for (const c of this.calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
    return { content, stop_reason: cut ? 'max_tokens' : this.calls.length ? 'tool_use' : 'end_turn', usage, model };
  }
}
