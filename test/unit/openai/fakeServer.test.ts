// The local chat-completions server itself, driven by the real `openai` SDK: JSON and SSE replies,
// usage with cached prompt tokens, and request validation answered in OpenAI's error shape.
import assert from 'node:assert/strict';
import OpenAI, { APIError } from 'openai';
import { FakeOpenAIServer } from '../../fakeOpenAI/server';
import type { ScriptEntry } from '../../fakeOpenAI/script';

const entry: ScriptEntry = { content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.js' } }], stop_reason: 'tool_use' };
const tools = [{ type: 'function' as const, function: { name: 'read_file', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

async function refused(p: Promise<unknown>): Promise<APIError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof APIError, String(e));
    return e;
  }
  assert.fail('expected the server to refuse the request');
}

describe('fake chat-completions server (test/fakeOpenAI)', function () {
  this.timeout(20_000);
  let server: FakeOpenAIServer;
  let client: OpenAI;
  beforeEach(async () => {
    server = await FakeOpenAIServer.start({ script: [entry, entry, entry], apiKeys: ['k'] });
    client = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
  });
  afterEach(() => server.close());

  it('answers JSON with the tool call and usage; a second request sharing a long prefix reports cached tokens', async () => {
    const long = 'x'.repeat(6000);
    const first = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'system', content: long }, { role: 'user', content: 'go' }], tools });
    assert.equal(first.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(first.choices[0]?.message.content, 'Reading.');
    assert.deepEqual(first.choices[0]?.message.tool_calls?.[0], { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.js"}' } });
    assert.equal(first.usage?.prompt_tokens_details?.cached_tokens, 0);
    const second = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'system', content: long }, { role: 'user', content: 'go on' }], tools });
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    assert.ok(cached >= 1024 && cached % 128 === 0 && cached <= (second.usage?.prompt_tokens ?? 0), `cached ${cached}`);
  });

  it('streams SSE chunks the SDK reads; usage only when stream_options asks for it', async () => {
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    let args = '';
    let usage: unknown = null;
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      args += c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '';
      usage ??= c.usage ?? null;
    }
    assert.equal(text, 'Reading.');
    assert.equal(args, '{"path":"a.js"}');
    assert.equal(usage, null);
    const withUsage = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true } });
    let u: OpenAI.CompletionUsage | null | undefined = null;
    for await (const c of withUsage) u ??= c.usage;
    assert.ok(u && u.prompt_tokens > 0 && u.completion_tokens > 0);
  });

  it('validates like the service: an unanswered tool call, a bad function name, both max-token fields, a wrong key', async () => {
    const unanswered = await refused(
      client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
          { role: 'user', content: 'and?' },
        ],
      }),
    );
    assert.equal(unanswered.status, 400);
    assert.equal(unanswered.type, 'invalid_request_error');
    assert.match(unanswered.message, /The following tool_call_ids did not have response messages: c1/);
    const badName = await refused(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], tools: [{ type: 'function', function: { name: 'read file' } }] }));
    assert.equal(badName.param, 'tools[0].function.name');
    const both = await refused(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], max_tokens: 10, max_completion_tokens: 10 }));
    assert.equal(both.param, 'max_tokens');
    const wrongKey = await refused(new OpenAI({ apiKey: 'nope', baseURL: server.url, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }] }));
    assert.equal(wrongKey.status, 401);
    assert.equal(wrongKey.code, 'invalid_api_key');
    assert.equal(server.turnsServed, 0, 'a refused request never advances the script');
  });
});
