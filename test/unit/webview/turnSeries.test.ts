import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { TurnSeries, bucketAt, bucketMs, bucketSize, bucketTokens, niceMax } from '../../../webview-ui/model/turnSeries';
import { ev } from '../../helpers/events';

const demo = readFileSync(join(__dirname, '../../fixtures/logs/demo-run.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);

describe('timeline chart series', () => {
  it('has one point per model turn with tokens by kind, cost, running cost and durations', () => {
    const s = new TurnSeries();
    for (const e of demo) s.add(e);
    assert.equal(s.turns.length, 8);
    assert.equal(s.budgetUsd, 5);
    const t1 = s.turns[0]!;
    assert.deepEqual([t1.input, t1.cacheRead, t1.cacheWrite, t1.output], [2100, 0, 1800, 80]);
    // Turn 4 ended with "done": the failed gate's checks (410 + 233 ms) are its gate time.
    assert.equal(s.turns[3]!.gateMs, 643);
    // Turn 7 ran the tests (910 ms).
    assert.equal(s.turns[6]!.toolMs, 910);
    const sum = demo.reduce((a, e) => a + (e.kind === 'model' ? e.cost_usd : 0), 0);
    assert.ok(sum > 0 && Math.abs(s.totalCost - sum) < 1e-12);
    assert.ok(s.turns.every((p, i) => i === 0 || p.cumCost >= s.turns[i - 1]!.cumCost));
  });

  it('reports the first changed turn since the last redraw', () => {
    const s = new TurnSeries();
    assert.equal(s.takeDirty(), Infinity);
    s.add(ev.model({ turn: 1 }));
    s.add(ev.model({ turn: 2 }));
    assert.equal(s.takeDirty(), 0);
    s.add(ev.tool({ ms: 5 }));
    assert.equal(s.takeDirty(), 1);
    assert.equal(s.takeDirty(), Infinity);
  });

  it('groups turns in powers of two so a chart never has more than MAX_BARS bars', () => {
    assert.equal(bucketSize(0), 1);
    assert.equal(bucketSize(240), 1);
    assert.equal(bucketSize(241), 2);
    assert.equal(bucketSize(12_000), 64);
    assert.ok(Math.ceil(12_000 / bucketSize(12_000)) <= 240);
    const s = new TurnSeries();
    for (let i = 1; i <= 5; i++) s.add(ev.model({ turn: i, input_tokens: i, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, ms: 10, cost_usd: 1 }));
    const b = bucketAt(s.turns, 1, 2);
    assert.deepEqual([b.from, b.to, b.turn, b.input, bucketTokens(b), bucketMs(b), b.cumCost], [2, 4, 4, 7, 9, 20, 4]);
    const last = bucketAt(s.turns, 2, 2);
    assert.deepEqual([last.from, last.to, last.input], [4, 5, 5]);
  });

  it('rounds axis maxima up to readable values', () => {
    assert.deepEqual([0, 0.042, 3.9, 4.1, 95, 4500, 1_100_000].map(niceMax), [1, 0.05, 4, 5, 100, 5000, 1_200_000]);
  });
});
