import { strict as assert } from 'node:assert';
import { READ_LIMITS } from '../../../src/harness/tools/readFile';
import { makeWorkspace, type Workspace } from './_workspace';

describe('read_file', () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('shows numbered lines, right-aligned, with a tab', async () => {
    ws.write('src/ledger.js', 'const a = 1;\n\nexport { a };\n');
    const out = await ws.call('read_file', { path: 'src/ledger.js' });
    assert.equal(out.is_error, false);
    assert.equal(out.output, '    1\tconst a = 1;\n    2\t\n    3\texport { a };');
    assert.equal(out.path, 'src/ledger.js');
  });

  it('shows a 1-based inclusive line range and says which part it is', async () => {
    ws.write('f.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const out = await ws.call('read_file', { path: 'f.txt', start_line: 3, end_line: 5 });
    assert.equal(out.output, '    3\tline 3\n    4\tline 4\n    5\tline 5\n[showing lines 3–5 of 10]');
    const tail = await ws.call('read_file', { path: 'f.txt', start_line: 9, end_line: 50 });
    assert.match(tail.output, /^ {4}9\tline 9\n {3}10\tline 10\n\[showing lines 9–10 of 10\]$/);
  });

  it('rejects start_line after end_line and start_line past the end', async () => {
    ws.write('f.txt', 'a\nb\n');
    const bad = await ws.call('read_file', { path: 'f.txt', start_line: 5, end_line: 2 });
    assert.equal(bad.error_code, 'invalid_args');
    assert.match(bad.output, /end_line: start_line must not be greater than end_line/);
    const past = await ws.call('read_file', { path: 'f.txt', start_line: 3 });
    assert.equal(past.error_code, 'invalid_args');
    assert.match(past.output, /past the end of "f.txt", which has 2 lines/);
  });

  it('cuts long files at the line limit and says where to continue', async () => {
    const n = READ_LIMITS.shownLines + 500;
    ws.write('big.txt', Array.from({ length: n }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    const out = await ws.call('read_file', { path: 'big.txt' });
    const lines = out.output.split('\n');
    assert.equal(lines.length, READ_LIMITS.shownLines + 1);
    assert.equal(lines[READ_LIMITS.shownLines - 1], `${String(READ_LIMITS.shownLines).padStart(5)}\trow ${READ_LIMITS.shownLines}`);
    assert.match(lines[lines.length - 1], new RegExp(`lines ${READ_LIMITS.shownLines + 1}–${n} not shown \\(500 lines.*start_line=${READ_LIMITS.shownLines + 1}`));
    const next = await ws.call('read_file', { path: 'big.txt', start_line: READ_LIMITS.shownLines + 1 });
    assert.equal(next.output.split('\n').length, 500 + 1);
  });

  it('cuts the display at 256 KB even with few lines, and cuts very long lines', async () => {
    const long = 'x'.repeat(5000);
    ws.write('wide.txt', Array.from({ length: 300 }, () => long).join('\n'));
    const out = await ws.call('read_file', { path: 'wide.txt' });
    assert.ok(out.output.length <= READ_LIMITS.shownBytes + 500, `shown ${out.output.length}`);
    assert.match(out.output, /\[line cut: 3000 more characters\]/);
    assert.match(out.output, /not shown .*256 KB/);
  });

  it('refuses binary files clearly', async () => {
    ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const out = await ws.call('read_file', { path: 'img.png' });
    assert.equal(out.error_code, 'binary_file');
    assert.match(out.output, /binary file .*Nothing was read/);
  });

  it('refuses files over the size limit', async () => {
    ws.write('huge.log', Buffer.alloc(READ_LIMITS.maxFileBytes + 1, 0x61));
    const out = await ws.call('read_file', { path: 'huge.log' });
    assert.equal(out.error_code, 'too_large');
  });

  it('says is_directory for a directory and not_found for a missing file', async () => {
    ws.write('src/a.js', '');
    const dir = await ws.call('read_file', { path: 'src' });
    assert.equal(dir.error_code, 'is_directory');
    assert.match(dir.output, /list_files/);
    const missing = await ws.call('read_file', { path: 'src/nope.js' });
    assert.equal(missing.error_code, 'not_found');
    assert.match(missing.output, /No file at "src\/nope.js"/);
  });

  it('shows CRLF files without the carriage returns, and says when a file is empty', async () => {
    ws.write('win.txt', 'a\r\nb\r\n');
    assert.equal((await ws.call('read_file', { path: 'win.txt' })).output, '    1\ta\n    2\tb');
    ws.write('empty.txt', '');
    assert.equal((await ws.call('read_file', { path: 'empty.txt' })).output, '(empty.txt is empty)');
  });
});
