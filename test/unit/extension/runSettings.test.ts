import assert from 'node:assert/strict';
import { effectiveRunSettings, normalizeModelSpec, type KiteSettings } from '../../../src/extension/settings/runSettings';

const none: KiteSettings = { model: '', budget: { turns: null, tokens: null, usd: null, wallSeconds: null } };

describe('extension/runSettings precedence', () => {
  it('uses the default Anthropic model when neither the setting nor the config names one', () => {
    const e = effectiveRunSettings(none, null, '/ws');
    assert.equal(e.model, 'anthropic:claude-sonnet-5-5');
    assert.equal(e.modelSource, 'default');
    assert.deepEqual(e.limits, {});
  });

  it('the kite.model setting wins over model in .kite/config.json', () => {
    const e = effectiveRunSettings({ ...none, model: 'script:scripts/demo.json' }, { model: 'anthropic:claude-opus-5' }, '/ws');
    assert.equal(e.model, 'script:/ws/scripts/demo.json');
    assert.equal(e.modelSource, 'setting');
  });

  it('falls back to the config model, normalizing a bare id', () => {
    const e = effectiveRunSettings(none, { model: 'claude-haiku-4-5' }, '/ws');
    assert.equal(e.model, 'anthropic:claude-haiku-4-5');
    assert.equal(e.modelSource, 'config');
  });

  it('budgets in .kite/config.json win over kite.budget.* settings; settings fill the gaps', () => {
    const s: KiteSettings = { model: '', budget: { turns: 10, tokens: 5000, usd: 2, wallSeconds: null } };
    const e = effectiveRunSettings(s, { budget: { turns: 30, usd: 1 } }, '/ws');
    assert.deepEqual(e.limits, { tokens: 5000 }); // turns and usd come from the config (the harness reads it)
    assert.deepEqual(e.limitSources, { turns: 'config', tokens: 'setting', usd: 'config', wall_s: 'default' });
  });

  it('keeps absolute script paths and anthropic specs as they are', () => {
    assert.equal(normalizeModelSpec('script:/abs/s.json', '/ws'), 'script:/abs/s.json');
    assert.equal(normalizeModelSpec('anthropic:claude-opus-5', '/ws'), 'anthropic:claude-opus-5');
  });
});
