import assert from 'node:assert/strict';
import { computeHunks, hunkKey, revertHunk, splitLines, verdictFor } from '../../../src/harness/protocol/hunks';

describe('protocol/hunks', () => {
  const original = 'a\nb\nc\nd\ne\nf\n';
  const proposal = 'a\nB\nc\nd\ne\nF\nG\n';

  it('splits lines keeping terminators and a last line without newline', () => {
    assert.deepEqual(splitLines('x\r\ny\nz'), ['x\r\n', 'y\n', 'z']);
    assert.deepEqual(splitLines(''), []);
  });

  it('finds one hunk per changed region', () => {
    const hunks = computeHunks(original, proposal);
    assert.equal(hunks.length, 2);
    assert.deepEqual(hunks[0], { oldStart: 1, oldLines: ['b\n'], newStart: 1, newLines: ['B\n'] });
    assert.deepEqual(hunks[1], { oldStart: 5, oldLines: ['f\n'], newStart: 5, newLines: ['F\n', 'G\n'] });
  });

  it('reverting one hunk of two keeps the other exactly (partial accept)', () => {
    const [, second] = computeHunks(original, proposal);
    const kept = revertHunk(proposal, second!);
    assert.equal(kept, 'a\nB\nc\nd\ne\nf\n');
    assert.equal(computeHunks(original, kept).length, 1);
  });

  it('reverting every hunk restores the original bytes, CRLF and missing final newline included', () => {
    const orig = 'one\r\ntwo\r\nthree';
    let cur = 'one\r\nTWO\r\nthree\r\nfour';
    for (let h = computeHunks(orig, cur)[0]; h; h = computeHunks(orig, cur)[0]) cur = revertHunk(cur, h);
    assert.equal(cur, orig);
  });

  it('handles pure insertions and deletions, and a file that does not exist yet', () => {
    const ins = computeHunks('a\nc\n', 'a\nb\nc\n');
    assert.deepEqual(ins, [{ oldStart: 1, oldLines: [], newStart: 1, newLines: ['b\n'] }]);
    const del = computeHunks('a\nb\nc\n', 'a\nc\n');
    assert.deepEqual(del, [{ oldStart: 1, oldLines: ['b\n'], newStart: 1, newLines: [] }]);
    assert.equal(revertHunk('a\nc\n', del[0]!), 'a\nb\nc\n');
    assert.equal(computeHunks('', 'new\n').length, 1);
  });

  it('a hunk key is stable when an unrelated hunk is reverted', () => {
    const [first, second] = computeHunks(original, proposal);
    const after = computeHunks(original, revertHunk(proposal, second!));
    assert.equal(hunkKey(after[0]!), hunkKey(first!));
    assert.notEqual(hunkKey(first!), hunkKey(second!));
  });

  it('says what the kept text means: approve, edit, or unchanged', () => {
    assert.deepEqual(verdictFor('x\n', 'y\n', 'y\n'), { decision: 'approve' });
    assert.deepEqual(verdictFor('x\n', 'y\n', 'x\n'), { decision: 'unchanged' });
    assert.deepEqual(verdictFor('x\n', 'y\n', 'z\n'), { decision: 'edit', content: 'z\n' });
    assert.deepEqual(verdictFor(null, 'y\n', ''), { decision: 'unchanged' });
  });
});
