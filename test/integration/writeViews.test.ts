// A write the person edited, then a later write to the same file, as the timeline's "Open diff"
// and the replay debugger show them in a real VS Code: both diffs (before ↔ as applied, before ↔
// as proposed) hold the right content under plain titles, the later write starts from the
// person's version, and the debugger's write frame is a read-only kite-file: document with the
// file as that write left it, not the live workspace file.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { TimelineApi } from '../../src/extension/timeline/registerTimeline';
import type { KiteParts } from '../../src/extension/wireKite';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { testEnv } from './env';
import { KITE_ID, approvalEvent, fixtureText, kite, nextRunEnd, readEvents, resetWorkspace, useScript, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

const SCRIPT = 'extension-edit-diffs.json';
const PERSON_LINE = '// Reviewed by a person: amounts in paise.\n';

interface EditInput {
  old_string: string;
  new_string: string;
}

function scriptedEdit(id: string): EditInput {
  const replies = JSON.parse(readFileSync(join(testEnv().repo, 'test', 'fixtures', 'scripts', SCRIPT), 'utf8')) as { content: { type: string; id?: string; input?: EditInput }[] }[];
  for (const r of replies) for (const b of r.content) if (b.id === id && b.input) return b.input;
  throw new Error(`${SCRIPT}: no call ${id}`);
}

const diffTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((x) => x.input instanceof vscode.TabInputTextDiff && x.input.modified.scheme === 'kite-timeline');

async function sides(tab: vscode.Tab): Promise<[string, string]> {
  const input = tab.input as vscode.TabInputTextDiff;
  return [(await vscode.workspace.openTextDocument(input.original)).getText(), (await vscode.workspace.openTextDocument(input.modified)).getText()];
}

describe('writes the person edited, in the timeline diff and the debugger', function () {
  this.timeout(300_000); // one real run: three approvals and a gate that runs npm test in the sandbox
  let k: KiteParts;
  let t: TimelineApi;
  let events: KiteEvent[] = [];
  let log = '';
  const original = () => fixtureText('src/ledger.js');
  const e1 = () => scriptedEdit('toolu_ed_1');
  const e2 = () => scriptedEdit('toolu_ed_2');
  const proposed1 = () => original().replace(e1().old_string, e1().new_string);
  const kept1 = () => proposed1() + PERSON_LINE;
  const after2 = () => kept1().replace(e2().old_string, e2().new_string);
  const toolSeq = (id: string) => {
    const e = events.find((x) => x.kind === 'tool' && x.id === id);
    assert.ok(e, `no tool event for ${id}`);
    return e.seq;
  };
  const openDiff = async (seq: number, pick?: 'first' | 'second'): Promise<vscode.Tab> => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.ok(t.viewReceive({ type: 'openDiff', seq }));
    // An edited write offers a quick pick (first row: before ↔ as applied). VS Code tells an
    // extension nothing when a quick pick opens, so the test answers it as a keyboard would, on
    // each tick until the diff tab is there (with no pick open these commands do nothing).
    const answer = pick
      ? setInterval(() => {
          void (async () => {
            if (pick === 'second') await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
            await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          })();
        }, 400)
      : undefined;
    try {
      return await waitFor('a diff tab from the timeline', () => diffTabs()[0], [vscode.window.tabGroups.onDidChangeTabs], 20_000);
    } finally {
      clearInterval(answer);
    }
  };

  before(async () => {
    k = await kite();
    t = (await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate()).timeline;
    await resetWorkspace();
    k.refreshViews();
    await useScript(SCRIPT);
    await vscode.commands.executeCommand('kite.timeline.focus');
    await waitFor('the timeline view to load', () => t.viewState() ?? undefined, [t.onDidApply], 30_000);
    const ended = nextRunEnd(k, 240_000);
    ended.catch(() => undefined); // awaited below; a step before it fails with its own message
    await vscode.commands.executeCommand('kite.startAgent');
    // The person adds a line to the model's edit_file proposal before accepting it.
    const ledger = await waitForProposal('src/ledger.js', 'toolu_ed_1', 60_000); // the first run of a window starts the harness server
    assert.ok(await ledger.edit((b) => b.insert(ledger.document.positionAt(ledger.document.getText().length), PERSON_LINE)));
    await vscode.commands.executeCommand('kite.acceptAll');
    console.log('[writeViews] accepted the edited toolu_ed_1');
    await waitForProposal('src/ledger.js', 'toolu_ed_2', 40_000);
    await vscode.commands.executeCommand('kite.acceptAll');
    console.log('[writeViews] accepted toolu_ed_2');
    await waitForProposal('test/fees.test.js', undefined, 40_000);
    await vscode.commands.executeCommand('kite.acceptAll');
    console.log('[writeViews] accepted toolu_ed_3; waiting for the gate and the end of the run');
    const end = await ended;
    assert.ok(end.summary, end.error?.message);
    log = end.summary.logPath;
    events = readEvents(log);
    assert.equal(approvalEvent(events, 'toolu_ed_1').decision, 'edit');
    const last = events.at(-1)!;
    t.follow(log);
    await waitFor('the run in the view', () => (t.viewState()?.log === log && t.viewState()?.lastSeq === last.seq ? true : undefined), [t.onDidApply], 30_000);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    await resetWorkspace();
  });

  it('Open diff on an edited edit_file: before ↔ as applied holds the person\'s version, under a plain title', async () => {
    const tab = await openDiff(toolSeq('toolu_ed_1'), 'first');
    assert.equal(tab.label, 'src/ledger.js: before ↔ as applied');
    assert.deepEqual(await sides(tab), [original(), kept1()]);
  });

  it('Open diff on an edited edit_file: before ↔ as proposed holds the model\'s edit applied to the file before', async () => {
    const tab = await openDiff(toolSeq('toolu_ed_1'), 'second');
    assert.equal(tab.label, 'src/ledger.js: before ↔ as proposed');
    assert.deepEqual(await sides(tab), [original(), proposed1()]);
  });

  it('Open diff on a later write to the same file starts from the person\'s version', async () => {
    const tab = await openDiff(toolSeq('toolu_ed_2'));
    assert.equal(tab.label, 'src/ledger.js: before ↔ as applied');
    assert.deepEqual(await sides(tab), [kept1(), after2()]);
    assert.ok(!diffTabs().some((x) => /does not apply|rebuilt/.test(x.label)), 'no internal message in a tab title');
  });

  it('the debugger\'s write frame is a read-only kite-file: document with the file as that write left it', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The live file differs from every version in the log: the frame must not show it.
    writeFileSync(join(testEnv().workspace, 'src/ledger.js'), '// changed after the run\n');
    const ended = new Promise<void>((resolve) => {
      const sub = vscode.debug.onDidTerminateDebugSession((s) => s.type === 'kite' && (sub.dispose(), resolve()));
    });
    assert.equal(await vscode.commands.executeCommand('kite.replayInDebugger', { log, seq: toolSeq('toolu_ed_1') }), true);
    const session = await waitFor('the replay session', () => vscode.debug.activeDebugSession, [vscode.debug.onDidChangeActiveDebugSession], 30_000);
    const editor = await waitFor('the write frame in an editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'kite-file'), [vscode.window.onDidChangeVisibleTextEditors], 30_000);
    assert.equal(editor.document.getText(), kept1());
    assert.ok(editor.document.uri.path.endsWith('/src/ledger.js'));
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.path.endsWith('/src/ledger.js')), 'the live workspace file is not opened');
    // Variables › Tool call: the person's decision and version.
    const frames = ((await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { id: number; name: string }[] }).stackFrames;
    assert.equal(frames[0].name, 'write src/ledger.js');
    const scopes = ((await session.customRequest('scopes', { frameId: frames[0].id })) as { scopes: { name: string; variablesReference: number }[] }).scopes;
    const tool = scopes.find((s) => s.name === 'Tool call');
    assert.ok(tool);
    const vars = ((await session.customRequest('variables', { variablesReference: tool.variablesReference })) as { variables: { name: string; value: string }[] }).variables;
    assert.equal(vars.find((v) => v.name === 'decision')?.value, '"edit"');
    await vscode.debug.stopDebugging(session);
    await ended;
  });
});
