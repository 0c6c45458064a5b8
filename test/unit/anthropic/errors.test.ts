// A missing or rejected key, and a request the service refuses, each end in one clear typed
// error — never a stack trace and never a retry.
import assert from 'node:assert/strict';
import { AnthropicModel } from '../../../src/harness/model/anthropic';
import { ModelError } from '../../../src/harness/model/model';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { KEY, modelFor, recorder, request, startServer, userText } from './helpers';

const OK = [{ content: [{ type: 'text' as const, text: 'hi' }], stop_reason: 'end_turn' as const }];

describe('AnthropicModel errors', () => {
  let server: FakeAnthropicServer;
  afterEach(async () => server?.close());

  it('a missing key is one sentence naming ANTHROPIC_API_KEY and the VS Code command', async () => {
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', env: {} });
    await assert.rejects(model.complete(request([userText('hi')])), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.code, 'missing_key');
      assert.equal(e.message, 'No Anthropic API key: set the ANTHROPIC_API_KEY environment variable, or in VS Code run "Kite: Set API Key…" and pick Anthropic.');
      return true;
    });
  });

  it('reads the key and the base URL from the environment', async () => {
    server = await startServer(OK);
    const model = new AnthropicModel({ model: 'anthropic:claude-sonnet-5-5', env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url } });
    assert.equal(model.id, 'anthropic:claude-sonnet-5-5');
    const reply = await model.complete(request([userText('hi')]));
    assert.equal(reply.stop_reason, 'end_turn');
    assert.equal(server.requests[0]?.keyPresented, true);
  });

  it('a rejected key is ModelError auth with the service reason and the fix, and is not retried', async () => {
    server = await startServer(OK);
    const obs = recorder();
    await assert.rejects(modelFor(server, { apiKey: 'sk-ant-wrong' }).complete(request([userText('hi')]), obs), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.code, 'auth');
      assert.equal(
        e.message.replace(/req_[0-9a-f]+/, 'req_X'),
        'The Anthropic API rejected the API key; set the ANTHROPIC_API_KEY environment variable, or in VS Code run "Kite: Set API Key…" and pick Anthropic with a valid key (401 authentication_error: invalid x-api-key [request-id req_X]).',
      );
      assert.doesNotMatch(e.message, /sk-ant-wrong/, 'the key itself never appears');
      assert.doesNotMatch(e.message, /\n\s+at /, 'no stack trace in the message');
      return true;
    });
    assert.equal(obs.retries.length, 0);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.status, 401);
  });

  it('a request the service refuses is bad_request with the service message naming the location', async () => {
    server = await startServer(OK);
    // A loop bug: a tool_result with no tool_use before it.
    const broken = request([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ghost', content: 'out' }] }]);
    const obs = recorder();
    await assert.rejects(modelFor(server).complete(broken, obs), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.code, 'bad_request');
      assert.match(e.message, /400 invalid_request_error: messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_ghost/);
      return true;
    });
    assert.equal(obs.retries.length, 0);
  });

  it('an unreachable server is retried, then reported as a network error', async () => {
    server = await startServer(OK);
    const url = server.url;
    await server.close();
    const obs = recorder();
    await assert.rejects(
      modelFor(server, { baseURL: url, maxRetries: 2 }).complete(request([userText('hi')]), obs),
      (e: unknown) => e instanceof ModelError && e.code === 'network' && /could not reach the Anthropic API/.test(e.message),
    );
    assert.deepEqual(obs.retries.map((r) => r.reason.split(':')[0]), ['connection', 'connection']);
  });
});
