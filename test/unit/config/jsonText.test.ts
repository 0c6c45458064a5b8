import assert from 'node:assert/strict';
import { findJsonProblem, lineColumn, parseJsonText } from '../../../src/harness/config/jsonText';

const at = (text: string) => {
  const p = findJsonProblem(text);
  assert.ok(p, `expected a problem in ${JSON.stringify(text)}`);
  return `${p.line}:${p.column} ${p.message}`;
};

describe('JSON problems for hand-edited files', () => {
  it('valid JSON parses and has no problem (the scanner agrees with JSON.parse)', () => {
    for (const t of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\"\\u00e9\\n"]} \n', '"s"', '0', '{"a":{"b":[{}]}}']) {
      assert.equal(findJsonProblem(t), null, t);
      const r = parseJsonText(t);
      assert.ok(r.ok && JSON.stringify(r.value) === JSON.stringify(JSON.parse(t)));
    }
  });

  it('names the usual slips with line and column', () => {
    assert.equal(at('{\n  "a": 1,\n}'), '3:1 trailing comma before }');
    assert.equal(at('[1, 2, ]'), '1:8 trailing comma before ]');
    assert.equal(at('{a: 1}'), "1:2 unexpected 'a': property names need double quotes");
    assert.equal(at("{\"a\": 'x'}"), '1:7 strings need double quotes, not single quotes');
    assert.equal(at('{"a": 1 "b": 2}'), "1:9 unexpected '\"': expected ',' or '}' after a property value");
    assert.equal(at('{"a" 1}'), "1:6 unexpected '1': expected ':' after the property name");
    assert.equal(at('{"a": tru}'), "1:7 unexpected 't': expected a value (a string in double quotes, a number, true, false, null, [ or {)");
    assert.equal(at('{"a": [1, 2'), '1:12 the file ends inside an array (missing ])');
    assert.equal(at('{"a": "x\n"}'), '1:9 a string must end on the line it starts (missing closing quote?)');
    assert.equal(at('{} {}'), "1:4 unexpected '{' after the end of the JSON value");
    assert.equal(at('  \n '), '1:1 the file is empty');
    assert.equal(at('\ufeff{}'), '1:1 the file starts with a byte order mark; save it as UTF-8 without BOM');
  });

  it('every input JSON.parse refuses gets a problem', () => {
    for (const t of ['{', '}', '[', ']', '{"a"', '{"a":', '{"a":1,', '"\\x"', '01', '-', '1.', 'nul', '{"a":1}}']) {
      assert.throws(() => JSON.parse(t));
      const r = parseJsonText(t);
      assert.equal(r.ok, false, t);
    }
  });

  it('line and column are 1-based', () => {
    assert.deepEqual(lineColumn('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
  });
});
