import assert from 'node:assert/strict';
import { checkBudget, describeStop, mergeLimits, NO_LIMITS } from '../../../src/harness/budget/budget';
import { runLoop } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { makeDeps, ScriptedGate, tempRepo } from '../loop/kit';

describe('budgets', function () {
  it('checkBudget names the first limit reached (used >= max)', () => {
    const used = { turns: 3, tokens: 5000, usd: 0.2, wall_s: 10 };
    assert.equal(checkBudget(NO_LIMITS, used), null);
    assert.deepEqual(checkBudget({ ...NO_LIMITS, turns: 3 }, used), { limit: 'turns', used: 3, max: 3 });
    assert.equal(checkBudget({ ...NO_LIMITS, turns: 4 }, used), null);
    assert.deepEqual(checkBudget({ ...NO_LIMITS, tokens: 5000 }, used)?.limit, 'tokens');
    assert.deepEqual(checkBudget({ ...NO_LIMITS, usd: 0.1 }, used)?.limit, 'usd');
    assert.deepEqual(checkBudget({ ...NO_LIMITS, wall_s: 5 }, used)?.limit, 'wall_s');
    assert.match(describeStop({ limit: 'usd', used: 0.2, max: 0.1 }), /dollar budget reached: \$0\.2000 of \$0\.10/);
  });

  it('mergeLimits: CLI overrides win, explicit null removes a limit', () => {
    const base = { turns: 50, tokens: 100, usd: 5, wall_s: 60 };
    assert.deepEqual(mergeLimits(base, { turns: 3, usd: null }), { turns: 3, tokens: 100, usd: null, wall_s: 60 });
  });

  describe('in the loop (checked before every model call)', () => {
    let root: string;
    before(() => {
      root = tempRepo();
    });
    const loop = (limits: Partial<typeof NO_LIMITS>, replies = 10, now?: () => number, prices?: Record<string, { input: number; output: number }>) => {
      const model = new ScriptedModel(
        Array.from({ length: replies }, (_, i) => use('read_file', `r${i}`, { path: i % 2 ? 'package.json' : 'src/ledger.js' }, { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 500, cache_read_input_tokens: 400 })),
      );
      const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]), now, config: { model: 'claude-opus-4-1', prices } });
      deps.limits = { ...NO_LIMITS, ...limits };
      return runLoop(deps, new AbortController().signal).then((r) => ({ r, sink, model }));
    };

    it('turns: stops before the call that would exceed, with a budget_stop event naming the limit', async () => {
      const { r, sink, model } = await loop({ turns: 2 });
      assert.equal(r.outcome, 'budget_exceeded');
      assert.equal(model.requests.length, 2);
      assert.deepEqual(sink.of('budget_stop').map((b) => [b.limit, b.used, b.max]), [['turns', 2, 2]]);
      assert.match(r.summary, /turn budget reached: 2 of 2/);
    });

    it('tokens count input + output + cache writes + cache reads', async () => {
      const { r, sink, model } = await loop({ tokens: 4000 });
      assert.equal(model.requests.length, 2); // 2000 per reply
      assert.deepEqual(sink.of('budget_stop').map((b) => [b.limit, b.used]), [['tokens', 4000]]);
      assert.equal(r.outcome, 'budget_exceeded');
    });

    it('dollars use the price table incl. cache prices, with config overrides', async () => {
      // priced at $15 in, $75 out; cache write 1.25x (18.75), read 0.1x (1.5) per MTok → $0.032475 per reply
      const { sink, model } = await loop({ usd: 0.05 }, 10, undefined, { 'claude-opus-4-1': { input: 15, output: 75 } });
      assert.equal(model.requests.length, 2);
      assert.equal(sink.of('budget_stop')[0].limit, 'usd');
      assert.ok(Math.abs(sink.of('model')[0].cost_usd - 0.032475) < 1e-9, String(sink.of('model')[0].cost_usd));
      // an override to a free model never trips the dollar budget
      const free = await loop({ usd: 0.05, turns: 4 }, 10, undefined, { 'claude-opus-4-1': { input: 0, output: 0 } });
      assert.equal(free.sink.of('budget_stop')[0].limit, 'turns');
    });

    it('wall time uses the injected clock', async () => {
      let t = 0;
      const { sink, model } = await loop({ wall_s: 30 }, 10, () => (t += 10_000));
      assert.equal(sink.of('budget_stop')[0].limit, 'wall_s');
      assert.ok(model.requests.length < 3);
    });

    it('a run that ends within budget has no budget_stop', async () => {
      const model = new ScriptedModel([say('done')]);
      const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]) });
      deps.limits = { turns: 1, tokens: null, usd: null, wall_s: null };
      const r = await runLoop(deps, new AbortController().signal);
      assert.equal(r.outcome, 'done');
      assert.equal(sink.of('budget_stop').length, 0);
    });
  });
});
