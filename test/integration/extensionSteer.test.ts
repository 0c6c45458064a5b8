// Issue 18 item 11 in the real VS Code: "Kite: Tell the Agent…" with no run going is no dead end (it
// offers New Feature from Prompt with the same words), and "Kite: New Feature from Prompt…" turns a
// typed request into a feature of kite-progress.json (title, verify command, the request as notes)
// and starts the agent on it — the run passes the gate and ends done, committed, with a clean tree.
// Issue 15: a message a PromptSubmit hook blocks is not delivered, and the person is told why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Notice } from '../../src/extension/notices';
import type { KiteParts } from '../../src/extension/wireKite';
import { headCommit, kite, nextRunEnd, readEvents, resetWorkspace, stopRuns, useScript, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

const REQUEST = 'Add a CHANGELOG.md with a 1.0.1 entry.\nMention that fees now round half-up to the paisa.';

describe('extension: talk to the agent (issue 18 item 11)', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws: string;
  const notices: Notice[] = [];
  let sub: vscode.Disposable | undefined;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
    sub = k.onDidNotify((n) => notices.push(n));
  });
  after(async () => {
    sub?.dispose();
    await stopRuns(k);
    await resetWorkspace();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    k.refreshViews();
  });

  it('Tell the Agent with no run going says so and offers New Feature from Prompt with the same words', async () => {
    assert.equal(k.activeRuns().length, 0);
    const r = await vscode.commands.executeCommand<{ status: string; message: string }>('kite.tellAgent', { text: REQUEST });
    assert.equal(r.status, 'no_run');
    const n = await waitFor('the offer', () => notices.find((x) => /No agent is running/.test(x.text)), [k.onDidNotify], 10_000);
    assert.deepEqual(n.actions.map((a) => [a.title, a.command, a.args]), [['New Feature from Prompt…', 'kite.newFeatureFromPrompt', [{ text: REQUEST }]]]);
  });

  it('New Feature from Prompt writes the feature (title, verify, notes) and starts the agent on it; the run ends done and committed, the tree clean', async () => {
    await useScript('extension-prompt.json');
    const head = headCommit();
    const ended = nextRunEnd(k, 90_000);
    const token = await vscode.commands.executeCommand<string | undefined>('kite.newFeatureFromPrompt', { text: REQUEST, verify: 'npm test' });
    assert.ok(token, 'the run started');
    const progress = JSON.parse(readFileSync(join(ws, 'kite-progress.json'), 'utf8')) as { features: { id: string; title: string; status: string; verify?: string; notes?: string }[] };
    const f = progress.features.find((x) => x.id === 'F2');
    assert.ok(f, JSON.stringify(progress.features));
    assert.deepEqual({ title: f.title, verify: f.verify, notes: f.notes }, { title: 'Add a CHANGELOG.md with a 1.0.1 entry', verify: 'npm test', notes: REQUEST });
    assert.equal(k.activeRuns().find((r) => r.token === token)?.feature, 'F2');
    const proposal = await waitForProposal('CHANGELOG.md');
    await vscode.commands.executeCommand('kite.acceptAll', proposal.document.uri);
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', JSON.stringify(end));
    assert.notEqual(headCommit(), head, 'committed');
    const after = JSON.parse(readFileSync(join(ws, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[] };
    assert.equal(after.features.find((x) => x.id === 'F2')?.status, 'done');
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: ws, encoding: 'utf8' }).trim(), '', 'git status is clean');
    assert.match(readFileSync(join(ws, 'CHANGELOG.md'), 'utf8'), /1\.0\.1/);
  });

  it('a message a PromptSubmit hook blocks is NOT delivered: the notification says so and why, the agent never sees it, the run goes on', async () => {
    // A team guard, committed and trusted: messages asking to delete files do not reach the agent.
    const guard = `input=$(cat); printf '%s' "$input" | grep -q '"prompt_source":"steer"' && printf '%s' "$input" | grep -q delete && { echo "messages asking to delete files are not delivered" >&2; exit 2; }; exit 0`;
    ws = await resetWorkspace();
    const cfgPath = join(ws, '.kite', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(cfgPath, JSON.stringify({ ...cfg, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: guard, timeout: 20 }] }] } }, null, 2));
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'test: a PromptSubmit guard'], { cwd: ws });
    k.answerTrustPromptWith(async () => true);
    try {
      await useScript('extension-prompt.json');
      const ended = nextRunEnd(k, 90_000);
      const token = await vscode.commands.executeCommand<string | undefined>('kite.newFeatureFromPrompt', { text: 'Add a CHANGELOG.md with a 1.0.1 entry.', verify: 'npm test' });
      assert.ok(token, 'the run started');
      const proposal = await waitForProposal('CHANGELOG.md');
      const told = await vscode.commands.executeCommand<{ status: string }>('kite.tellAgent', { text: 'please delete AGENTS.md' });
      assert.equal(told.status, 'queued');
      await vscode.commands.executeCommand('kite.acceptAll', proposal.document.uri);
      const n = await waitFor('the notification of the blocked message', () => notices.find((x) => /blocked your message/.test(x.text)), [k.onDidNotify], 60_000);
      assert.equal(n.level, 'warning');
      assert.match(n.text, /^Kite: a PromptSubmit hook blocked your message, so it was NOT delivered to the agent: messages asking to delete files are not delivered/);
      const end = await ended;
      assert.equal(end.summary?.outcome, 'done', JSON.stringify(end));
      const events = readEvents(end.summary?.logPath ?? '');
      assert.deepEqual(events.filter((e) => e.kind === 'warning' && e.code === 'steer_blocked').map((e) => (e as { text?: string }).text), ['please delete AGENTS.md']);
      assert.equal(events.filter((e) => e.kind === 'user' && e.reason === 'steer').length, 0, 'the agent was never given the message');
      assert.ok(existsSync(join(ws, 'AGENTS.md')));
    } finally {
      k.answerTrustPromptWith(null);
    }
  });
});
