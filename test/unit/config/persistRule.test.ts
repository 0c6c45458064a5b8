import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../../src/harness/config/config';
import { appendPolicyRule } from '../../../src/harness/config/persistRule';
import { allowRuleForCommand } from '../../../src/harness/policy/policy';
import { tempDir } from '../loop/kit';

function project(configText?: string): string {
  const root = tempDir();
  if (configText !== undefined) {
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), configText);
  }
  return root;
}

describe('"always allow" saved to .kite/config.json', () => {
  it('appends the rule, keeps every other key, and is idempotent', () => {
    const root = project('{"checks": ["npm test"], "policy": {"deny": ["make deploy"]}, "model": "anthropic:x"}');
    const rule = allowRuleForCommand('npm run build');
    appendPolicyRule(root, rule);
    const c = appendPolicyRule(root, rule);
    const saved = JSON.parse(readFileSync(join(root, '.kite', 'config.json'), 'utf8')) as Record<string, unknown> & { policy: { rules: unknown[]; deny: string[] } };
    assert.deepEqual(saved.checks, ['npm test']);
    assert.equal(saved.model, 'anthropic:x');
    assert.deepEqual(saved.policy.deny, ['make deploy']);
    assert.deepEqual(saved.policy.rules, [rule]);
    assert.equal(c.policy?.rules.length, 1);
  });

  it('creates the file when there is none', () => {
    const root = project();
    appendPolicyRule(root, allowRuleForCommand('ls'));
    assert.match(readFileSync(join(root, '.kite', 'config.json'), 'utf8'), /"command": "ls"/);
  });

  it('a config the person broke is never overwritten: the error says where, the text stays as it was', () => {
    const text = '{\n  "checks": ["npm test"],\n}\n';
    const root = project(text);
    assert.throws(
      () => appendPolicyRule(root, allowRuleForCommand('ls')),
      (e: unknown) => e instanceof ConfigError && e.code === 'invalid_json' && /config\.json:3:1: not valid JSON: trailing comma before \}; the rule was not saved$/.test(e.message),
    );
    assert.equal(readFileSync(join(root, '.kite', 'config.json'), 'utf8'), text);
    const arr = project('[]');
    assert.throws(() => appendPolicyRule(arr, allowRuleForCommand('ls')), /\$: expected an object; the rule was not saved/);
    assert.equal(readFileSync(join(arr, '.kite', 'config.json'), 'utf8'), '[]');
  });
});
