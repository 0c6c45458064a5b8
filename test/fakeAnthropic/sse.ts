// The service's streaming event sequence for one message: message_start (usage so far),
// content_block_start/delta/stop per block (text_delta, input_json_delta in several partial_json
// chunks, thinking_delta + signature_delta), a ping, message_delta (stop_reason + cumulative
// usage), message_stop.
import type { AssistantBlock, StopReason } from '../../src/harness/protocol/content';

export type FullUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
};

export interface FakeMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AssistantBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: FullUsage;
}

export type SseEvent = { event: string; data: Record<string, unknown> };

/** Splits text into pieces of about `size` characters (at least `min` pieces when it is long enough). */
export function chunks(text: string, size: number, min = 1): string[] {
  const n = Math.max(min, Math.ceil(text.length / size));
  const step = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += step) out.push(text.slice(i, i + step));
  return out.length ? out : [''];
}

function blockEvents(index: number, block: AssistantBlock, chunkChars: number): SseEvent[] {
  const ev = (type: string, extra: Record<string, unknown>): SseEvent => ({ event: type, data: { type, index, ...extra } });
  const delta = (d: Record<string, unknown>) => ev('content_block_delta', { delta: d });
  switch (block.type) {
    case 'text':
      return [ev('content_block_start', { content_block: { type: 'text', text: '' } }), ...chunks(block.text, chunkChars).map((t) => delta({ type: 'text_delta', text: t }))];
    case 'tool_use': {
      const json = JSON.stringify(block.input ?? {});
      // The service opens with an empty partial_json and then sends the input in several pieces.
      return [
        ev('content_block_start', { content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }),
        delta({ type: 'input_json_delta', partial_json: '' }),
        ...chunks(json, Math.max(4, Math.floor(chunkChars / 2)), 3).map((p) => delta({ type: 'input_json_delta', partial_json: p })),
      ];
    }
    case 'thinking':
      return [
        ev('content_block_start', { content_block: { type: 'thinking', thinking: '', signature: '' } }),
        ...chunks(block.thinking, chunkChars).map((t) => delta({ type: 'thinking_delta', thinking: t })),
        delta({ type: 'signature_delta', signature: block.signature ?? 'sig' }),
      ];
    case 'redacted_thinking':
      return [ev('content_block_start', { content_block: { type: 'redacted_thinking', data: block.data } })];
  }
}

export function messageEvents(m: FakeMessage, chunkChars = 16): SseEvent[] {
  const start: SseEvent = {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: { ...m, content: [], stop_reason: null, stop_sequence: null, usage: { ...m.usage, output_tokens: Math.min(1, m.usage.output_tokens) } },
    },
  };
  const out: SseEvent[] = [start];
  m.content.forEach((b, i) => {
    out.push(...blockEvents(i, b, chunkChars));
    if (i === 0) out.push({ event: 'ping', data: { type: 'ping' } });
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: i } });
  });
  out.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: m.stop_reason, stop_sequence: m.stop_sequence }, usage: { ...m.usage } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return out;
}

export function formatSse(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}
