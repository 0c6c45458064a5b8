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

  const configFile = (root: string) => join(root, '.kite', 'config.json');

  it('keeps // and /* */ comments and 4-space indentation, and appends to policy.rules (not to another list)', () => {
    const text = [
      '{',
      '    // the project\'s gate',
      '    "checks": ["npm test"],',
      '    /* policy: keep it tight',
      '       (reviewed by the team) */',
      '    "policy": {',
      '        "rules": [',
      '            { "id": "allow:ls", "decision": "allow", "tool": "run", "command": "ls" } // listing is fine',
      '        ],',
      '        "deny": ["make deploy"] // never from the agent',
      '    }',
      '}',
      '',
    ].join('\n');
    const root = project(text);
    const rule = allowRuleForCommand('npm run build');
    const c = appendPolicyRule(root, rule);
    const expected = [
      '{',
      '    // the project\'s gate',
      '    "checks": ["npm test"],',
      '    /* policy: keep it tight',
      '       (reviewed by the team) */',
      '    "policy": {',
      '        "rules": [',
      '            { "id": "allow:ls", "decision": "allow", "tool": "run", "command": "ls" }, // listing is fine',
      '            {',
      `                "id": "${rule.id}",`,
      '                "decision": "allow",',
      '                "tool": "run",',
      '                "command": "npm run build"',
      '            }',
      '        ],',
      '        "deny": ["make deploy"] // never from the agent',
      '    }',
      '}',
      '',
    ].join('\n');
    assert.equal(readFileSync(configFile(root), 'utf8'), expected);
    assert.deepEqual(c.policy?.rules.map((r) => r.id), ['allow:ls', rule.id]);
    assert.deepEqual(c.policy?.deny, ['make deploy']);
    appendPolicyRule(root, rule); // idempotent: the file is not touched again
    assert.equal(readFileSync(configFile(root), 'utf8'), expected);
  });

  it('a config without a policy section gets one, in the file\'s own tabs and CRLF line ends, comments kept', () => {
    const root = project('{\r\n\t// gate\r\n\t"checks": ["npm test"] /* fast */\r\n}\r\n');
    const rule = allowRuleForCommand('ls');
    const c = appendPolicyRule(root, rule);
    assert.equal(
      readFileSync(configFile(root), 'utf8'),
      `{\r\n\t// gate\r\n\t"checks": ["npm test"], /* fast */\r\n\t"policy": {\r\n\t\t"rules": [\r\n\t\t\t{\r\n\t\t\t\t"id": "${rule.id}",\r\n\t\t\t\t"decision": "allow",\r\n\t\t\t\t"tool": "run",\r\n\t\t\t\t"command": "ls"\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n`,
    );
    assert.deepEqual(c.checks, ['npm test']);
    assert.deepEqual(c.policy?.rules, [rule]);
  });

  it('a policy section without rules gets the list, after its other keys', () => {
    const root = project('{\n  "policy": {\n    "deny": ["make deploy"] // prod\n  }\n}\n');
    const rule = allowRuleForCommand('ls');
    appendPolicyRule(root, rule);
    assert.equal(
      readFileSync(configFile(root), 'utf8'),
      `{\n  "policy": {\n    "deny": ["make deploy"], // prod\n    "rules": [\n      {\n        "id": "${rule.id}",\n        "decision": "allow",\n        "tool": "run",\n        "command": "ls"\n      }\n    ]\n  }\n}\n`,
    );
  });

  it('a result Kite would refuse to load is not written: the error names the file and the problem', () => {
    const text = '{\n  // typo below\n  "modle": "anthropic:x"\n}\n';
    const root = project(text);
    assert.throws(
      () => appendPolicyRule(root, allowRuleForCommand('ls')),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.code === 'invalid_config' &&
        e.message.startsWith(`${configFile(root)}:3:3: $: unknown key "modle"`) &&
        e.message.endsWith('; the rule was not saved'),
    );
    assert.equal(readFileSync(configFile(root), 'utf8'), text);
    const rulesNotAList = project('{ "policy": { "rules": "none" } }');
    assert.throws(() => appendPolicyRule(rulesNotAList, allowRuleForCommand('ls')), /config\.json:\d+:\d+: \$\.policy\.rules: .*expected array.*; the rule was not saved$/);
    assert.equal(readFileSync(configFile(rulesNotAList), 'utf8'), '{ "policy": { "rules": "none" } }');
    // A valid file, and a rule that would make it invalid: checked on the result, nothing written.
    const valid = '{\n  "checks": ["npm test"] // gate\n}\n';
    const fine = project(valid);
    assert.throws(
      () => appendPolicyRule(fine, { id: 'allow:bad', decision: 'allow', tool: 'run', command_pattern: '(unclosed' }),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${configFile(fine)}:9:28: $.policy.rules[0].command_pattern: not a valid regular expression`) && e.message.endsWith('; the rule was not saved'),
    );
    assert.equal(readFileSync(configFile(fine), 'utf8'), valid);
  });
});
