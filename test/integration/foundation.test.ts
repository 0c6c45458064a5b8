// Foundation: the suite really runs inside a VS Code extension host, the Kite extension is found,
// activates, registers every command it contributes, and a Kite command has a visible effect.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { testEnv } from './env';
import { waitFor } from './waitFor';

const KITE_ID = 'kite-dev.kite';

interface CommandContribution {
  command: string;
  title: string;
  category?: string;
}

interface KiteManifest {
  version: string;
  engines: { vscode: string };
  activationEvents?: string[];
  contributes?: { commands?: CommandContribution[] };
}

function kite(): vscode.Extension<{ version: string }> {
  const ext = vscode.extensions.getExtension<{ version: string }>(KITE_ID);
  assert.ok(ext, `extension ${KITE_ID} is not installed in this extension host`);
  return ext;
}

describe('foundation: Kite inside a real VS Code', () => {
  it('runs in a real extension host whose version satisfies engines.vscode', () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    const manifest = kite().packageJSON as KiteManifest;
    const min = /^\^?(\d+)\.(\d+)/.exec(manifest.engines.vscode);
    assert.ok(min, `engines.vscode "${manifest.engines.vscode}" is not ^major.minor`);
    const [major, minor] = vscode.version.split('.').map(Number);
    assert.ok(major === Number(min[1]) && minor >= Number(min[2]), `VS Code ${vscode.version} does not satisfy engines.vscode ${manifest.engines.vscode}`);
    // The `vscode` module is the host's real API, not a stub.
    assert.equal(typeof vscode.commands.executeCommand, 'function');
    assert.ok(vscode.env.appName.length > 0);
  });

  it('opens the fresh sample workspace, a git repository', () => {
    const { workspace } = testEnv();
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    assert.equal(folders[0].uri.fsPath, workspace);
    assert.ok(existsSync(join(workspace, '.git')), 'the workspace has no .git');
  });

  it('activates Kite and returns its API', async () => {
    const ext = kite();
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(api.version, (ext.packageJSON as KiteManifest).version);
  });

  it('activates lazily (no "*" activation event)', () => {
    const events = (kite().packageJSON as KiteManifest).activationEvents ?? [];
    assert.ok(!events.includes('*'), `activationEvents contains "*": ${JSON.stringify(events)}`);
  });

  it('registers every command it contributes, each in the "Kite" category', async () => {
    await kite().activate();
    const contributed = (kite().packageJSON as KiteManifest).contributes?.commands ?? [];
    assert.ok(contributed.some((c) => c.command === 'kite.showLog'), 'kite.showLog is not contributed');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c.command)).map((c) => c.command);
    assert.deepEqual(missing, [], `contributed but not registered after activation: ${missing.join(', ')}`);
    const uncategorized = contributed.filter((c) => c.category !== 'Kite').map((c) => c.command);
    assert.deepEqual(uncategorized, [], `commands without category "Kite": ${uncategorized.join(', ')}`);
  });

  it('"Kite: Show Kite Log" reveals the Kite output channel with the activation line', async () => {
    await kite().activate();
    await vscode.commands.executeCommand('kite.showLog');
    const isKiteLog = (d: vscode.TextDocument): boolean => d.uri.scheme === 'output' && d.uri.path.includes(`${KITE_ID}.Kite`);
    const editor = await waitFor(
      'a visible Kite output editor showing "Kite activated"',
      () => vscode.window.visibleTextEditors.find((e) => isKiteLog(e.document) && e.document.getText().includes('Kite activated')),
      [vscode.window.onDidChangeVisibleTextEditors, vscode.workspace.onDidChangeTextDocument],
    );
    assert.match(editor.document.getText(), /\[info\] Kite activated/);
  });
});
