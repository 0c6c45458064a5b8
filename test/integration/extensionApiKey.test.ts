// The API key path, for Anthropic and OpenAI, with the real SDKs against local servers: the key stored
// in Secret Storage reaches the model through the harness server's environment, the run works, and
// the key is in no log, commit or file of the workspace.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import type { KeyProvider } from '../../src/harness/protocol/rpc';
import { FakeAnthropicServer } from '../fakeAnthropic/server';
import { parseScript } from '../fakeAnthropic/script';
import { FakeOpenAIServer } from '../fakeOpenAI/server';
import { parseScript as parseOpenAIScript } from '../fakeOpenAI/script';
import { testEnv } from './env';
import { kite, nextRunEnd, resetWorkspace, stopRuns, waitForPending, waitForProposal } from './extensionHelpers';

/** A local model server that accepts only `key` and records whether each request carried it. */
interface KeyedServer {
  url: string;
  requests: { status: number; keyPresented: boolean }[];
  close(): Promise<void>;
}

interface Provider {
  name: string;
  provider: KeyProvider;
  model: string;
  baseUrlEnv: 'ANTHROPIC_BASE_URL' | 'OPENAI_BASE_URL';
  key: string;
  start(replies: unknown[], key: string): Promise<KeyedServer>;
}

const PROVIDERS: Provider[] = [
  {
    name: 'Anthropic',
    provider: 'anthropic',
    model: 'anthropic:claude-sonnet-5-5',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    key: 'sk-ant-it-4c1f-never-written-anywhere',
    start: (replies, key) => FakeAnthropicServer.start({ script: parseScript(replies), apiKeys: [key] }),
  },
  {
    // "Kite: Set API Key…" with the OpenAI pick stores into the OpenAI slot; the real openai SDK presents it.
    name: 'OpenAI',
    provider: 'openai',
    model: 'openai:gpt-4.1-mini',
    baseUrlEnv: 'OPENAI_BASE_URL',
    key: 'sk-proj-it-9d2e-never-written-anywhere',
    start: (replies, key) => FakeOpenAIServer.start({ script: parseOpenAIScript(replies), apiKeys: [key] }),
  },
];

for (const p of PROVIDERS) {
  describe(`extension: ${p.name} API key from Secret Storage`, function () {
    this.timeout(90_000);
    let k: KiteParts;
    let fake: KeyedServer;

    before(async () => {
      k = await kite();
      const replies = JSON.parse(readFileSync(join(testEnv().repo, 'test', 'fixtures', 'scripts', 'extension-accept.json'), 'utf8')) as unknown[];
      fake = await p.start(replies, p.key);
      process.env[p.baseUrlEnv] = fake.url; // the harness server inherits it at its next launch
      await vscode.workspace.getConfiguration('kite').update('model', p.model, vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await stopRuns(k);
      await k.storeApiKey('', p.provider); // removes the key; the idle server restarts without it
      delete process.env[p.baseUrlEnv];
      await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
      await fake.close();
      await resetWorkspace();
    });

    it('runs with the stored key; the key is nowhere on disk', async () => {
      const ws = await resetWorkspace();
      await k.storeApiKey(p.key, p.provider);
      const ended = nextRunEnd(k);
      await vscode.commands.executeCommand('kite.startAgent');
      await vscode.commands.executeCommand('kite.acceptAll', (await waitForProposal('src/ledger.js')).document.uri);
      await vscode.commands.executeCommand('kite.acceptAll', (await waitForProposal('test/fees.test.js')).document.uri);
      const cmd = await waitForPending(k, 'the command approval', (q) => q.kind === 'command');
      await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
      const end = await ended;
      assert.equal(end.summary?.outcome, 'done', end.error?.message);
      assert.ok(fake.requests.length >= 4, `${fake.requests.length} model requests`);
      assert.ok(fake.requests.every((r) => r.status === 200 && r.keyPresented), 'every request carried the accepted key');

      assert.equal(readFileSync(end.summary!.logPath, 'utf8').includes(p.key), false, 'the key is in the run log');
      const inHistory = spawnSync('git', ['grep', '-I', '-F', '-c', p.key, 'HEAD'], { cwd: ws, encoding: 'utf8' });
      assert.equal(inHistory.status, 1, 'the key is in a commit'); // 1 = no match
      const inTree = spawnSync('grep', ['-rlF', '--exclude-dir=.git', p.key, ws], { encoding: 'utf8' });
      assert.equal(inTree.status, 1, `the key is in ${inTree.stdout}`); // 1 = no match
    });
  });
}
