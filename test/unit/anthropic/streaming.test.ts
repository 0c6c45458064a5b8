// The adapter assembles streamed replies (real SDK, local Messages API server) into the same Reply
// the scripted model returns, and prices the usage it reports.
import assert from 'node:assert/strict';
import type { Message, StopReason } from '../../../src/harness/protocol/content';
import { costOf, priceOf } from '../../../src/harness/model/pricing';
import { ModelError } from '../../../src/harness/model/model';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { modelFor, recorder, request, startServer, userText } from './helpers';

describe('AnthropicModel streaming (real SDK against the local Messages API)', () => {
  let server: FakeAnthropicServer;
  afterEach(async () => server?.close());

  it('assembles text, tool_use (input from several json pieces), thinking with its signature and redacted thinking', async () => {
    const input = { path: 'src/money.ts', content: 'export const fee = (t: number) => Math.round(t * 2) / 100;\n', nested: { a: [1, 2, 3], ok: true } };
    server = await startServer([
      {
        content: [
          { type: 'thinking', thinking: 'The fee rounds wrong; I will rewrite money.ts.', signature: 'sig-abc' },
          { type: 'redacted_thinking', data: 'EqQBCkYIARgCKkA' },
          { type: 'text', text: 'I will fix the rounding in money.ts now, then run the tests.' },
          { type: 'tool_use', id: 'toolu_01', name: 'write_file', input },
        ],
        stop_reason: 'tool_use',
      },
    ]);
    const obs = recorder();
    const reply = await modelFor(server).complete(request([userText('Fix the fee rounding.')]), obs);
    assert.deepEqual(reply.content, [
      { type: 'thinking', thinking: 'The fee rounds wrong; I will rewrite money.ts.', signature: 'sig-abc' },
      { type: 'redacted_thinking', data: 'EqQBCkYIARgCKkA' },
      { type: 'text', text: 'I will fix the rounding in money.ts now, then run the tests.' },
      { type: 'tool_use', id: 'toolu_01', name: 'write_file', input },
    ]);
    assert.equal(reply.stop_reason, 'tool_use');
    assert.equal(reply.model, 'claude-sonnet-5-5');
    // The text arrived in several deltas, in order.
    assert.ok(obs.text.length > 1, `expected several text deltas, got ${obs.text.length}`);
    assert.equal(obs.text.join(''), 'I will fix the rounding in money.ts now, then run the tests.');
    // Thinking streams too, apart from the text (the timeline shows it collapsed).
    assert.equal(obs.thinking.join(''), 'The fee rounds wrong; I will rewrite money.ts.');
    const [rec] = server.requests;
    assert.equal(rec?.outcome, 'served');
    assert.equal(rec?.stream, true);
  });

  for (const stop of ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'] as StopReason[]) {
    it(`passes stop_reason ${stop} through unchanged`, async () => {
      const content = stop === 'tool_use' ? [{ type: 'tool_use' as const, id: 'toolu_9', name: 'read_file', input: { path: 'a.ts' } }] : [{ type: 'text' as const, text: `stopped: ${stop}` }];
      server = await startServer([{ content, stop_reason: stop }]);
      const reply = await modelFor(server).complete(request([userText('go')]));
      assert.equal(reply.stop_reason, stop);
      assert.deepEqual(reply.content, content);
    });
  }

  it('reports input, output, cache write and cache read tokens, and they price exactly', async () => {
    server = await startServer([{ content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { output_tokens: 321 } }]);
    const reply = await modelFor(server).complete(request([userText('hello there')]));
    const served = server.requests[0]!.usage!;
    assert.deepEqual(
      { i: reply.usage.input_tokens, o: reply.usage.output_tokens, w: reply.usage.cache_creation_input_tokens, r: reply.usage.cache_read_input_tokens },
      { i: served.input_tokens, o: 321, w: served.cache_creation_input_tokens, r: served.cache_read_input_tokens },
    );
    assert.ok(served.cache_creation_input_tokens > 0, 'a first request writes its breakpointed prefix');
    const price = priceOf('anthropic:claude-sonnet-5-5');
    // Sonnet 5.5 list prices: $2 in, $10 out, $2.50 cache write, $0.10 cache read per MTok.
    const expected = (served.input_tokens * 2 + 321 * 10 + served.cache_creation_input_tokens * 2.5 + served.cache_read_input_tokens * 0.1) / 1e6;
    assert.ok(Math.abs(costOf(reply.usage, price) - expected) < 1e-12);
  });

  it('never mutates the caller’s messages while adding cache breakpoints', async () => {
    server = await startServer([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } }], stop_reason: 'tool_use' },
      { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
    ]);
    const model = modelFor(server);
    const messages: Message[] = [userText('read a.ts')];
    const first = await model.complete(request(messages));
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' }] });
    const snapshot = JSON.stringify(messages);
    await model.complete(request(messages));
    assert.equal(JSON.stringify(messages), snapshot);
    assert.ok(!snapshot.includes('cache_control'));
    assert.deepEqual(server.requests.map((r) => r.outcome), ['served', 'served']);
  });

  it('uses maxTokensDefault when a request carries no max_tokens', async () => {
    server = await startServer([{ content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' }]);
    await modelFor(server, { maxTokensDefault: 2048 }).complete(request([userText('hi')], { max_tokens: 0 }));
    assert.equal((server.requests[0]!.body as { max_tokens: number }).max_tokens, 2048);
  });

  it('fails at once, with the service message, on an error the service marks as not retryable', async () => {
    server = await startServer([{ content: [{ type: 'text', text: 'x' }], stop_reason: 'end_turn' }]);
    const model = modelFor(server);
    await model.complete(request([userText('hi')]));
    const obs = recorder();
    // The script has one reply: the second call gets 500 with x-should-retry: false.
    await assert.rejects(model.complete(request([userText('hi')]), obs), (e: unknown) => e instanceof ModelError && e.code === 'network' && /script has 1 replies/.test(e.message));
    assert.equal(obs.retries.length, 0);
    assert.equal(server.requests.length, 2);
  });
});
