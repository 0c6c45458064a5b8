// The harness server dies while a write waits for approval: Kite notices, starts a new server,
// closes the stale diff, and Resume Run (what the notification's "Resume" and the Runs view call)
// continues the run from its log, which asks for the same approval again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ServerDeath } from '../../src/extension/harnessClient';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, stopRuns, nextRunEnd, proposalTabs, readEvents, resetWorkspace, scriptedWrite, useScript, waitForAsync, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: the harness server dies during a pending approval', function () {
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

  it('restarts the server, and resuming from the log asks for the same approval again; the run then finishes', async () => {
    const ws = await resetWorkspace();
    await useScript('extension-restart.json');
    await vscode.commands.executeCommand('kite.startAgent');
    await waitForProposal('src/ledger.js');
    const run = await waitFor('the run to know its log', () => k.activeRuns().find((r) => r.log), [k.onDidChangeApprovals]);
    const log = run.log!;
    const pid = k.serverPid();
    assert.ok(pid, 'no server pid');

    const restarted = new Promise<ServerDeath>((resolve) => {
      const sub = k.onDidRestartServer((d) => (sub.dispose(), resolve(d)));
    });
    process.kill(pid, 'SIGKILL');
    const death = await restarted;
    assert.deepEqual(death.logs, [log], 'the interrupted run is reported with its log');
    assert.notEqual(k.serverPid(), pid, 'a new server process runs');
    assert.deepEqual(k.pendingApprovals(), [], 'the dead run no longer waits');
    await waitForAsync('the stale diff to close', async () => proposalTabs().length, (n) => n === 0, [vscode.window.tabGroups.onDidChangeTabs]);
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8').includes('Math.round(paise)'), false, 'nothing was written');

    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.resumeRun', log);
    const again = await waitForPending(k, 'the same approval asked again', (p) => p.key.endsWith('/toolu_rst_1'));
    assert.equal(again.path, 'src/ledger.js');
    const ledger = await waitForProposal('src/ledger.js');
    await vscode.commands.executeCommand('kite.acceptAll', ledger.document.uri);
    const fees = await waitForProposal('test/fees.test.js');
    await vscode.commands.executeCommand('kite.acceptAll', fees.document.uri);

    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    assert.equal(end.summary?.logPath, log, 'the resumed run continues the same log');
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), scriptedWrite('extension-restart.json', 'toolu_rst_1'));
    const events = readEvents(log);
    const resumedAt = events.findIndex((e) => e.kind === 'resumed');
    assert.ok(resumedAt > 0, 'no resumed event');
    const requestAt = events.findIndex((e) => e.kind === 'approval_request' && e.id === 'toolu_rst_1');
    const answerAt = events.findIndex((e) => e.kind === 'approval' && e.id === 'toolu_rst_1');
    assert.ok(requestAt < resumedAt && resumedAt < answerAt, 'asked before the crash, answered only after the resume');
    assert.equal(events.at(-1)?.kind, 'session_end');
  });
});
