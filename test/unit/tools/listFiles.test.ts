import { strict as assert } from 'node:assert';
import { LIST_LIMITS } from '../../../src/harness/tools/listFiles';
import { makeWorkspace, type Workspace } from './_workspace';

describe('list_files', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = makeWorkspace();
    ws.write('.gitignore', 'node_modules/\n*.log\n!keep.log\n');
    ws.write('.git/HEAD', 'ref\n');
    ws.write('README.md', '# hi\n');
    ws.write('debug.log', 'noise\n');
    ws.write('keep.log', 'kept\n');
    ws.write('node_modules/dep/index.js', '');
    ws.write('src/index.ts', '');
    ws.write('src/util.test.ts', '');
    ws.write('src/gen/.gitignore', '*.generated.ts\n');
    ws.write('src/gen/a.generated.ts', '');
    ws.write('src/gen/b.ts', '');
  });
  afterEach(() => ws.cleanup());

  it('lists one level of the root, directories with "/", hiding .git and ignored entries', async () => {
    const out = await ws.call('list_files', {});
    assert.equal(out.output, ['.gitignore', 'README.md', 'keep.log', 'src/'].join('\n'));
  });

  it('lists recursively with nested .gitignore files honoured', async () => {
    const out = await ws.call('list_files', { recursive: true });
    assert.deepEqual(out.output.split('\n'), ['.gitignore', 'README.md', 'keep.log', 'src/gen/.gitignore', 'src/gen/b.ts', 'src/index.ts', 'src/util.test.ts']);
  });

  it('lists a sub-directory with workspace-relative paths and filters by glob', async () => {
    assert.equal((await ws.call('list_files', { path: 'src' })).output, 'src/gen/\nsrc/index.ts\nsrc/util.test.ts');
    assert.equal((await ws.call('list_files', { glob: '*.test.ts' })).output, 'src/util.test.ts');
    assert.equal((await ws.call('list_files', { path: 'src', glob: 'gen/*.ts' })).output, 'src/gen/b.ts');
    assert.match((await ws.call('list_files', { glob: '*.py' })).output, /No files matching "\*\.py"/);
  });

  it('honours .git/info/exclude', async () => {
    ws.write('.git/info/exclude', 'README.md\n');
    assert.doesNotMatch((await ws.call('list_files', {})).output, /README/);
  });

  it('caps the number of entries with a marker saying how many were left out', async () => {
    for (let i = 0; i < LIST_LIMITS.maxShown + 25; i++) ws.write(`many/f${String(i).padStart(5, '0')}.txt`, '');
    const out = await ws.call('list_files', { path: 'many' });
    const lines = out.output.split('\n');
    assert.equal(lines.length, LIST_LIMITS.maxShown + 1);
    assert.equal(lines[lines.length - 1], '[… 25 more entries not shown; narrow with path or glob]');
  });

  it('reports a missing directory and describes a file', async () => {
    assert.equal((await ws.call('list_files', { path: 'nope' })).error_code, 'not_found');
    assert.match((await ws.call('list_files', { path: 'README.md' })).output, /README.md \(a file, 5 bytes; not a directory\)/);
  });
});
