// A script entry as chat-completions wire data: the JSON response, and the SSE chunks a streaming
// request gets (role, content pieces, tool-call pieces, finish_reason, then the usage chunk when
// stream_options.include_usage asked for it, then [DONE]).
import type { ScriptEntry, RawToolCall } from './script';

type Obj = Record<string, unknown>;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

const FINISH: Record<string, string> = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length', refusal: 'content_filter', stop_sequence: 'stop', pause_turn: 'stop', model_context_window_exceeded: 'length' };

export interface WireReply {
  text: string;
  calls: Required<RawToolCall>[];
  finish: string;
}

export function wireReply(entry: ScriptEntry, turn: number): WireReply {
  const text = entry.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const raw = entry.tool_calls ?? entry.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input) }] : []));
  const calls = raw.map((c, i) => ({ id: c.id ?? `call_t${turn}_${i}`, name: c.name, arguments: c.arguments }));
  return { text, calls, finish: entry.finish_reason ?? FINISH[entry.stop_reason] ?? 'stop' };
}

export function completionJson(id: string, model: string, r: WireReply, usage: Usage): Obj {
  const message: Obj = { role: 'assistant', content: r.text || null, refusal: null };
  if (r.calls.length) message.tool_calls = r.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return { id, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message, logprobs: null, finish_reason: r.finish }], usage };
}

function pieces(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The chunks of a streamed reply, each a `data:` payload (without [DONE]). */
export function completionChunks(id: string, model: string, r: WireReply, usage: Usage | null, chunkChars = 16): Obj[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Obj, finish: string | null = null): Obj => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out: Obj[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const p of pieces(r.text, chunkChars)) out.push(chunk({ content: p }));
  r.calls.forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(c.arguments, chunkChars)) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  out.push(chunk({}, r.finish));
  if (usage) out.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
  return out;
}

/** About four characters a token, like the fake Messages API. */
export const tokensOf = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

/**
 * Prompt and cached tokens for a request. Like OpenAI's automatic caching: the part of the prompt
 * that repeats the previous request's start is cached, counted in 128-token steps from 1024 on.
 */
export function promptUsage(messages: unknown, tools: unknown, previous: string | null): { prompt: number; cached: number; key: string } {
  const key = JSON.stringify([tools ?? null, messages]);
  const prompt = tokensOf(key.length);
  let common = 0;
  if (previous) while (common < previous.length && common < key.length && previous[common] === key[common]) common++;
  const commonTokens = Math.floor(common / 4);
  const cached = commonTokens >= 1024 ? Math.min(prompt, Math.floor(commonTokens / 128) * 128) : 0;
  return { prompt, cached, key };
}
