// Evals in a real VS Code (issue 15 part 1): "Add to Evals" on a run that went wrong writes a case
// (the code of `kite eval add`) and opens it; the Evals view lists it, not run yet; running it from
// the view replays the recorded replies in a scratch worktree in the harness server and reproduces
// the failure; the view then shows the last result, and the case's log opens in the timeline.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { KiteParts } from '../../src/extension/wireKite';
import { KITE_ID, kite, nextRunEnd, resetWorkspace, stopRuns, useScript } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: evals (Add to Evals, the Evals view)', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws: string;
  let caseFile: string | undefined;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
  });
  after(async () => {
    await stopRuns(k);
    await resetWorkspace(); // removes .kite/evals (untracked) with the rest
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    k.refreshViews();
  });

  it('Add to Evals on a failed run writes a case from its log and opens it; the Evals view lists it, not run yet', async () => {
    await useScript('extension-no-change.json');
    const ended = nextRunEnd(k, 90_000);
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'), 'the run did not start');
    const end = await ended;
    assert.equal(end.summary?.outcome, 'error');
    const log = end.summary!.logPath;
    // What the Runs view's context menu passes: the run's node.
    assert.ok((await k.runsView()).some((r) => r.path === log), 'the run is in the Runs view');
    caseFile = await vscode.commands.executeCommand<string | undefined>('kite.addToEvals', { path: log });
    assert.equal(caseFile, join(ws, '.kite', 'evals', 'f1-error', 'case.json'));
    assert.ok(existsSync(join(ws, '.kite', 'evals', 'f1-error', 'replies.json')), "the model's recorded replies are kept beside the case");
    const spec = JSON.parse(readFileSync(caseFile, 'utf8')) as { start: { commit: string }; feature: { id: string }; expect: { outcome: string }; model: string };
    assert.equal(spec.feature.id, 'F1');
    assert.equal(spec.expect.outcome, 'done', 'what should have happened');
    assert.equal(spec.model, 'script:replies.json');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, caseFile, 'the case opens for the person to edit its expectation');
    const items = await k.evalItems(); // read from .kite/evals, written before the command returned
    assert.deepEqual(items.map((i) => [i.label, i.description, i.contextValue]), [['f1-error', 'not run yet', 'kite.evalCase']]);
  });

  it('Run Eval Case reproduces the failure (fail: outcome error, not done), and the view shows it as the last result', async () => {
    assert.ok(caseFile, 'needs the case from the previous test');
    const finished = new Promise<Parameters<Parameters<KiteParts['onDidFinishEvals']>[0]>[0]>((resolve) => {
      const sub = k.onDidFinishEvals((e) => (sub.dispose(), resolve(e)));
    });
    const item = (await k.evalItems())[0];
    const statusBefore = execGitStatus(ws);
    // What the inline ▶ passes is the tree node; the command also takes the case's name.
    void vscode.commands.executeCommand('kite.evals.runCase', String(item.label));
    const { result } = await finished;
    assert.equal(result.error, null, result.error ?? '');
    assert.equal(result.cancelled, false);
    assert.equal(result.results.length, 1);
    const r = result.results[0];
    assert.equal(r.case, 'f1-error');
    assert.equal(r.status, 'fail');
    assert.equal(r.outcome, 'error', 'the recorded replies replay to the same ending');
    assert.ok(r.unmet.some((u) => /outcome/.test(u) && /done/.test(u) && /error/.test(u)), r.unmet.join('; '));
    assert.ok(r.log && existsSync(r.log), 'the case run kept its log');
    assert.ok(result.logDir && existsSync(join(result.logDir, 'results.json')), 'results.json beside the logs (kite eval reads the same)');
    assert.equal(execGitStatus(ws), statusBefore, "the person's tree is untouched: the case ran in a scratch worktree");

    const after = await k.evalItems();
    assert.equal(after[0].description, 'fail · error · 1 turn');
    assert.equal(after[0].contextValue, 'kite.evalCase.hasLog');

    // Open the case's log in the timeline (the inline button on a case that has run).
    const api = vscode.extensions.getExtension<KiteApi>(KITE_ID)!.exports;
    await vscode.commands.executeCommand('kite.evals.openLog', 'f1-error');
    const shown = await waitFor('the case log in a timeline tab', () => api.timeline.editorStates().find((s) => s.log === r.log && s.events > 0), [api.timeline.onDidApply], 30_000);
    assert.ok(shown.events > 0);
  });
});

function execGitStatus(cwd: string): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd, encoding: 'utf8' }).trim();
}
