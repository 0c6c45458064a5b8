// Issue 18 in the real VS Code: a run that is not done says why in one sentence and offers the next
// steps (Retry, Resume where the log allows, Reset to Todo, Open Log); a failed gate attempt gets a
// notification; Start Agent on Current Feature is no dead end after an error; a broken progress file
// is reported before a missing key, and clicking its error opens it at the error's line and column.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Notice } from '../../src/extension/notices';
import type { KiteParts } from '../../src/extension/wireKite';
import { headCommit, kite, nextRunEnd, resetWorkspace, stopRuns, useScript, waitForAsync } from './extensionHelpers';
import { waitFor } from './waitFor';

describe('extension: dependable endings (issue 18)', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws: string;
  const notices: Notice[] = [];
  let sub: vscode.Disposable | undefined;

  const noticeMatching = (what: string, re: RegExp): Promise<Notice> => waitFor(what, () => notices.find((n) => re.test(n.text)), [k.onDidNotify], 60_000);

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

  it('a run that ends error says why in one sentence and offers Retry, Reset to Todo and Open Log; the failed gate attempt got its own notification', async () => {
    await useScript('extension-no-change.json');
    const ended = nextRunEnd(k, 90_000);
    const token = await vscode.commands.executeCommand<string>('kite.startAgent');
    assert.ok(token, 'the run did not start');
    assert.equal(k.activeRuns().find((r) => r.token === token)?.feature, 'F1', 'named from the start, not "current feature"');
    const end = await ended;
    assert.equal(end.summary?.outcome, 'error');
    // Named by id and title, as the done notification is. The agent claimed done without changing a file: gate attempt 1 failed (notified), then the script ran out.
    const gate = await noticeMatching('the gate attempt notification', /gate attempt 1 of \d+ failed/);
    assert.match(gate.text, /^Kite: F1 \(Fees round half-up\): gate attempt 1 of \d+ failed: the run had changed no file; the agent was told and tries again\.$/);
    assert.deepEqual(gate.actions.map((a) => a.title), ['Open Log']);
    const n = await noticeMatching('the end notification', /F1 \(Fees round half-up\) ended error/);
    assert.match(n.text, /^Kite: F1 \(Fees round half-up\) ended error: model error \(script_exhausted\): the script ran out of replies after 1 .*\.$/);
    assert.deepEqual(n.actions.map((a) => a.title), ['Retry', 'Reset to Todo', 'Open Log']); // no Resume: the log ended
    assert.deepEqual(n.actions.find((a) => a.title === 'Open Log')?.args, [end.summary?.logPath]);
    // The Features view offers the same next steps on the feature (its context menu: package.json, unit-tested).
    const items = await waitForAsync('F1 marked not done in the Features view', () => k.featureItems(), (list) => list.some((i) => i.contextValue === 'kite.feature.notDone'), [k.onDidChangeFeatures], 20_000);
    assert.match(String(items.find((i) => i.contextValue === 'kite.feature.notDone')?.label), /^F1 /);
  });

  it('after an error, Start Agent on Current Feature is no dead end: it offers Retry and Reset for the failed feature, and Reset puts it back to todo without a commit', async () => {
    notices.length = 0;
    const head = headCommit();
    const token = await vscode.commands.executeCommand<string | undefined>('kite.startAgent');
    assert.equal(token, undefined);
    const n = await noticeMatching('the no-feature-left notice', /no feature is todo or in progress/);
    assert.doesNotMatch(n.text, /--feature/);
    assert.match(n.text, /F1 \(Fees round half-up\) is error/);
    assert.deepEqual(n.actions.map((a) => a.title), ['Retry F1', 'Reset F1 to Todo', 'Pick a Feature…']);
    const reset = n.actions.find((a) => a.title === 'Reset F1 to Todo')!;
    const notes = (JSON.parse(readFileSync(join(ws, 'kite-progress.json'), 'utf8')) as { features: { notes?: string }[] }).features[0].notes;
    assert.equal(await vscode.commands.executeCommand(reset.command, ...reset.args), true); // what clicking the button runs
    const p = JSON.parse(readFileSync(join(ws, 'kite-progress.json'), 'utf8')) as { features: { status: string; notes?: string }[] };
    assert.equal(p.features[0].status, 'todo');
    assert.equal(p.features[0].notes, notes, 'notes kept');
    assert.equal(headCommit(), head, 'nothing committed');
    await waitForAsync('F1 todo in the Features view', () => k.features(), (f) => f[0]?.status === 'todo', [k.onDidChangeFeatures], 20_000);
  });

  it('a broken kite-progress.json is reported before a missing API key, and clicking the error in the Features view opens it at the line and column', async () => {
    notices.length = 0;
    execFileSync('git', ['checkout', '-q', '--', 'kite-progress.json'], { cwd: ws });
    const text = readFileSync(join(ws, 'kite-progress.json'), 'utf8');
    // Line 4 gets a stray comma before the closing brace of nothing: `"log": [],,`
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"log"'));
    assert.ok(at > 0);
    lines[at] = lines[at].replace('[],', '[],,');
    writeFileSync(join(ws, 'kite-progress.json'), lines.join('\n'));
    await vscode.workspace.getConfiguration('kite').update('model', 'anthropic:claude-sonnet-5-5', vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('kite.startAgent'), undefined);
    const n = await noticeMatching('the broken-file notice', /Kite cannot start/);
    assert.match(n.text, /kite-progress\.json:\d+:\d+: not valid JSON/);
    assert.ok(!notices.some((x) => /API key/.test(x.text)), 'the key is not what the person must fix first');

    k.refreshViews();
    const isProblem = (i: vscode.TreeItem) => /not valid JSON/.test(String(i.label));
    const problem = (await waitForAsync('the JSON problem in the Features view', () => k.featureItems(), (list) => list.some(isProblem), [k.onDidChangeFeatures], 20_000)).find(isProblem)!;
    const [, line, column] = /:(\d+):(\d+):/.exec(String(problem.label)) ?? [];
    assert.ok(problem.command);
    await vscode.commands.executeCommand(problem.command.command, ...(problem.command.arguments ?? []));
    const editor = await waitFor(
      'kite-progress.json in an editor',
      () => (vscode.window.activeTextEditor?.document.uri.fsPath === join(ws, 'kite-progress.json') ? vscode.window.activeTextEditor : undefined),
      [vscode.window.onDidChangeActiveTextEditor],
      20_000,
    );
    assert.equal(editor.selection.active.line + 1, Number(line));
    assert.equal(editor.selection.active.character + 1, Number(column));
    assert.notEqual(Number(line), 1, 'not line 1');
  });
});
