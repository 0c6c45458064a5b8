// The local server's context window: a prompt over it is refused like the service does it (400
// invalid_request_error "prompt is too long: N tokens > M maximum"), and Kite ends such a run
// `context_exceeded` with that message instead of an unexplained error.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import type { ScriptEntry } from '../../fakeAnthropic/script';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { contextProject, endSummary, KEY, logEvents, MODEL, runOn } from './kit';

const BIG = 'x'.repeat(79).concat('\n').repeat(500); // ~10,000 tokens per read

describe('context window of the local Messages API server', function () {
  this.timeout(60_000);
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("refuses a prompt over the model's window with the service's 400 and serves one under it", async () => {
    server = await FakeAnthropicServer.start({ script: [{ content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn' }], apiKeys: [KEY], contextWindow: { [MODEL]: 1000, 'claude-haiku-5-5': 100_000 } });
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    await assert.rejects(
      client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: BIG.slice(0, 8000) }] }),
      (e: unknown) => {
        assert.ok(e instanceof Anthropic.BadRequestError, String(e));
        assert.equal((e.error as { error: { type: string } }).error.type, 'invalid_request_error');
        assert.match(e.message, /prompt is too long: \d+ tokens > 1000 maximum/);
        return true;
      },
    );
    const ok = await client.messages.create({ model: 'claude-haiku-5-5', max_tokens: 10, messages: [{ role: 'user', content: BIG.slice(0, 8000) }] });
    assert.equal(ok.stop_reason, 'end_turn');
    assert.deepEqual(
      server.requests.map((r) => r.outcome),
      ['rejected', 'served'],
    );
  });

  it('ends a run whose conversation outgrows the window context_exceeded, naming the sizes', async () => {
    const reads: ScriptEntry[] = [1, 2, 3, 4].map((n) => ({ content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: 'big.txt' } }], stop_reason: 'tool_use' }));
    server = await FakeAnthropicServer.start({ script: reads, apiKeys: [KEY], contextWindow: 25_000 });
    const repo = contextProject({ files: { 'big.txt': BIG }, config: { context: { compact: false } } });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'context_exceeded', endSummary(repo));
    assert.match(endSummary(repo), /no longer fits the model's context window \(.*prompt is too long: \d+ tokens > 25000 maximum/);
    assert.equal(server.requests.at(-1)?.outcome, 'rejected');
    const events = logEvents(repo);
    assert.equal(events.at(-1)?.kind, 'session_end');
    assert.equal((events.at(-1) as { status: string }).status, 'context_exceeded');
    assert.ok(events.some((e) => e.kind === 'warning' && e.code === 'context_exceeded'));
  });
});
