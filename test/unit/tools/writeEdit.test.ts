import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../../src/harness/tools/hash';
import { editFileTool } from '../../../src/harness/tools/editFile';
import { isOutcome, previewWrite } from '../../../src/harness/tools/preview';
import { readFileTool } from '../../../src/harness/tools/readFile';
import { writeFileTool } from '../../../src/harness/tools/writeFile';
import { makeWorkspace, type Workspace } from './_workspace';

describe('write_file', () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('creates parent directories and reports the hash of what it wrote', async () => {
    const out = await ws.call('write_file', { path: 'test/deep/fees.test.js', content: 'a\nb\n' });
    assert.equal(out.is_error, false);
    assert.equal(out.output, 'Created test/deep/fees.test.js (2 lines, 4 bytes).');
    assert.equal(out.post_hash, sha256('a\nb\n'));
    assert.equal(out.path, 'test/deep/fees.test.js');
    assert.equal(ws.read('test/deep/fees.test.js'), 'a\nb\n');
  });

  it('replaces an existing file completely', async () => {
    ws.write('a.txt', 'old old old\n');
    const out = await ws.call('write_file', { path: 'a.txt', content: 'new\n' });
    assert.match(out.output, /^Overwrote a.txt/);
    assert.equal(ws.read('a.txt'), 'new\n');
    const same = await ws.call('write_file', { path: 'a.txt', content: 'new\n' });
    assert.equal(same.output, 'Rewrote (content unchanged) a.txt (1 line, 4 bytes).');
  });

  it('refuses to write over a directory or a binary file', async () => {
    ws.write('src/x.js', '');
    assert.equal((await ws.call('write_file', { path: 'src', content: 'x' })).error_code, 'is_directory');
    ws.write('logo.png', Buffer.from([1, 0, 2]));
    const bin = await ws.call('write_file', { path: 'logo.png', content: 'x' });
    assert.equal(bin.error_code, 'binary_file');
    assert.deepEqual([...fs.readFileSync(path.join(ws.root, 'logo.png'))], [1, 0, 2]);
  });

  it('says clearly when a parent of the path is a file', async () => {
    ws.write('README.md', 'x');
    const out = await ws.call('write_file', { path: 'README.md/inner.txt', content: 'y' });
    assert.equal(out.error_code, 'failed');
    assert.match(out.output, /Could not create the folder for "README.md\/inner.txt" \(a parent of it is a file, not a directory\)\. Nothing was written\./);
    assert.equal(ws.read('README.md'), 'x');
  });

  it('names missing arguments by their path', async () => {
    const out = await ws.call('write_file', { path: 'a.txt' });
    assert.equal(out.error_code, 'invalid_args');
    assert.match(out.output, /- content: Invalid input: expected string, received undefined/);
  });
});

