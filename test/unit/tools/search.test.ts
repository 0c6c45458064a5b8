import { strict as assert } from 'node:assert';
import { SEARCH_LIMITS } from '../../../src/harness/tools/search';
import { makeWorkspace, type Workspace } from './_workspace';

describe('search', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write('.gitignore', 'dist/\n');
    ws.write('src/fees.js', 'export function addFee(total, rate) {\n  return Math.round(total * rate) / 100;\n}\n');
    ws.write('test/fees.test.js', "import { addFee } from '../src/fees.js';\naddFee(133.75, 2);\n");
    ws.write('dist/bundle.js', 'function addFee(){}\n');
    ws.write('bin/tool', Buffer.concat([Buffer.from('addFee'), Buffer.from([0, 1, 2])]));
  });
  afterEach(() => ws.cleanup());

  it('returns "path:line: text" for each match, skipping ignored and binary files', async () => {
    const out = await ws.call('search', { pattern: 'addFee\\(' });
    assert.equal(out.is_error, false);
    assert.deepEqual(out.output.split('\n'), ['src/fees.js:1: export function addFee(total, rate) {', 'test/fees.test.js:2: addFee(133.75, 2);']);
  });

  it('limits by path, glob and case', async () => {
    assert.equal((await ws.call('search', { pattern: 'addfee', path: 'src', ignore_case: true })).output, 'src/fees.js:1: export function addFee(total, rate) {');
    assert.equal((await ws.call('search', { pattern: 'addFee', glob: '*.test.js' })).output.split('\n').length, 2);
    assert.equal((await ws.call('search', { pattern: 'Math', path: 'src/fees.js' })).output, 'src/fees.js:2:   return Math.round(total * rate) / 100;');
  });

  it('shows context lines around matches, merging overlaps and separating groups with --', async () => {
    ws.write('ctx.txt', ['a', 'hit 1', 'b', 'c', 'd', 'e', 'hit 2', 'hit 3', 'f'].join('\n'));
    const out = await ws.call('search', { pattern: '^hit', path: 'ctx.txt', context: 1 });
    assert.equal(out.output, ['ctx.txt-1- a', 'ctx.txt:2: hit 1', 'ctx.txt-3- b', '--', 'ctx.txt-6- e', 'ctx.txt:7: hit 2', 'ctx.txt:8: hit 3', 'ctx.txt-9- f'].join('\n'));
    const two = await ws.call('search', { pattern: 'addFee\\(', context: 1 });
    assert.equal(two.output.split('\n').filter((l) => l === '--').length, 1, two.output);
    assert.equal((await ws.call('search', { pattern: 'x', context: 11 })).error_code, 'invalid_args');
  });

  it('gives bad_regex with the engine message for an invalid pattern', async () => {
    const out = await ws.call('search', { pattern: 'addFee(' });
    assert.equal(out.error_code, 'bad_regex');
    assert.match(out.output, /Unterminated group/);
    assert.match(out.output, /Nothing was searched/);
  });

  it('says so when nothing matches (not an error)', async () => {
    const out = await ws.call('search', { pattern: 'subtractFee' });
    assert.equal(out.is_error, false);
    assert.match(out.output, /^No matches for \/subtractFee\/ in 3 files\.$/);
  });

  it('caps results and counts what was not shown', async () => {
    ws.write('many.txt', Array.from({ length: SEARCH_LIMITS.maxMatches + 40 }, () => 'hit').join('\n'));
    const out = await ws.call('search', { pattern: '^hit$' });
    const lines = out.output.split('\n');
    assert.equal(lines.length, SEARCH_LIMITS.maxMatches + 1);
    assert.equal(lines[lines.length - 1], `[… 40 more matches not shown (${SEARCH_LIMITS.maxMatches + 40} in 1 file). Narrow the pattern, path or glob.]`);
  });

  it('stops at its time budget and says the results are incomplete', async () => {
    const saved = SEARCH_LIMITS.maxMs;
    SEARCH_LIMITS.maxMs = -1; // already over budget at the first file
    try {
      const out = await ws.call('search', { pattern: 'addFee' });
      assert.match(out.output, /search stopped after .* s; results are incomplete/);
    } finally {
      SEARCH_LIMITS.maxMs = saved;
    }
  });
});
