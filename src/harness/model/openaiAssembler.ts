// Folds chat-completions stream chunks into the Reply every Kite model returns: reasoning (as a
// thinking block, when a server streams one), text, then tool_use blocks from the tool_calls
// pieces. Malformed calls become marked tool_use blocks (malformedCall.ts), never a crash.
import { randomBytes } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { AssistantBlock, Reply } from '../protocol/content';
import { findTextToolCalls, malformedInput, parseArguments } from './malformedCall';
import { stopReasonOf, usageOf } from './openaiMapping';

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export interface OpenAIAssemblerEvents {
  onText?(delta: string): void;
  onWarning?(code: string, message: string): void;
}

export class OpenAIAssembler {
  private text = '';
  private reasoning = '';
  private readonly calls: PartialCall[] = [];
  private finish: string | null = null;
  private usage: ChatCompletionChunk['usage'] = null;
  private model: string | undefined;
  private id: string | undefined;

  constructor(
    private readonly provider: string,
    private readonly toolNames: readonly string[],
    private readonly events: OpenAIAssemblerEvents = {},
  ) {}

  /** A finish reason arrived: anything less is a cut stream. */
  get complete(): boolean {
    return this.finish !== null;
  }

  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.id) this.id = chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) return; // the closing usage chunk has no choices
    const delta = choice.delta ?? {};
    if (delta.content) {
      this.text += delta.content;
      this.events.onText?.(delta.content);
    }
    // Not in OpenAI's types: servers with reasoning models (vLLM, llama.cpp, DeepSeek) stream it here.
    const r = (delta as { reasoning_content?: unknown; reasoning?: unknown }).reasoning_content ?? (delta as { reasoning?: unknown }).reasoning;
    if (typeof r === 'string') this.reasoning += r;
    for (const tc of delta.tool_calls ?? []) {
      const at = typeof tc.index === 'number' ? tc.index : this.calls.length;
      const call = (this.calls[at] ??= { id: '', name: '', args: '' });
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name += tc.function.name;
      if (tc.function?.arguments) call.args += tc.function.arguments;
    }
    if (choice.finish_reason) this.finish = choice.finish_reason;
  }

  reply(): Reply {
    const content: AssistantBlock[] = [];
    if (this.reasoning) content.push({ type: 'thinking', thinking: this.reasoning });
    if (this.text) content.push({ type: 'text', text: this.text });
    const calls = this.calls.filter(Boolean);
    for (const c of calls) content.push({ type: 'tool_use', id: c.id || newCallId(), name: c.name, input: parseArguments(c.args) });
    // A weaker model may write its call as text: record it as a call so it gets an is_error result.
    const inText = calls.length === 0 && this.finish !== 'length' ? findTextToolCalls(this.text, this.toolNames) : [];
    for (const t of inText) content.push({ type: 'tool_use', id: newCallId(), name: t.name, input: malformedInput({ problem: 'call_in_text', sent: t.sent, detail: t.where }) });
    const hasCalls = calls.length + inText.length > 0;
    const finish = this.finish ?? 'stop';
    let stop = stopReasonOf(finish, hasCalls);
    if (stop === null) {
      this.events.onWarning?.('unknown_finish_reason', `The server finished with "${finish}", which Kite does not know; it was read as ${hasCalls ? 'tool_calls' : 'stop'}.`);
      stop = hasCalls ? 'tool_use' : 'end_turn';
    }
    if (!this.usage) this.events.onWarning?.('usage_missing', 'The server reported no token usage for this reply; it is counted as 0 tokens (token and dollar budgets cannot see it).');
    const reply: Reply = { content, stop_reason: stop, usage: usageOf(this.usage) };
    if (this.model) reply.model = `${this.provider}:${this.model}`;
    if (this.id) reply.id = this.id;
    return reply;
  }
}

/** Some local servers send tool calls without ids; Kite needs one per call to pair its result. */
function newCallId(): string {
  return `call_kite_${randomBytes(8).toString('hex')}`;
}
