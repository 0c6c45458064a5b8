// "Kite: Initialize Kite in This Workspace" in a folder without Kite files: both starter files are
// written (never overwriting) and the Features view picks the new progress file up by itself.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, resetWorkspace, waitForAsync } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: Initialize Kite in This Workspace', function () {
  this.timeout(60_000);
  let k: KiteParts;
  let ws: string;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
  });
  after(async () => {
    await resetWorkspace(); // leave the sample as the next suite expects it
    k.refreshViews();
  });

  it('writes kite-progress.json and .kite/config.json, and the Features view shows the starter feature', async () => {
    rmSync(join(ws, 'kite-progress.json'));
    rmSync(join(ws, '.kite', 'config.json'));
    await waitForAsync('an empty Features view', () => k.features(), (f) => f.length === 0, [k.onDidChangeFeatures]);

    await vscode.commands.executeCommand('kite.init');
    const progress = JSON.parse(readFileSync(join(ws, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[] };
    assert.deepEqual(progress.features.map((f) => [f.id, f.status]), [['F1', 'todo']]);
    assert.ok(existsSync(join(ws, '.kite', 'config.json')));
    const features = await waitForAsync('the starter feature in the Features view', () => k.features(), (f) => f.length === 1, [k.onDidChangeFeatures]);
    assert.deepEqual(features, [{ id: 'F1', status: 'todo' }]);
  });

  it('validates kite-progress.json and .kite/config.json while they are edited (jsonValidation with the generated schemas)', async () => {
    await resetWorkspace();
    const problems = async (rel: string, edit: (text: string) => string): Promise<string[]> => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(ws, rel)));
      await vscode.window.showTextDocument(doc);
      // A workspace edit of the document, not of an editor: it holds even when another editor
      // (a timeline tab, a diff) takes the focus meanwhile, which made TextEditor.edit return false.
      // The reset just rewrote the file on disk: while VS Code reloads the document an edit can be
      // refused, so it is made again on the document as it is then (a few times at most).
      let applied = false;
      for (let attempt = 0; attempt < 5 && !applied; attempt++) {
        if (attempt) await new Promise((r) => setTimeout(r, 300));
        const text = doc.getText();
        const change = new vscode.WorkspaceEdit();
        change.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), edit(text));
        applied = await vscode.workspace.applyEdit(change);
      }
      assert.ok(applied, `the edit of ${rel} was refused 5 times`);
      const diags = await waitFor(
        `a schema problem in ${rel}`,
        () => {
          const d = vscode.languages.getDiagnostics(doc.uri);
          return d.length ? d : undefined;
        },
        [vscode.languages.onDidChangeDiagnostics],
        30_000,
      );
      await vscode.commands.executeCommand('workbench.action.files.revert');
      return diags.map((d) => d.message);
    };
    const progress = await problems('kite-progress.json', (t) => t.replace('"status": "todo"', '"status": "finished"'));
    assert.ok(progress.some((m) => /todo|in_progress|done|Value is not accepted/i.test(m)), JSON.stringify(progress));
    const config = await problems('.kite/config.json', (t) => t.replace('"checks"', '"budgett": 1, "checks"'));
    assert.ok(config.some((m) => /budgett/.test(m) && /not allowed/i.test(m)), JSON.stringify(config));
  });

  it('never overwrites existing files', async () => {
    writeFileSync(join(ws, '.kite', 'config.json'), '{ "checks": ["npm test"] }\n');
    await vscode.commands.executeCommand('kite.init');
    assert.equal(readFileSync(join(ws, '.kite', 'config.json'), 'utf8'), '{ "checks": ["npm test"] }\n');
  });
});
