// Prompt-cache breakpoints for a Messages API request. Four at most (the service's limit):
//   1. the last tool            → caches the tool definitions
//   2. the system prompt        → caches tools + system
//   3. the last block of the last user message           → writes the growing conversation
//   4. the last block of the user message before that    → reads what the previous turn wrote
// The caller's messages are never mutated: annotated messages and blocks are fresh copies, and any
// cache_control already present is dropped so the count stays ours.
import type { Message, UserBlock } from '../protocol/content';
import type { ToolSpec } from './model';

export const MAX_CACHE_BREAKPOINTS = 4;
export const EPHEMERAL = { type: 'ephemeral' } as const;

export interface WireTextBlock {
  type: 'text';
  text: string;
  cache_control?: typeof EPHEMERAL;
}
export type WireTool = ToolSpec & { cache_control?: typeof EPHEMERAL };
export type WireMessage = Message;

export interface WireParams {
  system?: WireTextBlock[];
  tools?: WireTool[];
  messages: WireMessage[];
  breakpoints: number;
}

function strip<T extends object>(b: T): T {
  if (!('cache_control' in b)) return b;
  const { cache_control: _cc, ...rest } = b as T & { cache_control?: unknown };
  return rest as T;
}

function withBreakpoint<T extends object>(b: T): T & { cache_control: typeof EPHEMERAL } {
  return { ...strip(b), cache_control: EPHEMERAL };
}

/** Builds system/tools/messages for the wire; `cache: false` sends the same request with no breakpoints. */
export function buildWireParams(system: string, tools: ToolSpec[], messages: Message[], cache = true): WireParams {
  let breakpoints = 0;
  const wireTools: WireTool[] = tools.map((t, i) => (cache && i === tools.length - 1 ? (breakpoints++, withBreakpoint(t)) : strip(t)));
  // An empty system text block is invalid; send no system at all instead.
  const wireSystem: WireTextBlock[] | undefined = system ? [cache ? (breakpoints++, withBreakpoint({ type: 'text' as const, text: system })) : { type: 'text', text: system }] : undefined;

  const out: WireMessage[] = messages.map((m) => (m.role === 'user' ? { role: 'user', content: m.content.map(strip) } : { role: 'assistant', content: m.content.map(strip) }));
  if (cache) {
    const lastTwoUsers = out.flatMap((m, i) => (m.role === 'user' && m.content.length ? [i] : [])).slice(-2);
    for (const i of lastTwoUsers.reverse()) {
      if (breakpoints >= MAX_CACHE_BREAKPOINTS) break;
      const content = out[i]!.content as UserBlock[];
      out[i] = { role: 'user', content: [...content.slice(0, -1), withBreakpoint(content[content.length - 1]!)] };
      breakpoints++;
    }
  }
  return { ...(wireSystem ? { system: wireSystem } : {}), ...(wireTools.length ? { tools: wireTools } : {}), messages: out, breakpoints };
}
