// Compaction, end to end through the real SDK and the local Messages API server with a 20,000-
// token window: an 80-turn session whose tool output adds up to several windows ends done with
// compaction and context_exceeded without it; after compaction the requests still hold, word for
// word, the verify command, every gate feedback and the denial given at turn 3; a replay of the
// compacted run reproduces its gate sequence.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { promptTokensOf } from '../../fakeAnthropic/caching';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';
import { contextProject, endSummary, KEY, logEvents, runOn, VERIFY } from './kit';
import { CONTEXT, longScript, moduleFiles, PUSH, summaryReplies, TURNS, WINDOW } from './longSession';

const inBody = (body: unknown, text: string) => JSON.stringify(body).includes(JSON.stringify(text).slice(1, -1));

describe('compaction (80-turn session, 20,000-token window)', function () {
  this.timeout(120_000);
  let server: FakeAnthropicServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('ends done with compaction; each later request keeps the verify command, every gate feedback and the turn-3 denial verbatim; replay reproduces the gates', async () => {
    server = await FakeAnthropicServer.start({ script: longScript(), summaries: summaryReplies(), apiKeys: [KEY], contextWindow: WINDOW });
    const repo = contextProject({ files: moduleFiles(), config: { context: CONTEXT } });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'done', endSummary(repo));
    const events = logEvents(repo);
    assert.ok(server.requests.every((q) => q.outcome === 'served'), 'no request was refused');
    const turns = server.requests.filter((q) => q.turn !== null);
    assert.equal(turns.length, TURNS);
    // The tool output really is several windows, and no request came near the window.
    const outputTokens = events.filter((e) => e.kind === 'tool').reduce((n, e) => n + (e as { output: string }).output.length / 4, 0);
    assert.ok(outputTokens > 2.5 * WINDOW, `tool output ~${outputTokens} tokens`);
    const peak = Math.max(...server.requests.map((q) => promptTokensOf(q.body as Record<string, unknown>)));
    assert.ok(peak < WINDOW, `peak request ${peak} tokens`);

    const compactions = events.filter((e): e is Extract<KiteEvent, { kind: 'compaction' }> => e.kind === 'compaction');
    assert.ok(compactions.length >= 2, `${compactions.length} compactions`);
    assert.ok(compactions.some((c) => c.stubbed.length > 0), 'old results were stubbed');
    const summarized = compactions.filter((c) => c.summary !== null);
    assert.ok(summarized.length >= 1, 'older turns were summarized');
    assert.equal(server.requests.filter((q) => q.turn === null).length, summarized.length, 'one summary call per summary');
    for (const c of compactions) assert.ok(c.tokens_after < c.tokens_before, `compaction at turn ${c.turn}: ${c.tokens_before} → ${c.tokens_after}`);
    // The summary call used its own prompt, without tools; its cost counts in the run's total.
    const sumReq = server.requests.find((q) => q.turn === null)!;
    assert.equal((sumReq.body as { tools?: unknown }).tools, undefined);
    assert.match(JSON.stringify((sumReq.body as { system: unknown }).system), /summarizing the earlier part of a coding session/);
    const end = events.at(-1) as Extract<KiteEvent, { kind: 'session_end' }>;
    const models = events.filter((e) => e.kind === 'model').reduce((n, e) => n + (e as { cost_usd: number }).cost_usd, 0);
    const summaries = summarized.reduce((n, c) => n + c.summary!.cost_usd, 0);
    assert.ok(summaries > 0);
    assert.ok(Math.abs(end.cost_usd - (models + summaries)) < 1e-9, 'summaries are counted in the run cost');

    // What binds the agent survives, word for word, in every request after the first summary.
    const denial = events.find((e) => e.kind === 'tool' && e.id === 'toolu_003') as Extract<KiteEvent, { kind: 'tool' }>;
    assert.equal(denial.error_code, 'denied');
    assert.match(denial.output, /deny:git-push/);
    const feedback = events.filter((e) => e.kind === 'gate' && !e.passed).map((e) => (e as { feedback: string }).feedback);
    assert.equal(feedback.length, 1);
    const firstSummaryTurn = summarized[0]!.turn;
    const after = turns.filter((q) => q.turn! > firstSummaryTurn + 1);
    assert.ok(after.length > 0);
    assert.ok(summarized.some((c) => c.turn > 41), 'a summary after the gate feedback (it must survive being summarized)');
    for (const q of after) {
      assert.ok(inBody(q.body, VERIFY), `request for turn ${q.turn} lost the verify command`);
      if (q.turn! > 40) for (const f of feedback) assert.ok(inBody(q.body, f), `request for turn ${q.turn} lost the gate feedback (given at turn 40)`);
      assert.ok(inBody(q.body, denial.output), `request for turn ${q.turn} lost the denial of ${PUSH}`);
    }
    const gates = events.filter((e) => e.kind === 'gate').map((e) => (e as { passed: boolean }).passed);
    assert.deepEqual(gates, [false, true]);

    // Replay of the compacted run: the same compactions, the same gate sequence, no divergence.
    const log = join(repo, '.kite', 'runs', readdirSync(join(repo, '.kite', 'runs')).find((f) => f.endsWith('.jsonl'))!);
    const replay = await replayRun({ log, root: repo, worktree: true, onDivergence: 'stop' }, new UnattendedHost());
    assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
    assert.equal(replay.outcome, 'done');
    const replayed = logEventsAt(replay.logPath);
    assert.deepEqual(
      replayed.filter((e) => e.kind === 'gate').map((e) => (e as { passed: boolean }).passed),
      gates,
    );
    assert.equal(replayed.filter((e) => e.kind === 'compaction').length, compactions.length);
  });

  it('the same session without compaction ends context_exceeded', async () => {
    server = await FakeAnthropicServer.start({ script: longScript(), apiKeys: [KEY], contextWindow: WINDOW });
    const repo = contextProject({ files: moduleFiles(), config: { context: { ...CONTEXT, compact: false } } });
    const r = await runOn(repo, server);
    assert.equal(r.outcome, 'context_exceeded', endSummary(repo));
    assert.match(endSummary(repo), /prompt is too long: \d+ tokens > 20000 maximum/);
    assert.ok(!logEvents(repo).some((e) => e.kind === 'compaction'));
  });
});

function logEventsAt(path: string): KiteEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);
}
