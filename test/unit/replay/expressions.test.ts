// The watch/condition language: what it accepts, what it computes, and that it cannot reach
// anything but the data it is given.
import assert from 'node:assert/strict';
import { ExpressionError, evaluate, parseExpression, parseTemplate, renderTemplate } from '../../../src/harness/replay/expressions';

const scope = {
  tokens: 120_000,
  cost: 0.42,
  turn: 7,
  kind: 'tool',
  tool: () => ({ name: 'run', args: { command: 'npm test' }, is_error: false }),
  gate: { passed: false, checks: [{ command: 'npm test', exit_code: 1 }] },
  files: { 'src/a b.ts': 'x' },
  list: ['a', 'b'],
};
const ev = (src: string) => evaluate(parseExpression(src), scope);

describe('replay expressions', () => {
  it('compares numbers, strings and booleans', () => {
    assert.equal(ev('tokens > 100000'), true);
    assert.equal(ev('tokens <= 100000'), false);
    assert.equal(ev('tool.name == "run"'), true);
    assert.equal(ev("tool.name != 'run'"), false);
    assert.equal(ev('gate.passed == false'), true);
    assert.equal(ev('cost >= 0.42 && turn < 8'), true);
    assert.equal(ev('-1 < 0'), true);
  });

  it('paths: fields, indexes, quoted keys, length; missing fields are undefined, not errors', () => {
    assert.equal(ev('gate.checks[0].exit_code'), 1);
    assert.equal(ev('files["src/a b.ts"]'), 'x');
    assert.equal(ev('list.length'), 2);
    assert.equal(ev('tool.args.nothing.deeper'), undefined);
    assert.equal(ev('tool.args.nothing == null'), true);
    assert.equal(ev('tool.args.nothing > 3'), false);
  });

  it('boolean logic with precedence, negation and parentheses; contains on strings and arrays', () => {
    assert.equal(ev('!gate.passed && (tokens > 1 || cost > 100)'), true);
    assert.equal(ev('false || true && false'), false);
    assert.equal(ev('tool.args.command contains "test"'), true);
    assert.equal(ev('list contains "b"'), true);
    assert.equal(ev('list contains "z"'), false);
  });

  it('rejects unknown names and bad syntax with the column', () => {
    assert.throws(() => parseExpression('process.exit(1)', ['tokens', 'tool']), (e: ExpressionError) => e.code === 'unknown_identifier' && e.column === 1);
    assert.throws(() => parseExpression('tokens > '), (e: ExpressionError) => e.code === 'syntax' && /end of expression/.test(e.message));
    assert.throws(() => parseExpression('tool.name = "x"'), (e: ExpressionError) => e.code === 'syntax' && e.column === 11);
    assert.throws(() => parseExpression('"open'), /unterminated string/);
    assert.throws(() => parseExpression('a(1)'), /unexpected '\('/);
  });

  it('cannot reach prototypes or constructors', () => {
    assert.equal(ev('tool.constructor'), undefined);
    assert.equal(ev('tool.__proto__'), undefined);
    assert.equal(ev('list.map'), undefined);
  });

  it('logpoint templates interpolate {expr} and keep {{literal}} braces', () => {
    const t = parseTemplate('{tool.name} used {tokens} tokens {{ok}} gate={gate.passed}');
    assert.equal(renderTemplate(t, scope), 'run used 120000 tokens {ok} gate=false');
    assert.throws(() => parseTemplate('oops {tokens'), /unclosed/);
  });
});
