// The observation budget: tool results may put only so many tokens into the conversation. A
// result that would go over is withheld before it enters — the model never receives it, the log
// never holds it — and the run ends budget_exceeded naming the observation budget.
import assert from 'node:assert/strict';
import { costOfRun } from '../../../src/harness/events/cost';
import type { ScriptEntry } from '../../fakeAnthropic/script';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { contextProject, endSummary, KEY, logEvents, runOn } from './kit';

const FLOOD = 'FLOODLINE 0123456789 abcdefghij\n'.repeat(2000); // ~64 KB, ~16,000 tokens
const read = (n: number, path: string): ScriptEntry => ({ content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path } }], stop_reason: 'tool_use' });
const script: ScriptEntry[] = [read(1, 'small.txt'), read(2, 'flood.txt'), { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' }];

describe('observation budget', function () {
  this.timeout(60_000);
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('withholds a flooding result before it enters the conversation and ends the run budget_exceeded (budget.observation_tokens)', async () => {
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const repo = contextProject({ files: { 'small.txt': 'a small file\n', 'flood.txt': FLOOD }, config: { budget: { turns: 50, observation_tokens: 5000 } } });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'budget_exceeded', r.summary);
    assert.match(endSummary(repo), /observation budget reached: a read_file result would bring tool results to ~[\d,]+ tokens, over the observation budget \(budget\.observation_tokens\) of 5,000/);
    // The model was asked twice (before and after the small read); the flood never went out.
    assert.equal(server.requests.length, 2);
    for (const q of server.requests) assert.ok(!JSON.stringify(q.body).includes('FLOODLINE'), `request ${q.n} holds the flood`);
    const events = logEvents(repo);
    assert.ok(!JSON.stringify(events).includes('FLOODLINE'), 'the log holds the flood');
    const withheld = events.find((e) => e.kind === 'tool' && e.id === 'toolu_2');
    assert.ok(withheld?.kind === 'tool' && withheld.is_error && withheld.error_code === 'observation_budget', JSON.stringify(withheld));
    assert.match(withheld.output, /withheld and did NOT enter the conversation/);
    const stop = events.find((e) => e.kind === 'budget_stop');
    assert.ok(stop?.kind === 'budget_stop');
    assert.equal(stop.limit, 'observation_tokens');
    assert.equal(stop.tool, 'read_file');
    assert.equal(stop.max, 5000);
    assert.ok(stop.used > 5000);
    assert.equal((events.at(-1) as { status?: string }).status, 'budget_exceeded');
    // kite cost shows what tool results put in, against the budget.
    const cost = costOfRun(events, 'log');
    assert.equal(cost.observation_limit, 5000);
    assert.ok(cost.observation_tokens > 0 && cost.observation_tokens < 5000, String(cost.observation_tokens));
  });

  it('a per-tool limit stops that tool only, and a limit given like --max-observation-tokens is recorded in session_start', async () => {
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const repo = contextProject({ files: { 'small.txt': 'a small file\n', 'flood.txt': FLOOD }, config: { budget: { turns: 50, per_tool: { read_file: 3000, run: 100 } } } });
    const r = await runOn(repo, server, { limits: { observation_tokens: 1_000_000 } });
    assert.equal(r.outcome, 'budget_exceeded', r.summary);
    assert.match(endSummary(repo), /over the observation budget for read_file \(budget\.per_tool\) of 3,000/);
    const events = logEvents(repo);
    const start = events[0];
    assert.ok(start?.kind === 'session_start');
    assert.equal(start.limits.observation_tokens, 1_000_000);
    assert.deepEqual(start.limits.per_tool, { read_file: 3000, run: 100 });
    assert.ok(!JSON.stringify(server.requests.map((q) => q.body)).includes('FLOODLINE'));
  });

  it('lets a run whose results stay under the budget finish done', async () => {
    const ok: ScriptEntry[] = [read(1, 'small.txt'), { content: [{ type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: 'done.txt', content: 'ok\n' } }], stop_reason: 'tool_use' }, { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' }];
    server = await FakeAnthropicServer.start({ script: ok, apiKeys: [KEY] });
    const repo = contextProject({ files: { 'small.txt': 'a small file\n' }, config: { budget: { turns: 50, observation_tokens: 5000 } } });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'done', r.summary);
  });
});
