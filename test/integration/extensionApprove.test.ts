// Kite's extension in a real VS Code: start the agent from its command with a scripted model on the
// sample workspace, answer the approvals through the same UI paths a person uses (editor-title
// Accept All / Reject All commands, CodeLens on hunks, typing in the proposal, the command prompt's
// choices), and check the file on disk, what the model was told (the log's tool events), the gate,
// the commit and the Features view.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { KiteParts } from '../../src/extension/wireKite';
import {
  approvalEvent,
  click,
  fixtureText,
  headCommit,
  kite,
  KITE_ID,
  lenses,
  nextRunEnd,
  proposalTabs,
  readEvents,
  resetWorkspace,
  scriptedWrite,
  stopRuns,
  toolEvent,
  useScript,
  waitForAsync,
  waitForPending,
  waitForProposal,
} from './extensionHelpers';

describe('extension: approvals in the editor', function () {
  this.timeout(90_000);
  let k: KiteParts;
  let ws: string;

  before(async () => {
    k = await kite();
    const api = await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate();
    console.log(`[kite] activate() took ${api.activationMs.toFixed(1)} ms in this VS Code`); // a figure for the report, not an assertion
  });
  afterEach(async () => {
    await stopRuns(k); // a failed test must not leave a run waiting for the next one
  });
  beforeEach(async () => {
    ws = await resetWorkspace();
    k.refreshViews();
  });
  after(async () => {
    await resetWorkspace(); // leave the sample as the next suite expects it
    const cfg = vscode.workspace.getConfiguration('kite');
    for (const key of ['model', 'budget.turns', 'budget.tokens']) await cfg.update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('Accept All on two diffs, Run once on a command: the gate runs, the run ends done with a commit and the Features view says done', async () => {
    await useScript('extension-accept.json');
    // Precedence: budget.turns is set in the sample's .kite/config.json (20), so it wins over the
    // setting; budget.tokens is not, so the setting applies.
    const cfg = vscode.workspace.getConfiguration('kite');
    await cfg.update('budget.turns', 3, vscode.ConfigurationTarget.Global);
    await cfg.update('budget.tokens', 500_000, vscode.ConfigurationTarget.Global);
    const before = headCommit();
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');

    // The first proposal opens as a diff: left = the file as it is, right = the proposal.
    const ledger = await waitForProposal('src/ledger.js');
    const tab = proposalTabs()[0];
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff);
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(left.getText(), fixtureText('src/ledger.js'));
    assert.equal(ledger.document.getText(), scriptedWrite('extension-accept.json', 'toolu_acc_1'));
    await vscode.commands.executeCommand('kite.acceptAll', ledger.document.uri); // the editor-title button passes the resource

    // The second (a new file) opens next; accept it through its top CodeLens.
    const fees = await waitForProposal('test/fees.test.js');
    const acceptAll = (await lenses(fees.document.uri)).find((l) => /Accept All/.test(l.command?.title ?? ''));
    assert.ok(acceptAll, 'no Accept All CodeLens on the proposal');
    await click(acceptAll);

    // The command approval waits in the Kite view; answer Run once.
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    assert.equal(cmd.command, 'node --version');
    await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });

    const end = await ended;
    assert.equal(end.error, null, end.error?.message);
    assert.equal(end.summary?.outcome, 'done');
    assert.ok(end.summary?.commit, 'no commit');
    assert.notEqual(headCommit(), before);
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), scriptedWrite('extension-accept.json', 'toolu_acc_1'));
    assert.ok(existsSync(join(ws, 'test/fees.test.js')));

    const events = readEvents(end.summary.logPath);
    const start = events[0];
    assert.ok(start?.kind === 'session_start');
    assert.equal(start.limits.turns, 20, '.kite/config.json budget.turns wins over kite.budget.turns');
    assert.equal(start.limits.tokens, 500_000, 'kite.budget.tokens applies where the config is silent');
    assert.equal(approvalEvent(events, 'toolu_acc_1').decision, 'approve');
    assert.equal(toolEvent(events, 'toolu_acc_1').is_error, false);
    const run = toolEvent(events, 'toolu_acc_3');
    assert.equal(run.is_error, false);
    assert.match(run.output, /v\d+\.\d+/);
    const gates = events.filter((e) => e.kind === 'gate');
    assert.ok(gates.length >= 1 && gates.at(-1)?.kind === 'gate' && gates.at(-1)!.passed, 'the gate did not pass');
    assert.equal(proposalTabs().length, 0, 'approval diffs left open');
    assert.equal(k.activeRuns().length, 0);

    const features = await waitForAsync('F1 done in the Features view', () => k.features(), (f) => f[0]?.status === 'done', [k.onDidChangeFeatures]);
    assert.equal(features[0]?.id, 'F1');
  });

  it('partial accept (one hunk of two), an edit before accepting, and a denied command: exact content on disk and the model is told the diff / the reason', async () => {
    await useScript('extension-partial-edit.json');
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');

    const ledger = await waitForProposal('src/ledger.js');
    const hunks = (await lenses(ledger.document.uri)).filter((l) => /^\$\(check\) Accept \(/.test(l.command?.title ?? ''));
    assert.equal(hunks.length, 2, 'expected two hunks with an Accept CodeLens');
    const [first, second] = hunks.sort((a, b) => a.range.start.line - b.range.start.line);
    await click(second!); // keep the addFee fix
    const rejectFirst = (await lenses(ledger.document.uri)).find((l) => l.command?.title === '$(discard) Reject' && l.range.start.line === first!.range.start.line);
    assert.ok(rejectFirst, 'no Reject CodeLens on the first hunk');
    // Reject asks an optional reason (the agent reads it); given here as the command's argument.
    await vscode.commands.executeCommand(rejectFirst.command!.command, ...(rejectFirst.command!.arguments ?? []), 'keep the header comment'); // both hunks decided → answered

    const original = fixtureText('src/ledger.js');
    const proposed = scriptedWrite('extension-partial-edit.json', 'toolu_par_1');
    const expectedLedger = proposed.replace(/^\/\/ A tiny ledger\..*$/m, original.split('\n').find((l) => l.startsWith('// A tiny ledger.'))!);

    // Type into the proposal of the new test file, then Accept All.
    const fees = await waitForProposal('test/fees.test.js');
    const extra = "\ntest('a whole paisa stays', () => {\n  assert.equal(addFee(100, 2), 2);\n});\n";
    assert.ok(await fees.edit((b) => b.insert(fees.document.positionAt(fees.document.getText().length), extra)));
    const expectedFees = scriptedWrite('extension-partial-edit.json', 'toolu_par_2') + extra;
    await vscode.commands.executeCommand('kite.acceptAll');

    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    await vscode.commands.executeCommand('kite.approval.deny', { key: cmd.key, reason: 'no need to check the Node version' });

    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), expectedLedger);
    assert.equal(readFileSync(join(ws, 'test/fees.test.js'), 'utf8'), expectedFees);

    const events = readEvents(end.summary!.logPath);
    const partial = approvalEvent(events, 'toolu_par_1');
    assert.equal(partial.decision, 'edit');
    assert.match(partial.diff ?? '', /^-\/\/ A tiny ledger\. Amounts are rupees/m, 'the diff shows the rejected hunk');
    assert.match(toolEvent(events, 'toolu_par_1').output, /edited your proposal/);
    assert.equal(partial.reason, 'keep the header comment');
    assert.match(toolEvent(events, 'toolu_par_1').output, /They said why: "keep the header comment"/);
    const edited = toolEvent(events, 'toolu_par_2');
    assert.match(edited.output, /\+test\('a whole paisa stays'/, 'the model sees the typed lines as a diff');
    const denied = toolEvent(events, 'toolu_par_3');
    assert.equal(denied.is_error, true);
    assert.match(denied.output, /no need to check the Node version/);
    assert.equal(approvalEvent(events, 'toolu_par_3').decision, 'deny');
  });

  it('Reject All with a reason leaves the file untouched and tells the model; Stop Agent mid-run cancels and closes the pending diff', async () => {
    await useScript('extension-reject-stop.json');
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');

    const first = await waitForProposal('src/ledger.js');
    await vscode.commands.executeCommand('kite.rejectAll', { uri: first.document.uri, reason: 'keep the toFixed rounding for now' });

    // The model proposes again; stop while that approval is pending.
    await waitForPending(k, 'the second proposal', (p) => p.key.endsWith('/toolu_rej_2'));
    assert.equal(await vscode.commands.executeCommand('kite.stopAgent'), true);
    const end = await ended;
    assert.equal(end.summary?.outcome, 'cancelled');
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), fixtureText('src/ledger.js'), 'the file was modified');
    await waitForAsync('the pending diff to close', async () => proposalTabs().length, (n) => n === 0, [vscode.window.tabGroups.onDidChangeTabs]);
    assert.deepEqual(k.pendingApprovals(), []);

    const events = readEvents(end.summary!.logPath);
    const rejected = toolEvent(events, 'toolu_rej_1');
    assert.equal(rejected.is_error, true);
    assert.match(rejected.output, /keep the toFixed rounding for now/);
    assert.match(rejected.output, /not (been )?(modified|written|changed)/i);
    assert.equal(events.at(-1)?.kind, 'session_end');
  });

  it('never overwrites a file with unsaved changes: Accept waits until the person saves or reverts', async () => {
    await useScript('extension-reject-stop.json');
    // The web workbench auto-saves after a delay by default; unsaved changes need it off (the desktop default).
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const target = vscode.Uri.file(join(ws, 'src/ledger.js'));
    const mine = await vscode.window.showTextDocument(target, { preview: false });
    assert.ok(await mine.edit((b) => b.insert(new vscode.Position(0, 0), '// my unsaved note\n')));
    assert.equal(mine.document.isDirty, true);

    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    const proposal = await waitForProposal('src/ledger.js');
    await vscode.commands.executeCommand('kite.acceptAll', proposal.document.uri);
    // Refused: still pending, the disk and the person's buffer untouched.
    assert.ok(k.pendingApprovals().some((p) => p.key.endsWith('/toolu_rej_1')), 'the approval was answered despite unsaved changes');
    assert.equal(readFileSync(target.fsPath, 'utf8'), fixtureText('src/ledger.js'));
    assert.match(mine.document.getText(), /^\/\/ my unsaved note/);

    // The person reverts their buffer; Accept now writes.
    await vscode.window.showTextDocument(mine.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(mine.document.isDirty, false);
    await vscode.commands.executeCommand('kite.acceptAll', proposal.document.uri);
    // The run writes after the answer, then proposes again: once it asks, the write is on disk.
    await waitForPending(k, 'the second proposal', (p) => p.key.endsWith('/toolu_rej_2'));
    assert.equal(readFileSync(target.fsPath, 'utf8').includes('Math.round(paise)'), true);

    await vscode.commands.executeCommand('kite.stopAgent');
    assert.equal((await ended).summary?.outcome, 'cancelled');
  });

  it('rejecting every hunk one by one leaves the file as it is and tells the model', async () => {
    await useScript('extension-reject-stop.json');
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    const proposal = await waitForProposal('src/ledger.js');
    for (let i = 0; i < 2; i++) {
      const reject = (await lenses(proposal.document.uri)).find((l) => l.command?.title === '$(discard) Reject');
      assert.ok(reject, `no Reject CodeLens left (round ${i + 1})`);
      await vscode.commands.executeCommand(reject.command!.command, ...(reject.command!.arguments ?? []), i === 0 ? 'the old comment is right' : '');
    }
    await waitForPending(k, 'the second proposal', (p) => p.key.endsWith('/toolu_rej_2'));
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), fixtureText('src/ledger.js'));
    await vscode.commands.executeCommand('kite.stopAgent');
    const end = await ended;
    const events = readEvents(end.summary!.logPath);
    assert.equal(approvalEvent(events, 'toolu_rej_1').decision, 'deny');
    const told = toolEvent(events, 'toolu_rej_1');
    assert.equal(told.is_error, true);
    assert.match(told.output, /rejected every change in the diff\. Their reasons: "the old comment is right"/);
  });

  it('a file changed on disk after the proposal is not overwritten by Accept without asking', async () => {
    await useScript('extension-reject-stop.json');
    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    const proposal = await waitForProposal('src/ledger.js');
    const mine = fixtureText('src/ledger.js') + '// saved by the person meanwhile\n';
    writeFileSync(join(ws, 'src/ledger.js'), mine);

    // Accept now asks first ("Accept Anyway"); nobody answers that question here.
    const held = new Promise<string>((resolve) => {
      const sub = k.onDidHoldApproval((h) => (sub.dispose(), resolve(h.why)));
    });
    void vscode.commands.executeCommand('kite.acceptAll', proposal.document.uri);
    assert.equal(await held, 'changed_on_disk');
    assert.ok(k.pendingApprovals().some((p) => p.key.endsWith('/toolu_rej_1')), 'answered without asking');
    await vscode.commands.executeCommand('kite.rejectAll', { uri: proposal.document.uri, reason: 'I changed the file myself' });
    await waitForPending(k, 'the second proposal', (p) => p.key.endsWith('/toolu_rej_2'));
    assert.equal(readFileSync(join(ws, 'src/ledger.js'), 'utf8'), mine, "the person's saved change was overwritten");
    await vscode.commands.executeCommand('kite.stopAgent');
    assert.equal((await ended).summary?.outcome, 'cancelled');
  });
});
