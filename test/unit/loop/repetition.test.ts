import assert from 'node:assert/strict';
import { countRepeat, repetitionKey } from '../../../src/harness/loop/repetition';

describe('repetition key', () => {
  it('ignores object key order but not values or the tool name', () => {
    assert.equal(repetitionKey('edit_file', { path: 'a', old_string: 'x', new_string: 'y' }), repetitionKey('edit_file', { new_string: 'y', path: 'a', old_string: 'x' }));
    assert.notEqual(repetitionKey('edit_file', { path: 'a' }), repetitionKey('edit_file', { path: 'b' }));
    assert.notEqual(repetitionKey('read_file', { path: 'a' }), repetitionKey('write_file', { path: 'a' }));
    assert.notEqual(repetitionKey('run', { command: 'ls', n: [1, 2] }), repetitionKey('run', { command: 'ls', n: [2, 1] }));
  });

  it('counts per key', () => {
    const m = new Map<string, number>();
    assert.equal(countRepeat(m, 'a'), 1);
    assert.equal(countRepeat(m, 'a'), 2);
    assert.equal(countRepeat(m, 'b'), 1);
  });
});
