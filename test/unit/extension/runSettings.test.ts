import assert from 'node:assert/strict';
import { effectiveRunSettings, mergedLevels, normalizeModelSpec, userSandbox, type KiteSettings } from '../../../src/extension/settings/runSettings';

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

  it('kite.maxGateFailures fills in only when .kite/config.json leaves max_gate_failures out', () => {
    const s: KiteSettings = { ...none, maxGateFailures: 5 };
    assert.deepEqual([effectiveRunSettings(s, null, '/ws').maxGateFailures, effectiveRunSettings(s, null, '/ws').maxGateFailuresSource], [5, 'setting']);
    const fromConfig = effectiveRunSettings(s, { max_gate_failures: 2 }, '/ws');
    assert.deepEqual([fromConfig.maxGateFailures, fromConfig.maxGateFailuresSource], [undefined, 'config']); // the harness reads the config's own
    assert.equal(effectiveRunSettings(none, null, '/ws').maxGateFailuresSource, 'default');
  });

  it('kite.policy.* settings are sent as additions: deny patterns (deduplicated) and attended-only allow patterns', () => {
    const s: KiteSettings = { ...none, policy: { denyCommands: ['npm publish', '\\bdocker\\b', 'npm publish'], allowCommands: ['npm test'] } };
    // The config's own policy is not consulted here: the harness merges, so a workspace deny always stays.
    const e = effectiveRunSettings(s, { model: 'x' }, '/ws');
    assert.deepEqual(e.policy, { deny: ['npm publish', '\\bdocker\\b'], allowAttended: ['npm test'] });
    assert.deepEqual(e.problems, []);
    assert.equal(effectiveRunSettings({ ...none, policy: { denyCommands: [], allowCommands: [] } }, null, '/ws').policy, undefined);
  });

  it('deny patterns from user, workspace and folder settings merge: a workspace [] cannot drop the user\'s', () => {
    assert.deepEqual(mergedLevels({ globalValue: ['npm publish', 'docker'], workspaceValue: [], workspaceFolderValue: ['rm .*', 'docker'] }), ['npm publish', 'docker', 'rm .*']);
    assert.deepEqual(mergedLevels({ globalValue: 'npm publish', workspaceValue: [3, 'x'] }), ['x']);
    assert.deepEqual(mergedLevels(undefined), []);
  });

  it('a pattern that is not a regular expression is a problem naming the setting and index (the run must not start)', () => {
    const e = effectiveRunSettings({ ...none, policy: { denyCommands: ['ok', '(unclosed'], allowCommands: ['[a-'] } }, null, '/ws');
    assert.deepEqual(
      e.problems.map((p) => p.setting),
      ['kite.policy.denyCommands[1]', 'kite.policy.allowCommands[0]'],
    );
    assert.match(e.problems[0]!.message, /not a valid regular expression/);
  });

  it('kite.sandbox counts only from the user settings; workspace and folder values are ignored and named', () => {
    assert.deepEqual(userSandbox({ globalValue: 'off' }), { value: 'off', ignored: [] });
    // A workspace cannot turn the sandbox off (nor back on over the user's "off": it is the user's switch).
    assert.deepEqual(userSandbox({ workspaceValue: 'off', workspaceFolderValue: 'off' }), { value: 'on', ignored: ['workspace', 'workspaceFolder'] });
    assert.deepEqual(userSandbox({ globalValue: 'nonsense' }), { value: 'on', ignored: [] });
    assert.deepEqual(userSandbox(undefined), { value: 'on', ignored: [] });
  });

  it('the sandbox switch is always sent ("on" unless the user said "off"), with a note when a workspace value was ignored', () => {
    const dflt = effectiveRunSettings(none, null, '/ws');
    assert.deepEqual([dflt.sandbox, dflt.sandboxIgnored], ['on', null]);
    const ignored = effectiveRunSettings({ ...none, sandbox: userSandbox({ workspaceValue: 'off' }) }, null, '/ws');
    assert.equal(ignored.sandbox, 'on');
    assert.match(ignored.sandboxIgnored ?? '', /kite\.sandbox in the workspace settings is ignored: only your user settings can turn the sandbox off/);
    assert.equal(effectiveRunSettings({ ...none, sandbox: userSandbox({ globalValue: 'off' }) }, null, '/ws').sandbox, 'off');
  });

  it('keeps absolute script paths and anthropic specs as they are', () => {
    assert.equal(normalizeModelSpec('script:/abs/s.json', '/ws'), 'script:/abs/s.json');
    assert.equal(normalizeModelSpec('anthropic:claude-opus-5', '/ws'), 'anthropic:claude-opus-5');
  });
});
