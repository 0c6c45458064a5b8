// Issue 13, item 20 in a real VS Code: a file the person creates and saves in the editor while the
// agent runs stays out of the feature's commit, although a command of the run ran after it (which
// could have made any file). The extension reports the save; the run records it in its log.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { click, git, headCommit, kite, lenses, nextRunEnd, readEvents, resetWorkspace, stopRuns, useScript, waitForPending, waitForProposal } from './extensionHelpers';

describe('extension: the commit holds only the run’s work', function () {
  this.timeout(300_000);
  let k: KiteParts;
  let ws: string;

  before(async () => {
    k = await kite();
  });
  beforeEach(async () => {
    ws = await resetWorkspace();
  });
  afterEach(async () => {
    await stopRuns(k);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await resetWorkspace();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a file the person saves in the editor during a run is left out of the commit, named, and stays in the tree', async () => {
    await useScript('extension-accept.json'); // two writes, then `node --version`, then done
    const before = headCommit();
    const ended = nextRunEnd(k, 150_000);
    await vscode.commands.executeCommand('kite.startAgent');
    const ledger = await waitForProposal('src/ledger.js', undefined, 60_000);

    // The person, while the first proposal waits: a new file, typed and saved in the editor.
    const notes = vscode.Uri.file(join(ws, 'my-notes.md')).with({ scheme: 'untitled' }); // a new file, saved to its path
    const editor = await vscode.window.showTextDocument(notes, { preview: false });
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# what I noticed while the agent worked\n')));
    const dirty = editor.document.isDirty;
    const saved = await editor.document.save();
    assert.ok(saved, `the editor did not save my-notes.md (dirty before: ${dirty}, on disk: ${JSON.stringify(existsSync(join(ws, 'my-notes.md')) ? readFileSync(join(ws, 'my-notes.md'), 'utf8') : null)})`);

    await vscode.commands.executeCommand('kite.acceptAll', ledger.document.uri);
    const fees = await waitForProposal('test/fees.test.js', undefined, 60_000);
    const acceptAll = (await lenses(fees.document.uri)).find((l) => /Accept All/.test(l.command?.title ?? ''));
    assert.ok(acceptAll, 'no Accept All CodeLens on the proposal');
    await click(acceptAll);
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });

    const end = await ended;
    assert.equal(end.error, null, end.error?.message);
    assert.equal(end.summary?.outcome, 'done');
    assert.notEqual(headCommit(), before);
    const committed = git(ws, 'show', '--name-only', '--pretty=format:', 'HEAD').split('\n').filter(Boolean).sort();
    assert.deepEqual(committed, ['kite-progress.json', 'src/ledger.js', 'test/fees.test.js']);
    assert.ok(existsSync(join(ws, 'my-notes.md')));
    assert.equal(readFileSync(join(ws, 'my-notes.md'), 'utf8'), '# what I noticed while the agent worked\n');
    assert.match(git(ws, 'status', '--porcelain'), /\?\? my-notes\.md/);
    const events = readEvents(end.summary.logPath);
    assert.ok(events.some((e) => e.kind === 'person_edit' && e.path === 'my-notes.md'), 'the save is not in the log');
    const last = events.at(-1);
    assert.ok(last?.kind === 'session_end');
    assert.match(last.summary, /my-notes\.md \(you saved it in the editor during the run\)/);
  });
});
