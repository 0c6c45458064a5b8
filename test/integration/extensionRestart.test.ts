// The harness server dies while a write waits for approval: Kite notices, starts a new server,
// closes the stale diff, and Resume Run (what the notification's "Resume" and the Runs view call)
// continues the run from its log, which asks for the same approval again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ServerDeath } from '../../src/extension/harnessClient';
import type { KiteApi } from '../../src/extension/extension';
import type { TimelineApi } from '../../src/extension/timeline/registerTimeline';
import type { KiteParts } from '../../src/extension/wireKite';
import { logTotals } from '../../src/harness/events/logTotals';
import { KITE_ID, kite, stopRuns, nextRunEnd, proposalTabs, readEvents, resetWorkspace, scriptedWrite, useScript, waitForAsync, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: the harness server dies during a pending approval', function () {
  this.timeout(90_000);
  let k: KiteParts;
  let t: TimelineApi;

  before(async () => {
    k = await kite();
    t = (await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate()).timeline;
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
    // While it waits (no model call in flight), the status bar, the Runs view and the timeline
    // show the log's fold — the turns and tokens of before the crash included.
    const fold = await logTotals(log);
    assert.ok(fold.turns > 0 && fold.tokens > 0, 'the run had turns before the crash');
    const bar = await waitFor('the status bar to show the log\'s totals', () => k.activeRuns().find((r) => r.log === log && r.tokens === fold.tokens), [k.onDidChangeRuns], 15_000);
    assert.deepEqual([bar.turn, bar.tokens, bar.costUsd.toFixed(6)], [fold.turns, fold.tokens, fold.cost_usd.toFixed(6)]);
    const listed = (await k.runsView()).find((r) => r.path === log);
    assert.ok(listed, 'the Runs view lists the resumed run');
    assert.deepEqual([listed.turns, listed.tokens, listed.costUsd.toFixed(6)], [fold.turns, fold.tokens, fold.cost_usd.toFixed(6)]);
    const lastSeq = readEvents(log).at(-1)!.seq;
    await t.open(log);
    const view = await waitFor('the timeline tab to show the resumed log', () => t.editorStates().find((v) => v.log === log && v.lastSeq === lastSeq), [t.onDidApply], 30_000);
    assert.deepEqual([view.totals.turns, view.totals.tokens, view.totals.cost_usd.toFixed(6)], [fold.turns, fold.tokens, fold.cost_usd.toFixed(6)]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor'); // back to the proposal's diff
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
