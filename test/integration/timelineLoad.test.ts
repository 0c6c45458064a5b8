// Issue 17, "the extension host is never blocked", measured where it matters: inside the real
// extension host, a timeline tab loads a big log while the Kite view follows a run that streams
// 50 events/s and the replay debugger launches on the big log. The long-task monitor
// (KITE_LONG_TASK_LOG's, or one of this test's own: same process, same event loop) reports the
// longest stall. It prints the figures and asserts no timing: only that everything arrived and
// that the monitor measured.
//   KITE_IT_TIMELINE_EVENTS=1000000   the issue's size (default 20,000: CI runs this on every push)
//   KITE_IT_CPU_PROF=/tmp/host.cpuprofile   also a CPU profile of the extension host over the window
//   KITE_IT_HEAP_PROF=/tmp/host.heapprofile   a sampling heap profile of it over the window, counting
//                                           what was collected too (scripts/heapprofile-summary.mjs)
//   KITE_IT_HEAP_SNAPSHOT=/tmp/host.heapsnapshot   and a heap snapshot of it once the log is loaded
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import { LongTaskMonitor, type Stall } from '../../src/extension/longTaskMonitor';
import { startCpuProfile, writeHeapSnapshot, type CpuProfiler } from './cpuProfile';
import { testEnv } from './env';
import { KITE_ID, resetWorkspace } from './extensionHelpers';
import { streamRun, writeBigLog, type StreamingRun } from './loadProcesses';
import { waitFor } from './waitFor';
import { adapterProcessesOfThisHost, windowScheduling } from './hostProcesses';
import { TRANSCRIPT_WINDOW_LINES } from '../../src/harness/replay/debugSession';

/** The streaming run's id (its log: .kite/runs/<id>.jsonl in the test workspace). */
const LIVE_RUN = '20260301-111500-LIVE';
/** About 50 MB: loads well within a minute on a busy two-core machine. */
const EVENTS = Number(process.env.KITE_IT_TIMELINE_EVENTS ?? 20_000);
/** Budgets grow with the log (a busy two-core machine writes 1M events in ~1-2 min, loads them in a few). */
const PER_M = EVENTS / 1_000_000;
const WRITE_MS = 60_000 + 240_000 * PER_M;
const LOAD_MS = 240_000 + 600_000 * PER_M;

/** What held a stall: the process's CPU in it, the loop thread's wait for a CPU, the hypervisor's steal. */
function inIt(s: Stall | undefined): string {
  if (!s) return 'none';
  const waits = s.runQueueMs === null ? '' : `, the loop's thread ran ${s.ranMs} ms and waited for a CPU ${s.runQueueMs} ms, steal ${s.stealMs} ms`;
  return `process CPU ${s.cpuMs} ms${waits}`;
}

interface DapMessage {
  type: string;
  event?: string;
  body?: Record<string, unknown>;
}

