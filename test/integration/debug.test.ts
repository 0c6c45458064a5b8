// The replay debugger inside a real VS Code: start a session on a fixture log through
// vscode.debug.startDebugging and watch the protocol with a DebugAdapterTracker. It stops at the
// gate failure (the default exception filter), at a breakpoint set on the transcript document,
// and "Replay Run in Debugger" with {log, seq} opens at a write whose frame is a read-only
// kite-file: document of the file at that event (not the live workspace file).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import { testEnv } from './env';
import { writeBigLog } from './loadProcesses';
import { waitFor } from './waitFor';
import { TRANSCRIPT_WINDOW_LINES } from '../../src/harness/replay/debugSession';

interface DapMessage {
  type: string;
  event?: string;
  command?: string;
  body?: Record<string, unknown>;
}

interface Frame {
  id: number;
  name: string;
  line: number;
  source?: { path?: string; name?: string };
}

describe('replay debugger in VS Code', function () {
  this.timeout(60_000);
  const messages: DapMessage[] = [];
  const changed = new vscode.EventEmitter<void>();
  let tracker: vscode.Disposable;
  let log: string;
  let madeFile: string | null = null;

  before(async () => {
    await vscode.extensions.getExtension('kite-dev.kite')?.activate();
    const { workspace, repo } = testEnv();
    const runs = join(workspace, '.kite', 'runs');
    mkdirSync(runs, { recursive: true });
    log = join(runs, `debug-it-${process.pid}.jsonl`);
    copyFileSync(join(repo, 'test/fixtures/logs/demo-run.jsonl'), log);
    // The file the demo run edited, live in the workspace: the write frame must not open it (removed afterwards).
    if (!existsSync(join(workspace, 'ledgerly'))) {
      madeFile = join(workspace, 'ledgerly');
      mkdirSync(madeFile);
      writeFileSync(join(madeFile, 'money.py'), 'from decimal import ROUND_HALF_UP, Decimal\n\n\ndef add_fee(total, rate):\n    """Fee rounded half-up to the paisa."""\n');
    }
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('kite', {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (m: DapMessage) => {
          messages.push(m);
          changed.fire();
        },
      }),
    });
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    tracker.dispose();
    rmSync(log, { force: true });
    if (madeFile) rmSync(madeFile, { recursive: true, force: true });
  });

  const stoppedAfter = (from: number) =>
    waitFor('a stopped event from the kite adapter', () => messages.slice(from).find((m) => m.type === 'event' && m.event === 'stopped'), [changed.event], 30_000);
  const ended = () => new Promise<void>((resolve) => {
    const sub = vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.type === 'kite') {
        sub.dispose();
        resolve();
      }
    });
  });
  const stack = async (session: vscode.DebugSession): Promise<Frame[]> =>
    ((await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: Frame[] }).stackFrames;

  it('starts a replay of a fixture log and stops at the gate failure', async () => {
    const from = messages.length;
    const folder = vscode.workspace.workspaceFolders?.[0];
    const started = await vscode.debug.startDebugging(folder, { type: 'kite', request: 'launch', name: 'IT replay', log, stopOnEntry: false });
    assert.equal(started, true);
    const stopped = await stoppedAfter(from);
    const adapter = messages.slice(from).find((m) => m.type === 'event' && m.event === 'output' && (m.body?.data as { kind?: string } | undefined)?.kind === 'adapter');
    assert.equal((adapter?.body?.data as { pid?: number } | undefined)?.pid, process.pid, 'recorded replays run inline in the extension host');
    assert.equal(stopped.body?.reason, 'exception');
    assert.match(String(stopped.body?.description), /^Gate failed \(attempt 1\): python -m pytest -q tests\/test_rounding.py → exit 4/);
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'kite');
    const frames = await stack(session);
    assert.match(frames[0].name, /^#19 gate/);
    assert.deepEqual(frames.slice(1).map((f) => f.name), ['Turn 4', 'Run demo-run · F4 "Fees round half-up"']);
    // The frame's source is the transcript virtual document, in its own language, at that line.
    const uri = vscode.Uri.parse(String(frames[0].source?.path));
    assert.equal(uri.scheme, 'kite-transcript');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.languageId, 'kite-transcript');
    assert.match(doc.lineAt(frames[0].line - 1).text, /^\s+#19 \d+\.\d+s gate {2}attempt 1 · FAILED/);
    const ev = (await session.customRequest('evaluate', { expression: 'gate.checks[1].exit_code', context: 'watch' })) as { result: string };
    assert.equal(ev.result, '4');
    const end = ended();
    await vscode.debug.stopDebugging(session);
    await end;
  });

  it('stops at a breakpoint set on the transcript document, before the gate failure', async () => {
    const uri = vscode.Uri.from({ scheme: 'kite-transcript', path: `${log}.kite-transcript` });
    const doc = await vscode.workspace.openTextDocument(uri);
    const line = Array.from({ length: doc.lineCount }, (_, i) => doc.lineAt(i).text).findIndex((t) => /^\s+#16 /.test(t));
    assert.ok(line > 0, 'the transcript has a line for #16');
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(line, 0)))]);
    try {
      const from = messages.length;
      await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'IT breakpoint', log, stopOnEntry: false });
      const stopped = await stoppedAfter(from);
      assert.equal(stopped.body?.reason, 'breakpoint');
      const session = vscode.debug.activeDebugSession;
      assert.ok(session);
      assert.match((await stack(session))[0].name, /^#16 policy/);
      const end = ended();
      await vscode.debug.stopDebugging(session);
      await end;
    } finally {
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    }
  });

  it('"Replay Run in Debugger" with {log, seq} opens at that event; a write adds a frame on a read-only document of the file at that event', async () => {
    const from = messages.length;
    const ok = await vscode.commands.executeCommand('kite.replayInDebugger', { log, seq: 35 });
    assert.equal(ok, true);
    const stopped = await stoppedAfter(from);
    assert.equal(stopped.body?.reason, 'entry');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    const frames = await stack(session);
    assert.equal(frames[0].name, 'write ledgerly/money.py');
    assert.equal(vscode.Uri.parse(String(frames[0].source?.path)).scheme, 'kite-file');
    assert.match(frames[1].name, /^#35 tool/);
    // VS Code shows the current frame: the file as the edit at #35 left it (rebuilt from the log),
    // at the docstring the edit added (line 5); the workspace file itself is not opened.
    const editor = await waitFor('the write frame in an editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith('/ledgerly/money.py')), [vscode.window.onDidChangeVisibleTextEditors]);
    assert.equal(editor.document.uri.scheme, 'kite-file');
    assert.match(editor.document.lineAt(4).text, /"""Fee rounded half-up to the paisa\."""/);
    assert.match(editor.document.getText(), /^from decimal import ROUND_HALF_UP, Decimal\n/);
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'file' && e.document.uri.path.endsWith('/ledgerly/money.py')));
    const end = ended();
    await vscode.debug.stopDebugging(session);
    await end;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a log over 8 MiB shows its transcript in parts: a far event opens the part holding it at its line, and a breakpoint set in that part stops there', async function () {
    this.timeout(180_000);
    const big = log.replace(/\.jsonl$/, '-big.jsonl');
    await writeBigLog(big, 12_000);
    const api = (await vscode.extensions.getExtension<KiteApi>('kite-dev.kite')!.activate()).transcripts;
    try {
      let from = messages.length;
      assert.equal(await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'IT big', log: big, stopOnEntry: true }), true);
      await stoppedAfter(from);
      const session = vscode.debug.activeDebugSession;
      assert.ok(session);
      await session.customRequest('setExceptionBreakpoints', { filters: [] }); // only the breakpoint stops
      from = messages.length;
      await session.customRequest('goto', { threadId: 1, targetId: 11_001 });
      await stoppedAfter(from);
      const frame = (await stack(session))[0];
      assert.match(frame.name, /^#11000 /);
      const uri = vscode.Uri.parse(String(frame.source?.path));
      assert.equal(uri.scheme, 'kite-transcript');
      const W = TRANSCRIPT_WINDOW_LINES;
      const [, partFrom, partTo] = (/^lines=(\d+)-(\d+)$/.exec(uri.query) ?? []).map(Number);
      assert.ok(partFrom > 1 && (partFrom - 1) % W === 0 && partTo === partFrom + W - 1, `the part of the transcript holding the event, not the first: ${uri.query}`);
      // VS Code shows the frame: that part, at the event's line.
      const editor = await waitFor('the transcript part in an editor at the frame', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString() && e.selection.active.line === frame.line - 1), [vscode.window.onDidChangeVisibleTextEditors, vscode.window.onDidChangeTextEditorSelection], 60_000);
      const doc = editor.document;
      assert.match(doc.lineAt(frame.line - 1).text, /^\s+#11000 /);
      assert.ok(doc.lineCount < W + 10, `a part of the transcript, not the whole (${doc.lineCount} lines)`);
      const footer = `── lines ${partFrom.toLocaleString('en-US')}–[\\d,]+ \\(this run's transcript is shown in parts of ${W.toLocaleString('en-US')} lines; (stepping past the last line opens the next part|the end of the transcript)\\) ──\n$`;
      assert.match(doc.getText(), new RegExp(footer));
      // A breakpoint on a later event line of this part, then continue.
      let target = frame.line;
      while (!/^\s+#\d+ /.test(doc.lineAt(target).text)) target++;
      const seq = /#(\d+) /.exec(doc.lineAt(target).text)?.[1];
      const bpFrom = messages.length;
      vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(uri, new vscode.Position(target, 0)))]);
      await waitFor('the breakpoint verified by the adapter', () => messages.slice(bpFrom).find((m) => m.type === 'response' && m.command === 'setBreakpoints' && (m.body?.breakpoints as { verified: boolean }[] | undefined)?.[0]?.verified), [changed.event], 30_000);
      from = messages.length;
      await session.customRequest('continue', { threadId: 1 });
      const stopped = await stoppedAfter(from);
      assert.equal(stopped.body?.reason, 'breakpoint');
      assert.match((await stack(session))[0].name, new RegExp(`^#${seq} `));
      const end = ended();
      await vscode.debug.stopDebugging(session);
      await end;
      // No session holds the log any more: a part opened now is made by the extension.
      const readBefore = api.readHere;
      const first = await vscode.workspace.openTextDocument(uri.with({ query: `lines=1-${TRANSCRIPT_WINDOW_LINES}` }));
      assert.match(first.lineAt(0).text, /big/, 'line 1 names the run');
      assert.match(first.getText(), /^ {4}#0 /m);
      assert.equal(api.readHere, readBefore + 1, 'read by the extension once the session ended');
    } finally {
      if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(); // a failure above must not leave it to the next tests
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
      rmSync(big, { force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('F5 with a run log open and no "log" in the configuration replays that log', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(log));
    const from = messages.length;
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'F5' });
    assert.equal(started, true);
    const stopped = await stoppedAfter(from);
    assert.equal(stopped.body?.reason, 'entry');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    assert.equal(session.configuration.log, log, 'the provider filled in the open log');
    assert.match((await stack(session))[0].name, /^#0 session_start/);
    const end = ended();
    await vscode.debug.stopDebugging(session);
    await end;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a "log" relative to the workspace folder (as written in launch.json) is found', async () => {
    const from = messages.length;
    const rel = `.kite/runs/${log.split('/').pop() ?? ''}`;
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'relative', log: rel });
    assert.equal(started, true);
    assert.equal((await stoppedAfter(from)).body?.reason, 'entry');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    assert.equal(session.configuration.log, log);
    const end = ended();
    await vscode.debug.stopDebugging(session);
    await end;
  });

  it('live mode runs the adapter as a separate process (the loop never runs in the extension host)', async () => {
    // A log without a starting commit: the out-of-process adapter must answer launch with the reason.
    const events = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; git_head?: string | null });
    events[0].git_head = null;
    const noHead = log.replace(/\.jsonl$/, '-nohead.jsonl');
    writeFileSync(noHead, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    try {
      const from = messages.length;
      // VS Code shows the failed launch as a modal error, which this test mode refuses: startDebugging rejects.
      const started = await Promise.resolve(vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'IT live', log: noHead, mode: 'live' })).catch(
        (e: unknown) => e,
      );
      assert.notEqual(started, true);
      const launch = await waitFor('the launch response of the live adapter', () => messages.slice(from).find((m) => m.type === 'response' && m.command === 'launch'), [changed.event], 30_000);
      assert.equal((launch as { success?: boolean }).success, false);
      assert.match(String((launch as { message?: string }).message), /records no starting commit/);
      const adapter = messages.slice(from).find((m) => m.type === 'event' && m.event === 'output' && (m.body?.data as { kind?: string } | undefined)?.kind === 'adapter');
      const pid = (adapter?.body?.data as { pid?: number } | undefined)?.pid;
      assert.ok(pid && pid !== process.pid, `the live adapter runs in its own process (adapter pid ${pid}, extension host pid ${process.pid})`);
    } finally {
      rmSync(noHead, { force: true });
      if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    }
  });
});
