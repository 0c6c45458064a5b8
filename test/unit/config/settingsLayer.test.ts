import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kiteSettingsOf, mergedLevels, userSandbox } from '../../../src/harness/config/settingScopes';
import { effectiveRunSettings, layerSettings, modelSpecFor, readConfigView, type KiteSettings } from '../../../src/harness/config/settingsLayer';
import { RUN_SETTING_KEYS } from '../../../src/harness/protocol/rpc';
import { tempDir } from '../loop/kit';

const none: KiteSettings = { model: '', budget: { turns: null, tokens: null, usd: null, wallSeconds: null } };

describe('config/settingsLayer precedence (kite.* settings over .kite/config.json)', () => {
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
    assert.deepEqual(e.limitSources, { turns: 'config', tokens: 'setting', usd: 'config', wall_s: 'default', observation_tokens: 'default' });
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
    assert.equal(modelSpecFor('script:/abs/s.json', '/ws'), 'script:/abs/s.json');
    assert.equal(modelSpecFor('anthropic:claude-opus-5', '/ws'), 'anthropic:claude-opus-5');
  });

  it('raw settings: allowCommands and sandbox count from the user scope only, denyCommands from every scope, the rest from the most specific one', () => {
    const s = kiteSettingsOf({
      model: { globalValue: 'anthropic:user-model', workspaceValue: 'script:ws.json' },
      'budget.turns': { globalValue: 10, workspaceFolderValue: 4 },
      'budget.usd': { globalValue: 'two dollars' },
      maxGateFailures: { workspaceValue: 2 },
      'policy.denyCommands': { globalValue: ['npm publish'], workspaceValue: [] },
      'policy.allowCommands': { workspaceValue: ['.*'], workspaceFolderValue: ['rm -rf .*'] },
      sandbox: { workspaceValue: 'off' },
    });
    assert.equal(s.model, 'script:ws.json');
    assert.deepEqual(s.budget, { turns: 4, tokens: null, usd: null, wallSeconds: null, observationTokens: null });
    assert.equal(s.maxGateFailures, 2);
    assert.deepEqual(s.policy, { denyCommands: ['npm publish'], allowCommands: [] }); // a workspace cannot allow anything
    assert.deepEqual(s.sandbox, { value: 'on', ignored: ['workspace'] });
    assert.deepEqual(kiteSettingsOf({ 'policy.allowCommands': { globalValue: ['npm test', 3] } }).policy?.allowCommands, []);
    assert.deepEqual(kiteSettingsOf({}), { model: '', budget: { turns: null, tokens: null, usd: null, wallSeconds: null, observationTokens: null }, maxGateFailures: null, policy: { denyCommands: [], allowCommands: [] }, sandbox: { value: 'on', ignored: [] } });
  });

  it('layerSettings: the config (comments allowed) wins where the table says so; the result is the run\'s overrides, summary and warnings', () => {
    const root = tempDir();
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), '{\n  // shared with CI\n  "budget": { "turns": 30 },\n  /* the project decides */\n  "max_gate_failures": 2,\n  "sandbox": "off"\n}\n');
    const l = layerSettings(
      {
        model: { globalValue: 'script:scripts/demo.json' },
        'budget.turns': { globalValue: 5 },
        'budget.tokens': { globalValue: 5000 },
        maxGateFailures: { globalValue: 7 },
        'policy.denyCommands': { workspaceValue: ['npm publish'] },
        sandbox: { workspaceFolderValue: 'off' },
      },
      root,
    );
    assert.equal(l.model, `script:${join(root, 'scripts', 'demo.json')}`);
    assert.deepEqual(l.limits, { tokens: 5000 });
    assert.deepEqual(l.limitSources, { turns: 'config', tokens: 'setting', usd: 'default', wall_s: 'default', observation_tokens: 'default' });
    // The config's max_gate_failures stands; the user's sandbox switch replaces the file's "off".
    assert.deepEqual(l.overrides, { policy: { deny: ['npm publish'], allow_attended: [] }, sandbox: 'on' });
    assert.equal(l.summary, `${l.model} (model from setting; limits {"tokens":5000}; max gate failures from config; settings add 1 deny and 0 allow pattern(s); sandbox on)`);
    assert.equal(l.warnings.length, 1);
    assert.match(l.warnings[0]!, /kite\.sandbox in the folder settings is ignored/);
    assert.deepEqual(layerSettings({ sandbox: { globalValue: 'off' } }, root).warnings, ['kite.sandbox is "off" in your user settings: commands run WITHOUT a sandbox']);
  });

  it('a missing or broken config file competes with nothing (the run itself reports a broken one)', () => {
    const root = tempDir();
    assert.equal(readConfigView(root), null);
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), '{ "budget": { "turns": 30 }, }');
    assert.equal(readConfigView(root), null);
    writeFileSync(join(root, '.kite', 'config.json'), '{ "model": "claude-haiku-4-5", "checks": ["npm test"] }');
    assert.deepEqual(readConfigView(root), { model: 'claude-haiku-4-5', checks: ['npm test'] });
    assert.equal(layerSettings({}, root).model, 'anthropic:claude-haiku-4-5');
  });

  it('every setting the extension reads for a run is one package.json declares (a typo would read nothing)', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, unknown> } } };
    const declared = Object.keys(manifest.contributes.configuration.properties);
    assert.deepEqual(RUN_SETTING_KEYS.filter((k) => !declared.includes(`kite.${k}`)), []);
  });
});
