// Several runs waiting on a person: approvals queue in the order asked, the first one is shown,
// each stays listed (the Pending Approvals view) until answered, and answering one shows the next.
// Two runs at once: one interrupted by a harness-server crash and resumed, one started fresh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ServerDeath } from '../../src/extension/harnessClient';
import type { KiteParts } from '../../src/extension/wireKite';
import type { RunEnded } from '../../src/harness/protocol/rpc';
import { kite, stopRuns, resetWorkspace, scriptedWrite, useScript, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: approvals from several runs queue in order', function () {
  this.timeout(90_000);
  let k: KiteParts;

  before(async () => {
    k = await kite();
  });
  after(async () => {
    await stopRuns(k); // a failed test must not leave a run waiting for the next suite
    await resetWorkspace(); // leave the sample as the next suite expects it
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the first, lists all, and moves to the next when one is answered or its run stops', async () => {
    const ws = await resetWorkspace();
    // Run B waits for approval, then its server dies: B is interrupted.
    await useScript('extension-restart.json');
    const tokenB0 = await vscode.commands.executeCommand<string>('kite.startAgent');
    assert.ok(tokenB0, 'run B did not start');
    await waitForProposal('src/ledger.js', 'toolu_rst_1');
    const logB = (await waitFor('run B to know its log', () => k.activeRuns().find((r) => r.token === tokenB0 && r.log), [k.onDidChangeApprovals])).log!;
    const died = new Promise<ServerDeath>((resolve) => {
      const sub = k.onDidRestartServer((d) => (sub.dispose(), resolve(d)));
    });
    process.kill(k.serverPid()!, 'SIGKILL');
    await died;

    // Run A starts and asks first; then B is resumed and asks second.
    await useScript('extension-reject-stop.json');
    const tokenA = await vscode.commands.executeCommand<string>('kite.startAgent');
    assert.ok(tokenA, 'run A did not start');
    await waitForProposal('src/ledger.js', 'toolu_rej_1');
    const tokenB = await vscode.commands.executeCommand<string>('kite.resumeRun', logB);
    assert.ok(tokenB, 'run B did not resume');
    await waitForPending(k, "B's approval queued", (p) => p.key === `${tokenB}/toolu_rst_1`);
    assert.deepEqual(
      k.pendingApprovals().map((p) => p.key),
      [`${tokenA}/toolu_rej_1`, `${tokenB}/toolu_rst_1`],
      'listed in the order asked',
    );
    const active = vscode.window.activeTextEditor?.document.uri;
    assert.ok(active?.query.endsWith('/toolu_rej_1'), `the first approval is the one shown, not ${active?.toString()}`);

    // Answering A's shows B's next; A's following proposal queues behind it.
    await vscode.commands.executeCommand('kite.rejectAll', { uri: active, reason: 'not this way' });
    const shownB = await waitForProposal('src/ledger.js', 'toolu_rst_1');
    await waitForPending(k, "A's second proposal queued", (p) => p.key === `${tokenA}/toolu_rej_2`);
    assert.deepEqual(
      k.pendingApprovals().map((p) => p.key),
      [`${tokenB}/toolu_rst_1`, `${tokenA}/toolu_rej_2`],
    );

    // Stopping A withdraws its approval from the list.
    const endA = new Promise<RunEnded>((resolve) => {
      const sub = k.onDidEndRun((e) => e.token === tokenA && (sub.dispose(), resolve(e)));
    });
    assert.equal(await vscode.commands.executeCommand('kite.stopAgent', { token: tokenA }), true);
    assert.equal((await endA).summary?.outcome, 'cancelled');
    await waitFor('only B left waiting', () => k.pendingApprovals().length === 1 || undefined, [k.onDidChangeApprovals]);
    assert.equal(k.pendingApprovals()[0]?.key, `${tokenB}/toolu_rst_1`);

    // B finishes.
    const endB = new Promise<RunEnded>((resolve) => {
      const sub = k.onDidEndRun((e) => e.token === tokenB && (sub.dispose(), resolve(e)));
    });
    await vscode.commands.executeCommand('kite.acceptAll', shownB.document.uri);
    const fees = await waitForProposal('test/fees.test.js', 'toolu_rst_2');
    await vscode.commands.executeCommand('kite.acceptAll', fees.document.uri);
    const b = await endB;
    assert.equal(b.summary?.outcome, 'done', b.error?.message);
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), scriptedWrite('extension-restart.json', 'toolu_rst_1'));
    assert.deepEqual(k.pendingApprovals(), []);
  });
});
