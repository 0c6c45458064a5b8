// One price table prices every reply: list prices per model, each model's own cache rates, the
// long-prompt tier, family prefixes for dated ids, and config overrides.
import assert from 'node:assert/strict';
import { costOf, priceOf, uncachedCostOf } from '../../../src/harness/model/pricing';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);
const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000, cache_creation_input_tokens: 1_000_000, cache_read_input_tokens: 1_000_000 };

describe('pricing', () => {
  it('prices Sonnet 5.5 at its list rates, including its own cache-read rate', () => {
    close(costOf(usage, priceOf('anthropic:claude-sonnet-5-5')), 2 + 10 + 2.5 + 0.1);
  });

  it('derives cache rates from the multipliers when a model lists none', () => {
    close(costOf(usage, priceOf('claude-opus-4-8')), 5 + 25 + 6.25 + 0.5);
    close(costOf(usage, priceOf('claude-opus-5-5')), 4 + 20 + 5 + 0.2);
  });

  it('switches Haiku 5.5 to its long-prompt rates for every token of a prompt over 100k', () => {
    const p = priceOf('claude-haiku-5-5');
    const small = { input_tokens: 50_000, output_tokens: 1_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 50_000 };
    close(costOf(small, p), (50_000 * 0.1 + 1_000 * 0.5 + 50_000 * 0.01) / 1e6);
    const big = { ...small, cache_read_input_tokens: 50_001 };
    close(costOf(big, p), (50_000 * 0.5 + 1_000 * 2.5 + 50_001 * 0.05) / 1e6);
    close(uncachedCostOf(big, p), (100_001 * 0.5 + 1_000 * 2.5) / 1e6);
  });

  it('finds dated snapshots by family prefix and takes config overrides', () => {
    assert.deepEqual(priceOf('claude-haiku-4-5-20251001'), priceOf('claude-haiku-4-5'));
    assert.deepEqual(priceOf('claude-sonnet-5-5', { 'claude-sonnet-5-5': { input: 1, output: 1 } }), { input: 1, output: 1 });
    // A scripted or unknown model falls back to the default model's price.
    assert.deepEqual(priceOf('script:/tmp/x.json'), priceOf('claude-sonnet-5-5'));
  });

  it('values a cached session against the same session without cache', () => {
    const p = priceOf('claude-sonnet-5-5');
    const u = { input_tokens: 10, output_tokens: 100, cache_creation_input_tokens: 1_000, cache_read_input_tokens: 9_000 };
    close(uncachedCostOf(u, p), (10_010 * 2 + 100 * 10) / 1e6);
    assert.ok(costOf(u, p) < uncachedCostOf(u, p));
  });
});
