// Hostile: what a judged check sends to its model. A rubric or a planted file must not carry
// anything from outside the workspace (a `../` path, an absolute path, a symlink or a hard link
// pointing out) into the judge's evidence; the judge still gets the workspace's own changes.
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildEvidence } from '../../../src/harness/gate/judgeEvidence';
import { git, tempRepo } from '../../unit/loop/kit';

const SECRET = 'OUTSIDE-THE-WORKSPACE-7f3a';

describe('hostile: a judged check\'s evidence stays inside the workspace', () => {
  it('a rubric naming ../, an absolute path or a link out, and planted links in the tree, send none of the outside content', () => {
    const outside = mkdtempSync(join(tmpdir(), 'kite-outside-'));
    const secretFile = join(outside, 'secret.txt');
    writeFileSync(secretFile, `${SECRET}\n`);
    const root = tempRepo({ 'README.md': '# tool\n' });
    const base = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'README.md'), '# tool\n\nUse --since 2d.\n');
    symlinkSync(secretFile, join(root, 'notes.txt')); // planted: an untracked symlink out
    try {
      linkSync(secretFile, join(root, 'hard.txt')); // planted: a hard link to the outside file
    } catch {
      // another file system: no hard link possible, the symlink case still runs
    }
    const rubric = `README.md documents --since; see ../${outside.split('/').pop()}/secret.txt, ${secretFile}, notes.txt and hard.txt`;
    const e = buildEvidence({ root, logDir: join(root, '.kite', 'runs'), base, rubric });
    assert.doesNotMatch(e.text, new RegExp(SECRET), e.text);
    assert.deepEqual(e.files, ['README.md'], 'only the workspace file the rubric names is sent');
    assert.match(e.text, /\+Use --since 2d\./, "the run's own change is still the evidence");
  });

  it('a tracked file the run replaced by a hard link to an outside file is named in the diff, its content not shown', () => {
    const outside = mkdtempSync(join(tmpdir(), 'kite-outside-'));
    const secretFile = join(outside, 'secret.txt');
    writeFileSync(secretFile, `${SECRET}\n`);
    const root = tempRepo({ 'README.md': '# tool\n', 'src/config.txt': 'port=1\n' });
    const base = git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'README.md'), '# tool\n\nUse --since 2d.\n');
    rmSync(join(root, 'src', 'config.txt'));
    try {
      linkSync(secretFile, join(root, 'src', 'config.txt'));
    } catch {
      return; // another file system: no hard link can be made here, nothing to leak
    }
    const e = buildEvidence({ root, logDir: join(root, '.kite', 'runs'), base, rubric: 'README.md documents --since' });
    assert.doesNotMatch(e.text, new RegExp(SECRET), e.text);
    assert.match(e.text, /changed src\/config\.txt: \(not shown: it has another hard link/, 'the judge is told the file changed');
    assert.match(e.text, /\+Use --since 2d\./, "the run's other change is still the evidence");
  });
});
