// LivePolicy is the only place "Always allow" changes a run's policy: it saves the rule to
// .kite/config.json and rebuilds the policy from the saved file. These tests show that a later
// identical request in the same run is then allowed by that policy (no side list of allowed
// commands exists anywhere else), and that a rule that cannot be saved changes nothing.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { LivePolicy } from '../../../src/harness/policy/livePolicy';
import { allowRuleForCommand } from '../../../src/harness/policy/policy';
import type { PolicyCall, PolicyContext } from '../../../src/harness/policy/types';
import { MemorySink, tempDir } from '../loop/kit';

const ctx: PolicyContext = { mode: 'attended', checks: [], verify: null, featureTools: null };
const command = (cmd: string): PolicyCall => ({ name: 'run', args: { command: cmd }, effect: 'exec', path: null, command: cmd });
const read = (path: string): PolicyCall => ({ name: 'read_file', args: { path }, effect: 'none', path, command: null });

function workspace(configText: string): string {
  const root = tempDir();
  mkdirSync(join(root, '.kite'));
  writeFileSync(join(root, '.kite', 'config.json'), configText);
  return root;
}

describe('policy: LivePolicy ("Always allow" saves, then the reloaded policy decides)', () => {
  it('a later identical command in the same run is allowed by the rule just saved; other commands still ask', () => {
    const root = workspace('{\n    // the gate\n    "checks": ["npm test"]\n}\n');
    const sink = new MemorySink();
    const live = new LivePolicy(root, loadConfig(root), sink);
    assert.equal(live.decide(command('npm run build'), ctx).rule, 'ask:commands');
    live.always(command('npm run build'));
    const rule = allowRuleForCommand('npm run build');
    const again = live.decide(command('npm run build'), ctx);
    assert.deepEqual([again.decision, again.rule], ['allow', rule.id]);
    assert.equal(live.decide(command('  npm run build '), ctx).rule, rule.id, 'compared after trimming');
    assert.equal(live.decide(command('npm run deploy'), ctx).rule, 'ask:commands');
    assert.match(readFileSync(join(root, '.kite', 'config.json'), 'utf8'), /^\{\n {4}\/\/ the gate\n {4}"checks": \["npm test"\],\n {4}"policy": \{/);
    assert.deepEqual(sink.events, []);
  });

  it('"always" on a secret-file read allows that path from then on, and only that path', () => {
    const root = workspace('{}');
    const live = new LivePolicy(root, loadConfig(root), new MemorySink());
    assert.equal(live.decide(read('.env'), ctx).rule, 'ask:secret-file');
    live.always(read('.env'));
    assert.equal(live.decide(read('.env'), ctx).decision, 'allow');
    assert.equal(live.decide(read('.env.production'), ctx).rule, 'ask:secret-file');
  });

  it('a rule that cannot be saved leaves the policy as it was and says so in the run log', () => {
    const root = workspace('{ "checks": [] }');
    const sink = new MemorySink();
    const live = new LivePolicy(root, loadConfig(root), sink);
    writeFileSync(join(root, '.kite', 'config.json'), '{ "checks": [], }'); // broken while the run was going
    live.always(command('npm run build'));
    assert.equal(live.decide(command('npm run build'), ctx).rule, 'ask:commands');
    assert.equal(readFileSync(join(root, '.kite', 'config.json'), 'utf8'), '{ "checks": [], }');
    assert.deepEqual(
      sink.events.map((e) => [e.kind, e.kind === 'warning' ? e.code : null]),
      [['warning', 'policy_not_saved']],
    );
    const warning = sink.events[0];
    assert.match(warning?.kind === 'warning' ? warning.message : '', /config\.json:1:17: not valid JSON: trailing comma before \}; the rule was not saved/);
  });
});
