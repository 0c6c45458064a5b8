// The message VS Code shows when a run cannot start: a held log lock says which Kite holds it.
import assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { runErrorText } from '../../../src/extension/runErrorText';

describe('extension: run error message', () => {
  it('a run whose log another Kite holds names that Kite (pid, host, since) and what to do', () => {
    const text = runErrorText('F2', { code: 'locked', message: 'x.jsonl is being written by another Kite (pid 4242 …)', holder: { pid: 4242, host: 'devbox', started_at: '2026-03-01T10:15:00.000Z' } });
    assert.match(text, /^Kite: F2 is being run by another Kite \(pid 4242 on devbox, since 2026-03-01T10:15:00\.000Z\)/);
    assert.match(text, /another VS Code window or a `kite resume` in a terminal/);
    assert.match(text, /wait for it to end, or stop that process, then resume/);
  });

  it('without a known holder (or for other errors) it shows the harness’s message', () => {
    assert.equal(runErrorText('F2', { code: 'locked', message: 'the log grew while Kite read it' }), 'Kite: F2 could not run: the log grew while Kite read it');
    assert.equal(runErrorText('F1', { code: 'dirty_tree', message: 'uncommitted changes' }), 'Kite: F1 could not run: uncommitted changes');
  });

  it('uncommitted changes are named and the way out is said the editor\'s way, not as a CLI flag', () => {
    const text = runErrorText('F1 (Fees round half-up)', { code: 'dirty_tree', message: 'the work tree has uncommitted changes (.kite/config.json); commit or stash them, or pass --allow-dirty', paths: ['.kite/config.json'] });
    assert.match(text, /^Kite: F1 \(Fees round half-up\) did not start: the work tree has uncommitted changes \(\.kite\/config\.json\)\./);
    assert.match(text, /Commit or stash them \(Source Control\), or allow uncommitted changes in Kite's settings/);
    assert.doesNotMatch(text, /--allow-dirty/);
    const many = runErrorText('F1', { code: 'dirty_tree', message: 'm', paths: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] });
    assert.match(many, /\(a, b, c, d, e, and 2 more\)/);
  });

  it("speaks the window's language: the extension shares VS Code's bundle with these pure texts (@vscode/l10n)", () => {
    try {
      l10n.config({ contents: { 'Kite: {0} could not run: {1}': 'Kite : {0} n’a pas pu démarrer : {1}' } });
      assert.equal(runErrorText('F1', { code: 'failed', message: 'boom' }), 'Kite : F1 n’a pas pu démarrer : boom');
    } finally {
      l10n.config({ contents: {} });
    }
    assert.equal(runErrorText('F1', { code: 'failed', message: 'boom' }), 'Kite: F1 could not run: boom');
  });
});
