// The API key path with the real Anthropic SDK against a local Messages API server: the key stored
// in Secret Storage reaches the model through the harness server's environment, the run works, and
// the key is in no log, commit or file of the workspace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { FakeAnthropicServer } from '../fakeAnthropic/server';
import { parseScript } from '../fakeAnthropic/script';
import { testEnv } from './env';
import { kite, nextRunEnd, resetWorkspace, stopRuns, waitForPending, waitForProposal } from './extensionHelpers';

describe('extension: Anthropic API key from Secret Storage', function () {
  this.timeout(90_000);
  let k: KiteParts;
  let fake: FakeAnthropicServer;
  const key = 'sk-ant-it-4c1f-never-written-anywhere';

  before(async () => {
    k = await kite();
    const replies = JSON.parse(readFileSync(join(testEnv().repo, 'test', 'fixtures', 'scripts', 'extension-accept.json'), 'utf8')) as unknown[];
    fake = await FakeAnthropicServer.start({ script: parseScript(replies), apiKeys: [key] });
    process.env.ANTHROPIC_BASE_URL = fake.url; // the harness server inherits it at its next launch
    await vscode.workspace.getConfiguration('kite').update('model', 'anthropic:claude-sonnet-5-5', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await stopRuns(k);
    await k.storeApiKey(''); // removes the key; the idle server restarts without it
    delete process.env.ANTHROPIC_BASE_URL;
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    await fake.close();
    await resetWorkspace();
  });

  it('runs with the stored key; the key is nowhere on disk', async () => {
    const ws = await resetWorkspace();
    await k.storeApiKey(key);
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    await vscode.commands.executeCommand('kite.acceptAll', (await waitForProposal('src/ledger.js')).document.uri);
    await vscode.commands.executeCommand('kite.acceptAll', (await waitForProposal('test/fees.test.js')).document.uri);
    const cmd = await waitForPending(k, 'the command approval', (p) => p.kind === 'command');
    await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    assert.ok(fake.requests.length >= 4, `${fake.requests.length} model requests`);
    assert.ok(fake.requests.every((r) => r.status === 200 && r.keyPresented), 'every request carried the accepted key');

    assert.equal(readFileSync(end.summary!.logPath, 'utf8').includes(key), false, 'the key is in the run log');
    const inHistory = spawnSync('git', ['grep', '-I', '-F', '-c', key, 'HEAD'], { cwd: ws, encoding: 'utf8' });
    assert.equal(inHistory.status, 1, 'the key is in a commit'); // 1 = no match
    const inTree = spawnSync('grep', ['-rlF', '--exclude-dir=.git', key, ws], { encoding: 'utf8' });
    assert.equal(inTree.status, 1, `the key is in ${inTree.stdout}`); // 1 = no match
  });
});