describe('timeline load in VS Code: the extension host stays responsive', function () {
  this.timeout(WRITE_MS + LOAD_MS + 120_000);
  const dir = mkdtempSync(join(tmpdir(), 'kite-timeline-load-'));
  const liveDir = join(testEnv().workspace, '.kite', 'runs');
  const messages: DapMessage[] = [];
  const dapMessage = new vscode.EventEmitter<void>();
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('kite', {
    createDebugAdapterTracker: () => ({
      onDidSendMessage: (m: DapMessage) => {
        messages.push(m);
        dapMessage.fire();
      },
    }),
  });
  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    tracker.dispose();
    (await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate()).timeline.follow(null);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(liveDir, `${LIVE_RUN}.jsonl`), { force: true }); // other suites tell new runs by the logs there
  });

  it(`opens a ${EVENTS.toLocaleString('en-US')}-event log while a run streams at 50 events/s and the debugger launches on it, and reports the longest task`, async () => {
    await resetWorkspace(); // the sample's own config: its log folder is .kite/runs
    const api = await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate();
    const t = api.timeline;
    const big = join(dir, '20260301-101500-BIG.jsonl');
    const tw = performance.now();
    const events = await writeBigLog(big, EVENTS); // in a child process, before the measured window
    const writeS = (performance.now() - tw) / 1000;
    const readHere = api.transcripts.readHere;
    const own = api.longTasks ? null : new LongTaskMonitor();
    const monitor = (api.longTasks ?? own) as LongTaskMonitor;
    let profile: CpuProfiler | null = null;
    let run: StreamingRun | null = null;
    let reported = false;
    try {
      // Into the workspace's log folder, as a run of Kite's (or `kite run` in a terminal) writes:
      // the Runs view and the status bar follow it too while the big log loads.
      run = await streamRun(liveDir, LIVE_RUN);
      const live = run.path;
      await vscode.commands.executeCommand('kite.timeline.follow', live);
      await waitFor('the Kite view to show the streaming run', () => (t.viewState()?.log === live ? true : undefined), [t.onDidApply], 60_000);
      profile = await startCpuProfile(process.env.KITE_IT_CPU_PROF, process.env.KITE_IT_HEAP_PROF);
      monitor.reset();
      const t0 = performance.now();
      const from = messages.length;
      await vscode.commands.executeCommand('kite.openTimeline', big);
      // The replay debugger launches on the same log meanwhile, stopping on entry (as "Replay Run
      // in Debugger" does); VS Code then asks for the stack and shows the top frame.
      const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'IT big replay', log: big, stopOnEntry: true });
      assert.equal(started, true, 'the replay debugger started');
      const stopped = waitFor('the debugger stopped on entry', () => messages.slice(from).find((m) => m.type === 'event' && m.event === 'stopped'), [dapMessage.event], LOAD_MS).then(() => performance.now() - t0);
      stopped.catch(() => undefined); // awaited below; a failure of the load first must not leave it unhandled
      // VS Code shows the stopped frame's transcript in the active group, over the timeline tab;
      // the hidden page goes on loading (it is kept): bring the tab back, as a person would.
      await waitFor('the transcript of the stopped frame in an editor', () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'kite-transcript') || undefined, [vscode.window.onDidChangeVisibleTextEditors], LOAD_MS);
      await vscode.commands.executeCommand('kite.openTimeline', big);
      const loaded = await waitFor('every event of the big log in its tab', () => t.editorStates().find((s) => s.log === big && s.events === events), [t.onDidApply], LOAD_MS);
      assert.equal(loaded.pageLoads, 1, 'the tab read the big log again after the transcript hid it');
      const loadS = (performance.now() - t0) / 1000;
      // The transcript came from the session's adapter, which holds the log's index: never indexed twice.
      assert.equal(api.transcripts.readHere, readHere, `the extension host read the big log for a transcript document: ${api.transcripts.whyReadHere.join(' | ')}`);
      const stopS = (await stopped) / 1000;
      // The adapter was started off the host's loop (replay/adapterSpawn.ts) and VS Code reached it
      // on its socket: not spawned by VS Code on the loop, the fallback.
      const adapters = adapterProcessesOfThisHost();
      assert.equal(adapters.length, 1, `one replay adapter process of this extension host: ${JSON.stringify(adapters)}`);
      assert.ok(adapters[0].servesSocket, 'the adapter serves its socket (started off the loop), not stdio');
      // The first transcript window is served as soon as its lines are indexed, its header saying
      // "reading the log: N events so far"; once the log is indexed the adapter says the text
      // changed and VS Code shows the final header, which counts every event. (At CI's 20,000
      // events the index is complete before VS Code asks for the window; at 1M it is not.)
      // (This log's: documents of other tests' logs can still be open.)
      const firstWindow = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'kite-transcript' && d.uri.path === `${big}.kite-transcript` && d.uri.query === `lines=1-${TRANSCRIPT_WINDOW_LINES}`);
      assert.ok(firstWindow, `the stopped frame's transcript window is open: ${vscode.workspace.textDocuments.map((d) => d.uri.toString()).join(', ')}`);
      await waitFor('the final run header in the first transcript window', () => (firstWindow.lineAt(0).text.endsWith(`· ${events} events`) ? true : undefined), [vscode.workspace.onDidChangeTextDocument], 60_000).catch((e: unknown) => {
        throw new Error(`${String(e)}; its first line: ${firstWindow.lineAt(0).text}`);
      });
      const session = vscode.debug.activeDebugSession;
      assert.ok(session && session.type === 'kite', 'a kite debug session is active');
      const frames = ((await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] }).stackFrames;
      assert.ok(frames.length > 0, 'the stopped replay has a stack');
      const r = monitor.report();
      reported = true;
      await profile.stop();
      await writeHeapSnapshot(process.env.KITE_IT_HEAP_SNAPSHOT);
      const written = await run.stop();
      const scheduling = windowScheduling();
      console.log(
        `      extension host while a ${events}-event timeline loaded (${loadS.toFixed(1)} s; log written outside the host in ${writeS.toFixed(1)} s), ${written} events streamed at 50/s and the debugger launched on the log (stopped on entry after ${stopS.toFixed(1)} s): ` +
          `longest task ${r.longestMs} ms (target <= 50 ms; ${inIt(r.longest[0])}), ${r.over50} over 50 ms (${JSON.stringify(r.over50Why)}); the most the loop's thread itself ran in one ${r.longestRanMs} ms, ${r.over50Ran} over 50 ms; next ${r.longest.slice(1, 5).map((s) => `${s.ms} (${inIt(s)})`).join(', ')} ms; ` +
          `event loop delay max ${r.delayMaxMs} ms, p99 ${r.delayP99Ms} ms; garbage collection: longest pause ${r.gc.longestMs} ms, ${r.gc.over50} over 50 ms ${JSON.stringify(r.gc.over50By)}, ${r.gc.totalMs} ms in all; heap used at most ${r.heapMaxMB} MB; transcript served by the adapter in at most ${api.transcripts.slowestServedMs} ms; ${r.samples} samples over ${r.seconds} s${own ? '' : ' (KITE_LONG_TASK_LOG monitor)'}; scheduling: ${scheduling.text}`,
      );
      assert.ok(r.samples > 10, `the monitor measured only ${r.samples} ticks`);
      // The figure is for the window scheduled as desktop VS Code's is: when run.sh made its group
      // (KITE_IT_ONE_SCHED_GROUP, the default), the browser must be in it with this host.
      if (scheduling.hostInRunGroup) {
        assert.ok(scheduling.browserProcesses > 0 && scheduling.outsideHostGroup === 0, `the window was not scheduled with the extension host: ${scheduling.text}`);
      }
      // The view kept up with the stream meanwhile: it ends up holding every streamed event. (Hidden
      // by the tab in this window, it followed the run all the same; shown, as a person would.)
      await vscode.commands.executeCommand('kite.timeline.focus');
      await waitFor(
        `the ${written} streamed events in the Kite view`,
        () => (t.viewState()?.log === live && t.viewState()!.events === written ? true : undefined),
        [t.onDidApply],
        60_000,
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}; the view holds ${JSON.stringify(t.viewState())}`);
      });
    } finally {
      // A load that did not finish still says how the host fared meanwhile.
      if (!reported && profile) console.log(`      extension host meanwhile (the test failed): ${JSON.stringify(monitor.report())}`);
      await run?.stop().catch(() => undefined);
      own?.dispose();
      await profile?.stop(); // also when the load failed: the profile shows why
      if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    }
  });
});
