import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, DEFAULTS, loadConfig, parseConfig } from '../../../src/harness/config/config';
import { tempDir } from '../loop/kit';

function fails(text: string): ConfigError {
  try {
    parseConfig(text, '.kite/config.json');
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    return e;
  }
  assert.fail('expected a ConfigError');
}

describe('config (.kite/config.json)', () => {
  it('a missing file means every default', () => {
    const c = loadConfig(tempDir());
    assert.equal(c.model, null);
    assert.equal(c.max_tokens, DEFAULTS.max_tokens);
    assert.deepEqual(c.checks, []);
    assert.equal(c.max_gate_failures, 3);
    assert.equal(c.log_dir, join('.kite', 'runs'));
    assert.deepEqual(c.budget, { turns: 50, tokens: 2_000_000, usd: 5, wall_s: 1800 });
  });

  it('every key is optional; given keys override defaults, budget keys one by one', () => {
    const c = parseConfig(JSON.stringify({ checks: ['npm test'], budget: { turns: 7 }, command_timeout: 30, prices: { 'my-model': { input: 1, output: 2 } } }));
    assert.deepEqual(c.checks, ['npm test']);
    assert.equal(c.budget.turns, 7);
    assert.equal(c.budget.usd, 5);
    assert.equal(c.command_timeout, 30);
    assert.deepEqual(c.prices['my-model'], { input: 1, output: 2 });
  });

  it('errors name the file and the JSON path of each problem', () => {
    // file:line:column of the bad value (a terminal link), then the JSON path
    assert.equal(fails('{\n  "budget": {"turns": "ten"}}').message.startsWith('.kite/config.json:2:23: $.budget.turns:'), true);
    assert.match(fails('{"checks": ["npm test", 3]}').message, /\$\.checks\[1\]/);
    assert.match(fails('{"max_gate_failures": 0}').message, /\$\.max_gate_failures/);
    assert.match(fails('{"chekcs": []}').message, /chekcs/); // a typo is not silently ignored
    assert.match(fails('{"policy": {"deny": ["(unclosed"]}}').message, /\$\.policy\.deny\[0\]: not a valid regular expression/);
    const bad = fails('{"checks": [');
    assert.equal(bad.code, 'invalid_json');
    assert.match(bad.message, /^\.kite\/config\.json:1:13: not valid JSON: the file ends inside an array/);
  });

  it('a typo in a top-level key is named with the likely key; an unknown key lists the known ones', () => {
    assert.match(fails('{"chekcs": []}').message, /\$: unknown key "chekcs" \(did you mean "checks"\?\)/);
    assert.match(fails('{"frob": 1}').message, /unknown key "frob" \(known keys: .*checks.*budget/);
  });

  it('a missing or wrong value says so and shows what was found', () => {
    assert.match(fails('{"policy": {"rules": [{"tool": "run"}]}}').message, /\$\.policy\.rules\[0\]\.decision: missing \(expected one of/);
    assert.match(fails('{"policy": {"rules": [{"decision": "maybe"}]}}').message, /decision: expected one of .*, got "maybe"/);
  });

  it('invalid JSON is reported with line and column and what is wrong', () => {
    const e = fails('{\n  "checks": ["npm test"],\n  "model": "x",\n}\n');
    assert.equal(e.code, 'invalid_json');
    assert.equal(e.message, '.kite/config.json:4:1: not valid JSON: trailing comma before }');
    assert.match(fails('{"checks": ["npm test"]\n"model": "x"}').message, /:2:1: not valid JSON: unexpected '"': expected ',' or '}' after a property value/);
  });

  it('// and /* */ comments are allowed; a problem after them keeps its line and column', () => {
    const c = parseConfig('{\n  // the gate\n  "checks": ["npm test"], /* fast */\n  "max_gate_failures": 2 // CI too\n}\n');
    assert.deepEqual([c.checks, c.max_gate_failures], [['npm test'], 2]);
    assert.equal(fails('{\n  /* a\n     b */ "checks": ["npm test"],\n}').message, '.kite/config.json:4:1: not valid JSON: trailing comma before }');
  });

  it('loadConfig reads <root>/.kite/config.json', () => {
    const root = tempDir();
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), '{"model": "claude-haiku-4-5", "log_dir": "logs"}');
    const c = loadConfig(root);
    assert.equal(c.model, 'claude-haiku-4-5');
    assert.equal(c.log_dir, 'logs');
  });
});

describe('config schema problems say where they are', () => {
  it('an unknown key points at the key; a missing field at its object; comments do not shift the position', () => {
    const at = (text: string) => {
      try {
        parseConfig(text, 'c.json');
      } catch (e) {
        return (e as Error).message.match(/^c\.json:(\d+):(\d+): /)?.slice(1, 3).join(':');
      }
      return 'parsed';
    };
    assert.equal(at('{\n  // budget below\n  "budgte": {}\n}'), '3:3');
    assert.equal(at('{\n  "checks": [\n    {"name": "t"}\n  ]\n}'), '3:5');
  });
});
