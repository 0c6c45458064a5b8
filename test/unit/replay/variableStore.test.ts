// Variables for DAP: evaluateNames that parse back to the same path, paging of long arrays,
// lazy values computed only on expansion.
import assert from 'node:assert/strict';
import { evaluate, parseExpression } from '../../../src/harness/replay/expressions';
import { VariableStore, evaluateNameOf } from '../../../src/harness/replay/variableStore';

describe('replay variable store', () => {
  it('evaluateNames round-trip through the expression language, quoting odd keys', () => {
    const scope = { files: { 'src/a b.ts': 'A', contains: 'C' }, tool: { args: [{ x: 1 }] } };
    for (const [root, steps, want] of [
      ['files', ['src/a b.ts'], 'A'],
      ['files', ['contains'], 'C'],
      ['tool', ['args', 0, 'x'], 1],
    ] as const) {
      const name = evaluateNameOf({ root, steps: [...steps] });
      assert.equal(evaluate(parseExpression(name), scope), want, name);
    }
    assert.equal(evaluateNameOf({ root: 'files', steps: ['src/a b.ts'] }), 'files["src/a b.ts"]');
  });

  it('pages long arrays and reports their size', () => {
    const vars = new VariableStore();
    const v = vars.variable('messages', Array.from({ length: 250 }, (_, i) => ({ i })), { root: 'messages', steps: [] });
    assert.equal(v.indexedVariables, 250);
    const page = vars.children(v.variablesReference, { start: 200, count: 20 });
    assert.deepEqual(page.map((p) => p.name), Array.from({ length: 20 }, (_, k) => String(200 + k)));
    assert.equal(page[0].evaluateName, 'messages[200]');
  });

  it('computes lazy values only when expanded, once per stop', () => {
    const vars = new VariableStore();
    let computed = 0;
    const ref = vars.deferredRef(() => {
      computed++;
      return { a: 1 };
    }, { root: 'x', steps: [] });
    assert.equal(computed, 0);
    assert.deepEqual(vars.children(ref).map((c) => [c.name, c.value]), [['a', '1']]);
    vars.children(ref);
    assert.equal(computed, 1);
    vars.reset();
    assert.deepEqual(vars.children(ref), [], 'references die with the stop');
  });
});
