// The timeline in a real VS Code: the Kite view follows a scripted run live (it switches to the
// new log by itself and shows each event while the run waits for approvals), its row actions open
// the raw event, the full output and the diff of a write (rebuilt from the log and git), and a past
// run opens in its own timeline tab from the Runs view's command or a path.
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { TimelineApi } from '../../src/extension/timeline/registerTimeline';
import type { KiteParts } from '../../src/extension/wireKite';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { testEnv } from './env';
import { KITE_ID, fixtureText, kite, nextRunEnd, readEvents, resetWorkspace, scriptedWrite, useScript, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

function seqOf(events: KiteEvent[], pred: (e: KiteEvent) => boolean, what: string): number {
  const e = events.find(pred);
  assert.ok(e, `no ${what} in the log`);
  return e.seq;
}

function activeDoc(what: string, match: (d: vscode.TextDocument) => boolean): Promise<vscode.TextDocument> {
  return waitFor(
    what,
    () => {
      const d = vscode.window.activeTextEditor?.document;
      return d && match(d) ? d : undefined;
    },
    [vscode.window.onDidChangeActiveTextEditor, vscode.window.onDidChangeVisibleTextEditors],
  );
}

describe('timeline in VS Code', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let t: TimelineApi;
  let runLog = '';
  let runEvents: KiteEvent[] = [];

  before(async () => {
    k = await kite();
    const api = await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate();
    t = api.timeline;
  });
  after(async () => {
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('follows a scripted run live: switches to its log and shows each event while the run waits', async () => {
    const ws = await resetWorkspace();
    k.refreshViews();
    await useScript('extension-accept.json');
    const runsDir = join(ws, '.kite', 'runs');
    const earlier = new Set(((): string[] => {
      try {
        return readdirSync(runsDir).map((n) => join(runsDir, n));
      } catch {
        return [];
      }
    })());
    await vscode.commands.executeCommand('kite.timeline.focus');
    await waitFor('the timeline view to load', () => t.viewState() ?? undefined, [t.onDidApply], 30_000);

    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    const log = await waitFor(
      'the view to follow the new run',
      () => {
        const f = t.followed();
        return f && !earlier.has(f) && t.viewState()?.log === f ? f : undefined;
      },
      [t.onDidApply],
      30_000,
    );

    // The run now waits for the first write's approval: the view already shows that request.
    await waitForProposal('src/ledger.js');
    const request = seqOf(readEvents(log), (e) => e.kind === 'approval_request' && e.id === 'toolu_acc_1', 'approval request');
    const midRun = await waitFor('the approval request in the view', () => {
      const s = t.viewState();
      return s && s.log === log && (s.lastSeq ?? -1) >= request ? s : undefined;
    }, [t.onDidApply]);
    assert.ok(midRun.events >= request + 1);
    assert.ok(!readEvents(log).some((e) => e.kind === 'session_end'), 'the run should still be waiting');

    await vscode.commands.executeCommand('kite.acceptAll');
    await waitForProposal('test/fees.test.js');
    await vscode.commands.executeCommand('kite.acceptAll');
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    assert.equal(end.summary?.logPath, log);

    runEvents = readEvents(log);
    const last = runEvents.at(-1);
    assert.equal(last?.kind, 'session_end');
    const final = await waitFor('every event of the run in the view', () => {
      const s = t.viewState();
      return s && s.log === log && s.lastSeq === last?.seq ? s : undefined;
    }, [t.onDidApply]);
    assert.equal(final.events, runEvents.length);
    runLog = log;
  });

  it('a reloaded view asks again (ready) and rebuilds from a fresh snapshot of the whole log', async () => {
    assert.ok(runLog, 'needs the run of the previous test');
    const seen: number[] = [];
    const sub = t.onDidApply((s) => {
      if (s.log === runLog) seen.push(s.events);
    });
    try {
      await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
      // After the reload the page starts empty; it holds every event again after the snapshot.
      await waitFor('the reloaded view to hold the whole run again', () => (seen.length > 0 && seen.at(-1) === runEvents.length ? true : undefined), [t.onDidApply], 30_000);
    } finally {
      sub.dispose();
    }
    assert.equal(t.viewState()?.lastSeq, runEvents.at(-1)?.seq);
  });

  it('opens the raw event, the full output of a command, and the diff of a write from a row', async () => {
    assert.ok(runLog, 'needs the run of the previous test');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const end = runEvents.at(-1) as KiteEvent;
    assert.ok(t.viewReceive({ type: 'openRaw', seq: end.seq }));
    const raw = await activeDoc('the raw session_end event', (d) => d.uri.scheme === 'kite-timeline' && d.uri.path.endsWith(`/event-${end.seq}.json`));
    assert.deepEqual(JSON.parse(raw.getText()), end);

    const run = runEvents.find((e): e is Extract<KiteEvent, { kind: 'tool' }> => e.kind === 'tool' && e.id === 'toolu_acc_3');
    assert.ok(run);
    t.viewReceive({ type: 'openOutput', seq: run.seq });
    const out = await activeDoc('the output of node --version', (d) => d.uri.scheme === 'kite-timeline' && d.uri.path.endsWith(`/run-${run.seq}.txt`));
    assert.equal(out.getText(), run.output);

    const write = runEvents.find((e) => e.kind === 'tool' && e.id === 'toolu_acc_1') as KiteEvent;
    t.viewReceive({ type: 'openDiff', seq: write.seq });
    const tab = await waitFor(
      'the diff of src/ledger.js',
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((x) => x.input instanceof vscode.TabInputTextDiff && x.input.modified.scheme === 'kite-timeline' && x.label.includes('src/ledger.js')),
      [vscode.window.tabGroups.onDidChangeTabs],
    );
    const input = tab.input as vscode.TabInputTextDiff;
    // Before = the file at the run's starting commit (git); after = what the run wrote.
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), fixtureText('src/ledger.js'));
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), scriptedWrite('extension-accept.json', 'toolu_acc_1'));
    assert.match(tab.label, /before ↔ as applied/);

    // A message the page could never send is refused by the schema and does nothing.
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).length;
    t.viewReceive({ type: 'openRaw', seq: 'all' });
    t.viewReceive({ type: 'runCommand', command: 'rm -rf /' });
    assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, tabs);
  });

  it('opens a past run in its own timeline tab, from the Runs view\'s Open Run and from a path', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const fixture = join(testEnv().repo, 'test', 'fixtures', 'logs', 'demo-run.jsonl');
    await vscode.commands.executeCommand('kite.openTimeline', fixture);
    await waitFor('the demo run in a timeline tab', () => t.editorStates().find((s) => s.log === fixture && s.events === 45 && s.lastSeq === 44), [t.onDidApply], 30_000);
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((x) => x.input instanceof vscode.TabInputCustom && x.input.viewType === 'kite.timelineEditor');
    assert.ok(tab, 'no timeline tab');
    assert.equal((tab.input as vscode.TabInputCustom).uri.fsPath, fixture);

    if (runLog) {
      await vscode.commands.executeCommand('kite.openRun', runLog);
      await waitFor('the run in a second timeline tab', () => t.editorStates().find((s) => s.log === runLog && s.events === runEvents.length), [t.onDidApply], 30_000);
    }
  });

  it('opens a run at an event ({log, seq}: the row is selected once the history is in)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const fixture = join(testEnv().repo, 'test', 'fixtures', 'logs', 'demo-run.jsonl');
    await vscode.commands.executeCommand('kite.openTimeline', { log: fixture, seq: 19 });
    const s = await waitFor('event 19 selected in the tab', () => t.editorStates().find((x) => x.log === fixture && x.selected === 19), [t.onDidApply], 30_000);
    assert.equal(s.events, 45);
  });

  it('a tab hidden behind another editor keeps its page: it follows the log meanwhile and is not read again when shown', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const dir = mkdtempSync(join(tmpdir(), 'kite-hidden-tab-'));
    const log = join(dir, 'hidden-run.jsonl');
    copyFileSync(join(testEnv().repo, 'test', 'fixtures', 'logs', 'demo-run.jsonl'), log);
    const append = (seq: number) => appendFileSync(log, `${JSON.stringify({ v: 1, seq, run: 'demo-run', t: 40 + seq, kind: 'progress', features: [{ id: 'F4', title: 'Fees round half-up', status: 'done' }], proposals: [] })}\n`);
    const state = (events: number) => t.editorStates().find((s) => s.log === log && s.events === events);
    try {
      await vscode.commands.executeCommand('kite.openTimeline', log);
      const first = await waitFor('the run in its tab', () => state(45), [t.onDidApply], 30_000);
      assert.equal(first.pageLoads, 1);
      // Another editor in the same group hides the timeline tab.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'over the timeline' }), { preview: false });
      assert.ok(!vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('hidden-run'), 'the timeline tab is hidden');
      append(45);
      const hidden = await waitFor('the hidden tab to apply the appended event', () => state(46), [t.onDidApply], 30_000);
      assert.equal(hidden.lastSeq, 45);
      await vscode.commands.executeCommand('kite.openTimeline', log);
      append(46);
      const shown = await waitFor('the shown tab to apply the next event', () => state(47), [t.onDidApply], 30_000);
      assert.equal(shown.pageLoads, 1, 'the page was loaded again (and read the whole log again) when shown');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('"Replay from here" starts the replay debugger at that event', async () => {
    assert.ok(runLog, 'needs the run of the first test');
    const model = runEvents.find((e) => e.kind === 'model' && e.turn === 2) as KiteEvent;
    const started = new Promise<vscode.DebugSession>((resolve) => {
      const sub = vscode.debug.onDidStartDebugSession((d) => {
        sub.dispose();
        resolve(d);
      });
    });
    assert.ok(t.viewReceive({ type: 'replayFromHere', seq: model.seq }));
    const session = await started;
    assert.equal(session.type, 'kite');
    assert.equal(session.configuration.seq, model.seq);
    assert.equal(session.configuration.log, runLog);
    await vscode.debug.stopDebugging(session);
  });
});
