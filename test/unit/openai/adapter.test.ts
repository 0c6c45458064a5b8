// The OpenAI adapter with the real `openai` SDK against the local chat-completions server: what a
// person sees for a rejected key, a refused request, a server that is not running, retry-after,
// retries running out and a cancel.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ModelError, type ModelRequest } from '../../../src/harness/model/model';
import { OpenAIModel } from '../../../src/harness/model/openai';
import { resolveProvider } from '../../../src/harness/model/providers';
import { FakeOpenAIServer } from '../../fakeOpenAI/server';
import type { ScriptEntry } from '../../fakeOpenAI/script';

const KEY = 'sk-proj-unit';
const say = (text: string): ScriptEntry => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn' });
const request = (signal?: AbortSignal): ModelRequest => ({ system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], max_tokens: 100, signal });

function model(url: string, key = KEY, maxRetries = 2): OpenAIModel {
  const provider = resolveProvider('openai', undefined, { OPENAI_API_KEY: key, OPENAI_BASE_URL: url });
  return new OpenAIModel({ model: 'gpt-4.1-mini', provider, maxRetries, backoff: { baseMs: 1, maxMs: 5 } });
}

async function rejected(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelError, String(e));
    return e;
  }
  assert.fail('expected a ModelError');
}

describe('openai adapter through the real SDK', function () {
  this.timeout(30_000);
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a rejected key: no retry, the fix first in the message, and the key is not in it', async () => {
    server = await FakeOpenAIServer.start({ script: [say('hi')], apiKeys: ['sk-proj-other'] });
    const e = await rejected(model(server.url).complete(request()));
    assert.equal(e.code, 'auth');
    assert.match(e.message, /^The OpenAI API rejected the API key; set the OPENAI_API_KEY environment variable, or in VS Code run "Kite: Set API Key…" and pick OpenAI with a valid key \(401 invalid_request_error: Incorrect API key provided: sk-\*\*\*\*unit\./);
    assert.doesNotMatch(e.message, new RegExp(KEY));
    assert.equal(server.requests.length, 1);
  });

  it('retry-after is honoured (the wait is the server’s), and a 500 that persists ends with the attempts counted', async () => {
    server = await FakeOpenAIServer.start({ script: [{ ...say('ok'), faults: [{ kind: 'rate_limit', retry_after_s: 0.05 }] }] });
    const retries: { attempt: number; reason: string; wait_ms: number }[] = [];
    const reply = await model(server.url).complete(request(), { onRetry: (r) => retries.push(r) });
    assert.deepEqual(reply.content, [{ type: 'text', text: 'ok' }]);
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.wait_ms, 50);
    assert.match(retries[0]!.reason, /^rate_limited: 429 rate_limit_error: Rate limit reached for requests per min .* \[request-id req_[0-9a-f]+\]$/);
    await server.close();

    server = await FakeOpenAIServer.start({ script: [{ ...say('never'), faults: [{ kind: 'server_error' }, { kind: 'server_error' }, { kind: 'server_error' }] }] });
    const e = await rejected(model(server.url).complete(request()));
    assert.equal(e.code, 'network');
    assert.match(e.message, /^The call to the OpenAI API failed after 3 attempts: 500 server_error: The server had an error/);
  });

  it('a local server that is not running: retried as a connection failure, then a message naming the URL', async () => {
    const port = await freePort();
    const provider = resolveProvider('ollama', { ollama: { base_url: `http://127.0.0.1:${port}/v1` } }, {});
    const m = new OpenAIModel({ model: 'qwen2.5-coder', provider, maxRetries: 1, backoff: { baseMs: 1, maxMs: 2 } });
    assert.equal(m.id, 'ollama:qwen2.5-coder');
    const e = await rejected(m.complete(request()));
    assert.equal(e.code, 'network');
    assert.match(e.message, new RegExp(`could not reach Ollama at http://127\\.0\\.0\\.1:${port}/v1 .*is it running\\?`));
  });

  it('a request the server refuses is reported with its message, not retried', async () => {
    server = await FakeOpenAIServer.start({ script: [say('x')] });
    const bad: ModelRequest = { ...request(), messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'orphan' }] }] };
    const e = await rejected(model(server.url).complete(bad));
    assert.equal(e.code, 'bad_request');
    assert.match(e.message, /^The OpenAI API refused the request: 400 invalid_request_error: Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'\./);
    assert.equal(server.requests.length, 1);
  });

  it('a cancel during a slow reply aborts the HTTP request at once', async () => {
    server = await FakeOpenAIServer.start({ script: [{ ...say('late'), faults: [{ kind: 'slow', delay_ms: 20_000 }] }] });
    const ctl = new AbortController();
    server.once('arrived', () => ctl.abort());
    const closed = new Promise<string>((resolve) => server!.once('request', (r: { outcome: string }) => resolve(r.outcome)));
    const t0 = Date.now();
    const e = await rejected(model(server.url).complete(request(ctl.signal)));
    assert.equal(e.code, 'cancelled');
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(await closed, 'client_closed');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
