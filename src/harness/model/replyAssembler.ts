// Folds the Messages API stream events into the same Reply the scripted model returns: text,
// tool_use (input parsed from the input_json_delta pieces), thinking with its signature, redacted
// thinking. Usage comes from message_start and is overwritten by message_delta's cumulative figures.
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { StopReasonSchema, type AssistantBlock, type Reply, type StopReason, type Usage } from '../protocol/content';
import { ModelError } from './model';

type Partial =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; json: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'ignored'; original: string };

export interface AssemblerEvents {
  onText?(delta: string): void;
  onThinking?(delta: string): void;
  onWarning?(code: string, message: string): void;
}

export class ReplyAssembler {
  private readonly blocks: Partial[] = [];
  private usage: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  private stop: string | null = null;
  private model: string | undefined;
  private id: string | undefined;
  /** True once message_stop arrived: anything less is a cut stream. */
  complete = false;

  constructor(private readonly events: AssemblerEvents = {}) {}

  add(e: RawMessageStreamEvent): void {
    switch (e.type) {
      case 'message_start':
        this.model = e.message.model;
        this.id = e.message.id;
        this.mergeUsage(e.message.usage);
        return;
      case 'content_block_start': {
        const b = e.content_block;
        this.blocks[e.index] =
          b.type === 'text' ? { type: 'text', text: b.text }
          : b.type === 'tool_use' ? { type: 'tool_use', id: b.id, name: b.name, json: '' }
          : b.type === 'thinking' ? { type: 'thinking', thinking: b.thinking, signature: b.signature ?? '' }
          : b.type === 'redacted_thinking' ? { type: 'redacted_thinking', data: b.data }
          : { type: 'ignored', original: b.type };
        return;
      }
      case 'content_block_delta': {
        const b = this.blocks[e.index];
        const d = e.delta;
        if (!b) throw new ModelError('unknown', `The model stream sent a delta for block ${e.index} before its start.`);
        if (d.type === 'text_delta' && b.type === 'text') {
          b.text += d.text;
          this.events.onText?.(d.text);
        } else if (d.type === 'input_json_delta' && b.type === 'tool_use') b.json += d.partial_json;
        else if (d.type === 'thinking_delta' && b.type === 'thinking') {
          b.thinking += d.thinking;
          this.events.onThinking?.(d.thinking);
        }
        else if (d.type === 'signature_delta' && b.type === 'thinking') b.signature += d.signature;
        return; // citations and deltas of ignored blocks carry nothing the harness keeps
      }
      case 'content_block_stop':
        return;
      case 'message_delta':
        if (e.delta.stop_reason) this.stop = e.delta.stop_reason;
        this.mergeUsage(e.usage);
        return;
      case 'message_stop':
        this.complete = true;
        return;
    }
  }

  private mergeUsage(u: object): void {
    // message_delta carries cumulative figures; null means "not reported here", keep the earlier one.
    const src = u as Record<string, unknown>;
    const next = { ...this.usage };
    for (const k of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const v = src[k];
      if (typeof v === 'number') next[k] = v;
    }
    this.usage = next;
  }

  reply(): Reply {
    const parsed = StopReasonSchema.safeParse(this.stop);
    if (!parsed.success) throw new ModelError('unknown', `The model stopped with an unknown stop_reason "${String(this.stop)}".`);
    const stop: StopReason = parsed.data;
    const content: AssistantBlock[] = [];
    for (const b of this.blocks) {
      if (!b) continue;
      switch (b.type) {
        case 'text':
          // An empty text block cannot be sent back to the API; it carries nothing.
          if (b.text) content.push({ type: 'text', text: b.text });
          break;
        case 'tool_use':
          content.push({ type: 'tool_use', id: b.id, name: b.name, input: this.parseInput(b) });
          break;
        case 'thinking':
          content.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
          break;
        case 'redacted_thinking':
          content.push({ type: 'redacted_thinking', data: b.data });
          break;
        case 'ignored':
          this.events.onWarning?.('unsupported_block', `The model sent a "${b.original}" block, which Kite does not use; it was dropped.`);
          break;
      }
    }
    const reply: Reply = { content, stop_reason: stop, usage: this.usage };
    if (this.model) reply.model = this.model;
    if (this.id) reply.id = this.id;
    return reply;
  }

  private parseInput(b: Extract<Partial, { type: 'tool_use' }>): unknown {
    if (!b.json.trim()) return {};
    try {
      return JSON.parse(b.json) as unknown;
    } catch {
      // A reply cut by max_tokens can end inside a tool call. {} keeps the conversation valid; the
      // toolbox then reports the missing arguments to the model.
      this.events.onWarning?.('tool_input_unparsed', `The arguments of tool call ${b.id} (${b.name}) were not valid JSON (${b.json.length} characters); they were replaced by {}.`);
      return {};
    }
  }
}