describe('edit_file', () => {
  let ws: Workspace;
  const FEES = 'export function addFee(total, rate) {\n  return Math.round(total * rate) / 100;\n}\n\nexport function other() {\n  return Math.round(1);\n}\n';
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write('src/fees.js', FEES);
  });
  afterEach(() => ws.cleanup());

  it('replaces a unique exact match', async () => {
    const out = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'Math.round(total * rate) / 100', new_string: 'Number((total * rate / 100).toFixed(2))' });
    assert.equal(out.is_error, false);
    assert.equal(
      out.output,
      [
        'Edited src/fees.js: replaced 1 occurrence (starting at line 2).',
        'Lines 1–4 now read:',
        '    1\texport function addFee(total, rate) {',
        '    2\t  return Number((total * rate / 100).toFixed(2));',
        '    3\t}',
        '    4\t',
      ].join('\n'),
    );
    const now = ws.read('src/fees.js');
    assert.match(now, /toFixed\(2\)/);
    assert.equal(out.post_hash, sha256(now));
  });

  it('no_match when old_string is absent; the file is untouched and a whitespace near-miss is pointed out', async () => {
    const out = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'return Math.round(total*rate)/100;', new_string: 'x' });
    assert.equal(out.error_code, 'no_match');
    assert.match(out.output, /was not found in "src\/fees.js". The file was not modified/);
    const near = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'return   Math.round(total * rate) / 100;', new_string: 'x' });
    assert.match(near.output, /differs only in whitespace starts at line 2/);
    assert.equal(ws.read('src/fees.js'), FEES);
  });

  it('not_unique names how many matches and their lines, and changes nothing', async () => {
    const out = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'Math.round(', new_string: 'round(' });
    assert.equal(out.error_code, 'not_unique');
    assert.match(out.output, /matches 2 times in "src\/fees.js" \(at lines 2, 6\)\. The file was not modified/);
    assert.equal(ws.read('src/fees.js'), FEES);
  });

  it('replace_all changes every occurrence', async () => {
    const out = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'Math.round(', new_string: 'round(', replace_all: true });
    assert.equal(out.output, 'Edited src/fees.js: replaced 2 occurrences (starting at lines 2, 6).');
    assert.equal(ws.read('src/fees.js'), FEES.replaceAll('Math.round(', 'round('));
  });

  it('rejects identical old and new strings, an empty old_string, and a missing file', async () => {
    const same = await ws.call('edit_file', { path: 'src/fees.js', old_string: 'total', new_string: 'total' });
    assert.equal(same.error_code, 'invalid_args');
    assert.match(same.output, /identical.*was not modified/);
    const empty = await ws.call('edit_file', { path: 'src/fees.js', old_string: '', new_string: 'x' });
    assert.equal(empty.error_code, 'invalid_args');
    assert.match(empty.output, /old_string:/);
    const missing = await ws.call('edit_file', { path: 'src/nope.js', old_string: 'a', new_string: 'b' });
    assert.equal(missing.error_code, 'not_found');
    assert.match(missing.output, /use write_file to create one/);
    assert.equal(fs.existsSync(path.join(ws.root, 'src/nope.js')), false);
  });

  it('matches multi-line text in a CRLF file and keeps its line ends', async () => {
    ws.write('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const out = await ws.call('edit_file', { path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
    assert.equal(out.is_error, false, out.output);
    assert.equal(ws.read('win.txt'), 'uno\r\ndos\r\nthree\r\n');
  });
});

describe('previewWrite', () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('computes the proposed content of an edit without touching disk', () => {
    ws.write('a.txt', 'hello world\n');
    const p = previewWrite(ws.ctx, editFileTool, { path: 'a.txt', old_string: 'world', new_string: 'kite' });
    assert.ok(!isOutcome(p));
    assert.deepEqual({ path: p.path, before: p.before, proposed: p.proposed }, { path: 'a.txt', before: 'hello world\n', proposed: 'hello kite\n' });
    assert.equal(ws.read('a.txt'), 'hello world\n');
  });

  it('gives before=null for a new file and creates nothing', () => {
    const p = previewWrite(ws.ctx, writeFileTool, { path: 'new/dir/b.txt', content: 'x' });
    assert.ok(!isOutcome(p));
    assert.equal(p.before, null);
    assert.equal(p.proposed, 'x');
    assert.equal(fs.existsSync(path.join(ws.root, 'new')), false);
  });

  it('returns the error outcome the tool would give', () => {
    ws.write('a.txt', 'x x\n');
    const p = previewWrite(ws.ctx, editFileTool, { path: 'a.txt', old_string: 'x', new_string: 'y' });
    assert.ok(isOutcome(p) && p.error_code === 'not_unique');
    const q = previewWrite(ws.ctx, writeFileTool, { path: '../evil.txt', content: 'x' });
    assert.ok(isOutcome(q) && q.error_code === 'outside_workspace');
    const r = previewWrite(ws.ctx, readFileTool, { path: 'a.txt' });
    assert.ok(isOutcome(r) && r.error_code === 'invalid_args');
  });
});
