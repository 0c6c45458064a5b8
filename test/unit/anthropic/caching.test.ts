// Prompt caching: at most 4 breakpoints on tools, system and the moving end of the conversation;
// across turns the cached prefix grows and is read back; a drifting prefix is reported.
import assert from 'node:assert/strict';
import { buildWireParams } from '../../../src/harness/model/cacheBreakpoints';
import type { Message } from '../../../src/harness/protocol/content';
import { CacheSimulator } from '../../fakeAnthropic/caching';
import type { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { BENCH_SYSTEM, BENCH_TOOLS, driveSession, sessionScript } from '../../fakeAnthropic/session';
import { TOOLS, modelFor, recorder, request, startServer, userText } from './helpers';

describe('prompt caching', () => {
  let server: FakeAnthropicServer;
  afterEach(async () => server?.close());

  it('places breakpoints on the last tool, the system prompt and the last two user messages — four at most', () => {
    const messages: Message[] = [
      userText('brief'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'A' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'B' }, { type: 'text', text: 'gate failed' }] },
    ];
    const w = buildWireParams('sys', TOOLS, messages);
    assert.equal(w.breakpoints, 4);
    const marked = JSON.stringify(w).match(/cache_control/g)?.length;
    assert.equal(marked, 4);
    assert.ok(w.tools?.[1]?.cache_control && !w.tools[0]?.cache_control);
    assert.ok(w.system?.[0]?.cache_control);
    assert.ok('cache_control' in w.messages[4]!.content[1]! && !('cache_control' in w.messages[4]!.content[0]!));
    assert.ok('cache_control' in w.messages[2]!.content[0]!);
    assert.ok(!('cache_control' in w.messages[0]!.content[0]!));
    // A caller's stray cache_control never pushes the count past four.
    const stray: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'y' }] }];
    assert.equal(JSON.stringify(buildWireParams('s', TOOLS, stray)).match(/cache_control/g)?.length, 3);
    assert.equal(buildWireParams('s', TOOLS, messages, false).breakpoints, 0);
  });

  it('reads a growing share of each request from the cache across a real multi-turn session', async () => {
    server = await startServer(sessionScript(8));
    const { replies } = await driveSession(modelFor(server), { system: BENCH_SYSTEM, tools: BENCH_TOOLS, briefing: 'Fix every module.', turns: 8, toolOutputChars: 3000 });
    assert.equal(replies.length, 8);
    assert.ok(server.requests.every((r) => r.outcome === 'served' && r.cacheControlBlocks <= 4), 'every request passed validation with ≤ 4 breakpoints');
    const reads = replies.map((r) => r.usage.cache_read_input_tokens ?? 0);
    assert.equal(reads[0], 0);
    for (let i = 1; i < reads.length; i++) assert.ok(reads[i]! > reads[i - 1]!, `cache reads grow: ${reads.join(', ')}`);
    // From the second turn on, everything but the newest tool result comes from the cache.
    const last = replies.at(-1)!.usage;
    const total = last.input_tokens + (last.cache_creation_input_tokens ?? 0) + (last.cache_read_input_tokens ?? 0);
    assert.ok((last.cache_read_input_tokens ?? 0) / total > 0.8, `read share of the last turn: ${last.cache_read_input_tokens}/${total}`);
  });

  it('without breakpoints nothing is read from the cache', async () => {
    server = await startServer(sessionScript(4));
    const { replies } = await driveSession(modelFor(server, { cache: false }), { system: BENCH_SYSTEM, tools: BENCH_TOOLS, briefing: 'Fix.', turns: 4, toolOutputChars: 2000 });
    assert.ok(replies.every((r) => r.usage.cache_read_input_tokens === 0 && r.usage.cache_creation_input_tokens === 0));
    assert.ok(server.requests.every((r) => r.cacheControlBlocks === 0));
  });

  it('warns prefix_changed, naming what changed, when tools or system drift between turns', async () => {
    server = await startServer(sessionScript(4));
    const model = modelFor(server);
    const obs = recorder();
    await model.complete(request([userText('one')]), obs);
    await model.complete(request([userText('one')]), obs);
    assert.equal(obs.warnings.length, 0, 'a stable prefix is quiet');
    await model.complete(request([userText('one')], { system: 'Now: 10:31:07. ' + request([]).system }), obs);
    assert.equal(obs.warnings.length, 1);
    assert.equal(obs.warnings[0]?.code, 'prefix_changed');
    assert.match(obs.warnings[0]!.message, /system prompt changed at character 0/);
    const reordered = TOOLS.map((t) => (t.name === 'write_file' ? { ...t, input_schema: { properties: t.input_schema.properties, type: 'object' } } : t));
    // Same schema, keys in another order: not byte-stable, so the cache would miss.
    await model.complete(request([userText('one')], { tools: reordered, system: 'Now: 10:31:07. ' + request([]).system }), obs);
    assert.equal(obs.warnings.length, 2);
    assert.match(obs.warnings[1]!.message, /tool definitions changed: write_file/);
  });

  it('warns when the conversation history is rewritten instead of only growing', async () => {
    server = await startServer(sessionScript(3));
    const model = modelFor(server);
    const obs = recorder();
    const history: Message[] = [userText('one'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, userText('two')];
    await model.complete(request(history), obs);
    await model.complete(request([...history, { role: 'assistant', content: [{ type: 'text', text: 'fine' }] }, userText('three')]), obs);
    assert.equal(obs.warnings.length, 0, 'appending keeps the prefix');
    await model.complete(request([history[0]!, { role: 'assistant', content: [{ type: 'text', text: 'edited' }] }, userText('two')]), obs);
    assert.match(obs.warnings[0]?.message ?? '', /conversation history changed at message 1/);
  });

  it('simulates the service honestly: TTL, minimum length, 20-block lookback', () => {
    let now = 0;
    const sim = new CacheSimulator({ clock: () => now, minCacheTokens: 50 });
    const cc = { type: 'ephemeral' };
    const block = (i: number, mark = false) => ({ type: 'text', text: `block ${i} `.repeat(20), ...(mark ? { cache_control: cc } : {}) });
    const body = (n: number, markAt: number[]) => ({ model: 'm', messages: [{ role: 'user', content: Array.from({ length: n }, (_, i) => block(i, markAt.includes(i))) }] });
    const first = sim.account(body(10, [9]));
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(first.cache_creation_input_tokens > 0 && first.input_tokens === 0);
    // Same prefix + 5 blocks, breakpoint at the end: the old prefix is found within the lookback.
    const second = sim.account(body(15, [14]));
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.ok(second.cache_creation_input_tokens > 0);
    // 25 new blocks after the cached prefix: beyond the 20-block lookback, nothing is found.
    const far = sim.account(body(40, [39]));
    assert.equal(far.cache_read_input_tokens, 0);
    // After the 5-minute TTL the entry is gone.
    now += 6 * 60_000;
    assert.equal(sim.account(body(15, [14])).cache_read_input_tokens, 0);
    // However the request is split, plain + written + read always adds up to the same prompt size.
    const fresh = new CacheSimulator({ minCacheTokens: 0 });
    const plain = fresh.account(body(15, []));
    for (const u of [second, fresh.account(body(15, [3, 9])), fresh.account(body(15, [3, 9, 14]))])
      assert.equal(u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens, plain.input_tokens);
    // Below the minimum cacheable length nothing is written.
    const tiny = new CacheSimulator({ minCacheTokens: 100_000 }).account(body(3, [2]));
    assert.deepEqual([tiny.cache_creation_input_tokens, tiny.cache_read_input_tokens], [0, 0]);
  });
});
