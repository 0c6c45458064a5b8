import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addWorktree, commitAll, commitFiles, commitPaths, dirtyPaths, gitBranch, gitHead, isGitRepo } from '../../../src/harness/progress/git';
import { git, tempDir, tempRepo } from '../loop/kit';

describe('git helpers (real git)', function () {
  it('head, branch, repo detection', () => {
    const root = tempRepo({ 'a.txt': 'a\n' });
    assert.match(gitHead(root) ?? '', /^[0-9a-f]{40}$/);
    assert.equal(gitBranch(root), 'main');
    assert.equal(isGitRepo(root), true);
    const plain = tempDir();
    assert.equal(isGitRepo(plain), false);
    assert.equal(gitHead(plain), null);
  });

  it('dirty paths include changed and untracked files but not the ignored log folder', () => {
    const root = tempRepo({ 'a.txt': 'a\n' });
    assert.deepEqual(dirtyPaths(root), []);
    mkdirSync(join(root, '.kite', 'runs'), { recursive: true });
    writeFileSync(join(root, '.kite', 'runs', 'x.jsonl'), '{}');
    assert.deepEqual(dirtyPaths(root, ['.kite/runs']), []);
    writeFileSync(join(root, 'a.txt'), 'changed\n');
    writeFileSync(join(root, 'new file.txt'), 'n\n');
    assert.deepEqual(dirtyPaths(root, ['.kite/runs']).sort(), ['a.txt', 'new file.txt']);
  });

  it('worktree: a new worktree on branch kite/<id> next to the repo; reused when it exists', () => {
    const root = tempRepo({ 'a.txt': 'a\n' });
    const wt = addWorktree(root, 'F1');
    assert.ok(existsSync(join(wt, 'a.txt')));
    assert.equal(gitBranch(wt), 'kite/F1');
    assert.equal(gitHead(wt), gitHead(root));
    assert.equal(addWorktree(root, 'F1'), wt);
    assert.match(git(root, 'worktree', 'list'), /kite\/F1/);
  });

  it('commitAll stages everything in the workspace except the log folder (inside or outside the work tree)', () => {
    const root = tempRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(root, 'b.txt'), 'b\n');
    mkdirSync(join(root, 'logs'));
    writeFileSync(join(root, 'logs', 'run.jsonl'), '{}\n');
    const sha = commitAll(root, 'F1: one', ['logs', join(tempDir(), 'elsewhere')]);
    assert.deepEqual(commitFiles(root, sha), ['b.txt']);
    assert.equal(git(root, 'log', '-1', '--pretty=%s'), 'F1: one');
  });

  it('commitPaths commits exactly the named files; other changes and what the person staged stay as they were', () => {
    const root = tempRepo({ 'a.txt': 'a\n', 'kite-progress.json': '{}\n' });
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), '{"checks":["npm test"]}\n');
    writeFileSync(join(root, 'a.txt'), 'staged by the person\n');
    git(root, 'add', 'a.txt');
    writeFileSync(join(root, 'notes.txt'), 'not Kite\'s\n');
    const sha = commitPaths(root, ['.kite/config.json'], 'Kite: initialize');
    assert.deepEqual(commitFiles(root, sha), ['.kite/config.json']);
    assert.equal(git(root, 'log', '-1', '--pretty=%s'), 'Kite: initialize');
    assert.deepEqual(git(root, 'status', '--porcelain').split('\n').sort(), ['?? notes.txt', 'M  a.txt']);
    assert.deepEqual(dirtyPaths(root).sort(), ['a.txt', 'notes.txt']);
  });
});
