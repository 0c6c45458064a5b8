// Shared set-up for the adapter tests: the fake Messages API server and an AnthropicModel (real SDK)
// pointed at it, with short backoffs so retry tests stay fast.
import { AnthropicModel, type AnthropicModelOptions } from '../../../src/harness/model/anthropic';
import type { ModelObserver, ModelRequest, ToolSpec } from '../../../src/harness/model/model';
import type { Message } from '../../../src/harness/protocol/content';
import type { ScriptEntry } from '../../fakeAnthropic/script';
import { FakeAnthropicServer, type FakeAnthropicOptions } from '../../fakeAnthropic/server';

export const KEY = 'sk-ant-test-0123456789';

export async function startServer(script: ScriptEntry[], opts: Partial<FakeAnthropicOptions> = {}): Promise<FakeAnthropicServer> {
  return FakeAnthropicServer.start({ script, apiKeys: [KEY], minCacheTokens: 0, ...opts });
}

export function modelFor(server: FakeAnthropicServer, opts: Partial<AnthropicModelOptions> = {}): AnthropicModel {
  return new AnthropicModel({
    model: 'claude-sonnet-5-5',
    apiKey: KEY,
    baseURL: server.url,
    env: {},
    backoff: { baseMs: 5, maxMs: 20, random: () => 0.5 },
    ...opts,
  });
}

export const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file of the workspace.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  },
  {
    name: 'write_file',
    description: 'Write a file of the workspace.',
    input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
];

export const SYSTEM = 'You are Kite, a careful coding agent. Use the tools; say "done" only when the work is verified.';

export function request(messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { system: SYSTEM, tools: TOOLS, messages, max_tokens: 1024, ...extra };
}

export const userText = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** Records everything the adapter reports. */
export function recorder(): ModelObserver & { retries: { attempt: number; reason: string; wait_ms: number }[]; text: string[]; thinking: string[]; warnings: { code: string; message: string }[] } {
  const r = {
    retries: [] as { attempt: number; reason: string; wait_ms: number }[],
    text: [] as string[],
    thinking: [] as string[],
    warnings: [] as { code: string; message: string }[],
    onRetry(info: { attempt: number; reason: string; wait_ms: number }) {
      r.retries.push(info);
    },
    onText(d: string) {
      r.text.push(d);
    },
    onThinking(d: string) {
      r.thinking.push(d);
    },
    onWarning(w: { code: string; message: string }) {
      r.warnings.push(w);
    },
  };
  return r;
}

/** Resolves with the first recorded request that matches. */
export function nextRequest(server: FakeAnthropicServer, event: 'request' | 'arrived' = 'request'): Promise<FakeAnthropicServer['requests'][number]> {
  return new Promise((resolve) => server.once(event, resolve));
}
