// Transport failures are retried with backoff, reported, and end in exactly one Reply; when they
// do not stop, the error says what happened. Cancelling aborts the HTTP request itself.
import assert from 'node:assert/strict';
import { ModelError } from '../../../src/harness/model/model';
import type { Fault, ScriptEntry } from '../../fakeAnthropic/script';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { modelFor, nextRequest, recorder, request, startServer, userText } from './helpers';

const TOOL_REPLY: ScriptEntry = {
  content: [
    { type: 'text', text: 'Reading the file first, then I will change it.' },
    { type: 'tool_use', id: 'toolu_fault', name: 'read_file', input: { path: 'src/index.ts' } },
  ],
  stop_reason: 'tool_use',
};

describe('AnthropicModel retries and cancellation', () => {
  let server: FakeAnthropicServer;
  afterEach(async () => server?.close());

  const cases: { name: string; fault: Fault; reason: string }[] = [
    { name: '429 rate limit', fault: { kind: 'rate_limit', retry_after_s: 0 }, reason: 'rate_limited' },
    { name: '529 overloaded', fault: { kind: 'overloaded' }, reason: 'overloaded' },
    { name: '500 server error', fault: { kind: 'server_error' }, reason: 'server_error' },
    { name: 'a connection dropped mid-stream', fault: { kind: 'drop', after_events: 4 }, reason: 'stream_cut' },
    { name: 'an overloaded error event mid-stream', fault: { kind: 'stream_error', after_events: 3 }, reason: 'overloaded' },
  ];
  for (const c of cases) {
    it(`survives ${c.name}: one Reply, the retry reported, the partial reply discarded`, async () => {
      server = await startServer([{ ...TOOL_REPLY, faults: [c.fault, c.fault] }]);
      const obs = recorder();
      const reply = await modelFor(server).complete(request([userText('change index.ts')]), obs);
      assert.deepEqual(reply.content, TOOL_REPLY.content, 'exactly the scripted reply, nothing duplicated from the cut attempt');
      assert.deepEqual(
        obs.retries.map((r) => [r.attempt, r.reason.split(':')[0]]),
        [
          [1, c.reason],
          [2, c.reason],
        ],
      );
      assert.deepEqual(server.requests.map((r) => r.outcome), ['fault', 'fault', 'served']);
      assert.equal(server.turnsServed, 1);
      if (c.fault.kind === 'drop' || c.fault.kind === 'stream_error') {
        // The cut attempts had already streamed some text: the cut really was mid-reply.
        const full = (TOOL_REPLY.content[0] as { text: string }).text;
        assert.ok(obs.text.join('').length > full.length, 'partial text streamed before the cut');
      }
    });
  }

  it('honours retry-after from a 429', async () => {
    server = await startServer([{ ...TOOL_REPLY, faults: [{ kind: 'rate_limit', retry_after_s: 1 }] }]);
    const obs = recorder();
    const t0 = Date.now();
    await modelFor(server).complete(request([userText('go')]), obs);
    assert.equal(obs.retries[0]?.wait_ms, 1000);
    assert.ok(Date.now() - t0 >= 1000, 'the adapter waited as told');
  });

  it('backs off exponentially with jitter when the server gives no retry-after', async () => {
    server = await startServer([{ ...TOOL_REPLY, faults: [{ kind: 'overloaded' }, { kind: 'overloaded' }, { kind: 'overloaded' }] }]);
    const obs = recorder();
    const rolls = [0, 1, 0.5];
    await modelFor(server, { backoff: { baseMs: 8, maxMs: 1000, random: () => rolls.shift() ?? 0 } }).complete(request([userText('go')]), obs);
    // wait = exp/2 + random*exp/2 with exp = 8, 16, 32
    assert.deepEqual(obs.retries.map((r) => r.wait_ms), [4, 16, 24]);
  });

  it('retries a slow first byte as a timeout and then gets the reply', async () => {
    server = await startServer([{ ...TOOL_REPLY, faults: [{ kind: 'slow', delay_ms: 3000 }] }]);
    const obs = recorder();
    const reply = await modelFor(server, { timeoutMs: 300 }).complete(request([userText('go')]), obs);
    assert.equal(reply.stop_reason, 'tool_use');
    assert.equal(obs.retries.length, 1);
    assert.match(obs.retries[0]!.reason, /^timeout/);
    await new Promise<void>((resolve) => (server.requests.length >= 2 ? resolve() : server.on('request', () => server.requests.length >= 2 && resolve())));
    assert.deepEqual(server.requests.map((r) => r.outcome).sort(), ['client_closed', 'served']);
  });

  it('retries a stream that goes silent mid-reply', async () => {
    // 600 ms between events and a 200 ms silence limit: every attempt stalls, so retries run out.
    server = await startServer([TOOL_REPLY], { eventDelayMs: 600 });
    const obs = recorder();
    await assert.rejects(
      modelFor(server, { timeoutMs: 200, maxRetries: 1 }).complete(request([userText('go')]), obs),
      (e: unknown) => e instanceof ModelError && e.code === 'network' && /silent for 200 ms/.test(e.message),
    );
    assert.equal(obs.retries.length, 1);
    assert.match(obs.retries[0]!.reason, /^timeout/);
  });

  it('gives up after maxRetries with a clear, typed error', async () => {
    const five: Fault[] = Array.from({ length: 5 }, () => ({ kind: 'overloaded' }));
    server = await startServer([{ ...TOOL_REPLY, faults: five }]);
    const obs = recorder();
    await assert.rejects(modelFor(server, { maxRetries: 2 }).complete(request([userText('go')]), obs), (e: unknown) => {
      assert.ok(e instanceof ModelError);
      assert.equal(e.code, 'overloaded');
      assert.match(e.message, /failed after 3 attempts: 529 overloaded_error: Overloaded \[request-id req_/);
      return true;
    });
    assert.equal(obs.retries.length, 2);
    assert.equal(server.requests.length, 3);
  });

  it('cancelling mid-stream aborts the HTTP request', async () => {
    server = await startServer([TOOL_REPLY], { eventDelayMs: 200 });
    const ctl = new AbortController();
    const obs = recorder();
    obs.onText = () => ctl.abort(); // cancel as soon as the first text arrives
    const closed = nextRequest(server);
    await assert.rejects(modelFor(server).complete(request([userText('go')], { signal: ctl.signal }), obs), (e: unknown) => e instanceof ModelError && e.code === 'cancelled');
    const rec = await closed;
    assert.equal(rec.outcome, 'client_closed', 'the server saw the connection go away before the reply finished');
    assert.equal(server.turnsServed, 0);
  });

  it('cancelling before the first byte aborts the request too', async () => {
    server = await startServer([{ ...TOOL_REPLY, faults: [{ kind: 'slow', delay_ms: 10_000 }] }]);
    const ctl = new AbortController();
    void nextRequest(server, 'arrived').then(() => ctl.abort());
    const closed = nextRequest(server);
    await assert.rejects(modelFor(server).complete(request([userText('go')], { signal: ctl.signal })), (e: unknown) => e instanceof ModelError && e.code === 'cancelled');
    assert.equal((await closed).outcome, 'client_closed');
  });

  it('cancelling during a backoff wait stops at once without another request', async () => {
    server = await startServer([{ ...TOOL_REPLY, faults: [{ kind: 'rate_limit', retry_after_s: 30 }] }]);
    const ctl = new AbortController();
    const obs = recorder();
    obs.onRetry = () => ctl.abort();
    const t0 = Date.now();
    await assert.rejects(modelFor(server).complete(request([userText('go')], { signal: ctl.signal }), obs), (e: unknown) => e instanceof ModelError && e.code === 'cancelled');
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(server.requests.length, 1);
  });
});
