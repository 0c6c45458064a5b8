// Stale status in a real VS Code (issue 18 item 7): what Kite shows must be the run's state. After
// a run is cancelled its feature shows neither a spinner nor "in progress" (it is stopped and can
// be resumed or retried), and run notifications name the feature by its title.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Notice } from '../../src/extension/notices';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, nextRunEnd, resetWorkspace, useScript, waitForAsync, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('no stale status', function () {
  this.timeout(300_000); // real runs on a shared machine: approvals and a gate in the sandbox
  let k: KiteParts;
  const notices: Notice[] = [];
  let sub: vscode.Disposable;

  before(async () => {
    k = await kite();
    sub = k.onDidNotify((n) => notices.push(n));
  });
  after(async () => {
    sub.dispose();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    await resetWorkspace();
  });

  const f1 = async (ok: (item: vscode.TreeItem) => boolean, what: string) =>
    (await waitForAsync(what, () => k.featureItems(), (list) => list.some((i) => i.id === 'feature:F1' && ok(i)), [k.onDidChangeFeatures], 30_000)).find((i) => i.id === 'feature:F1')!;

  it('after its run is cancelled, the feature shows no spinner and not "in progress", and offers Retry/Resume', async () => {
    await resetWorkspace();
    k.refreshViews();
    await useScript('extension-accept.json');
    const ended = nextRunEnd(k, 120_000);
    await vscode.commands.executeCommand('kite.startAgent');
    await waitForProposal('src/ledger.js', undefined, 60_000);
    const running = await f1((i) => (i.iconPath as vscode.ThemeIcon | undefined)?.id === 'sync~spin', 'F1 running in the Features view');
    assert.equal(running.description, 'running…');
    assert.equal(await vscode.commands.executeCommand('kite.stopAgent', { token: k.activeRuns()[0]?.token }), true);
    const end = await ended;
    assert.equal(end.summary?.outcome, 'cancelled', end.error?.message);
    const item = await f1((i) => (i.iconPath as vscode.ThemeIcon | undefined)?.id !== 'sync~spin', 'F1 no longer running in the Features view');
    const icon = (item.iconPath as vscode.ThemeIcon).id;
    assert.ok(!/^sync/.test(icon), `a stopped feature shows a sync icon (${icon})`);
    assert.doesNotMatch(String(item.description), /in progress|running/);
    assert.equal(item.description, 'stopped (resume or retry)');
    assert.equal(item.contextValue, 'kite.feature.notDone', 'Retry, Resume and Reset are offered');
  });

  it('an approved command is not "waiting for your approval" while it runs, and the notification at the end names the feature by its title', async () => {
    await resetWorkspace();
    k.refreshViews();
    await useScript('extension-accept.json');
    const ended = nextRunEnd(k, 240_000);
    await vscode.commands.executeCommand('kite.startAgent');
    await waitForProposal('src/ledger.js', undefined, 60_000);
    await vscode.commands.executeCommand('kite.acceptAll');
    await waitForProposal('test/fees.test.js', undefined, 40_000);
    await vscode.commands.executeCommand('kite.acceptAll');
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    // What the status bar and the progress notification say from the answer on (a regression
    // test: fixed on main before this branch): never "waiting for your approval" again.
    const seen: string[] = [];
    const watch = k.onDidChangeRuns(() => {
      const r = k.activeRuns()[0];
      if (r) seen.push(r.lastActivity);
    });
    try {
      await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
      await waitFor('the approved command shown as running', () => seen.some((x) => /^running run/.test(x)) || undefined, [k.onDidChangeRuns], 60_000);
    } finally {
      watch.dispose();
    }
    const answered = seen.findIndex((x) => /^(approved|running run)/.test(x));
    assert.ok(answered >= 0, JSON.stringify(seen));
    assert.deepEqual(seen.slice(answered).filter((x) => /waiting for your approval/.test(x)), [], JSON.stringify(seen));
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    const n = await waitFor('the run-ended notification', () => notices.find((x) => /ended done after/.test(x.text)), [k.onDidNotify], 30_000);
    assert.match(n.text, /^Kite: F1 \(Fees round half-up\) ended done after /);
  });
});
