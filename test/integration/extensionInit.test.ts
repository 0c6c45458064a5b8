// "Kite: Initialize Kite in This Workspace" in a folder without Kite files: both starter files are
// written (never overwriting) and the Features view picks the new progress file up by itself.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, resetWorkspace, waitForAsync } from './extensionHelpers';

describe('extension: Initialize Kite in This Workspace', function () {
  this.timeout(60_000);
  let k: KiteParts;
  let ws: string;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
  });
  after(async () => {
    await resetWorkspace(true); // leave the sample as the next suite expects it
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

  it('never overwrites existing files', async () => {
    writeFileSync(join(ws, '.kite', 'config.json'), '{ "checks": ["npm test"] }\n');
    await vscode.commands.executeCommand('kite.init');
    assert.equal(readFileSync(join(ws, '.kite', 'config.json'), 'utf8'), '{ "checks": ["npm test"] }\n');
  });
});
