// Issue 17, "the extension host is never blocked", measured where it matters: inside the real
// extension host, a timeline tab loads a big log while the Kite view follows a run that streams
// 50 events/s. The long-task monitor (KITE_LONG_TASK_LOG's, or one of this test's own: same
// process, same event loop) reports the longest stall. It prints the figure and asserts no
// timing: only that everything arrived and that the monitor measured.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import { LongTaskMonitor } from '../../src/extension/longTaskMonitor';
import { EventWriter } from '../../src/harness/events/writer';
import { ev, strip } from '../helpers/events';
import { writeLargeLog } from '../helpers/largeLog';
import { KITE_ID } from './extensionHelpers';
import { waitFor } from './waitFor';

/** About 50 MB: loads well within a minute on a busy two-core machine. */
const EVENTS = Number(process.env.KITE_IT_TIMELINE_EVENTS ?? 50_000);

describe('timeline load in VS Code: the extension host stays responsive', function () {
  this.timeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'kite-timeline-load-'));
  after(async () => {
    (await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate()).timeline.follow(null);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it(`opens a ${EVENTS.toLocaleString('en-US')}-event log while a run streams at 50 events/s, and reports the longest task`, async () => {
    const api = await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate();
    const t = api.timeline;
    const big = join(dir, '20260301-101500-BIG.jsonl');
    const info = writeLargeLog(big, EVENTS); // synchronous: before the measured window
    const own = api.longTasks ? null : new LongTaskMonitor();
    const monitor = (api.longTasks ?? own) as LongTaskMonitor;
    const writer = EventWriter.create(dir, '20260301-111500-LIVE');
    writer.append(strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })));
    let streamed = 1;
    const stream = setInterval(() => {
      writer.append(strip(ev.user({ text: `streamed event ${streamed}` })));
      streamed++;
    }, 20);
    try {
      await vscode.commands.executeCommand('kite.timeline.follow', writer.path);
      await waitFor('the Kite view to show the streaming run', () => (t.viewState()?.log === writer.path ? true : undefined), [t.onDidApply], 60_000);
      monitor.reset();
      const t0 = performance.now();
      await vscode.commands.executeCommand('kite.openTimeline', big);
      await waitFor('every event of the big log in its tab', () => t.editorStates().find((s) => s.log === big && s.events === info.events), [t.onDidApply], 200_000);
      const loadS = (performance.now() - t0) / 1000;
      const r = monitor.report();
      clearInterval(stream);
      const written = streamed;
      console.log(
        `      extension host while a ${info.events}-event timeline loaded (${loadS.toFixed(1)} s) and ${written} events streamed at 50/s: ` +
          `longest task ${r.longestMs} ms (target <= 50 ms; CPU in it ${r.longest[0]?.cpuMs ?? 0} ms), ${r.over50} over 50 ms, next ${r.longest.slice(1, 5).map((s) => `${s.ms} (CPU ${s.cpuMs})`).join(', ')} ms; ` +
          `event loop delay max ${r.delayMaxMs} ms, p99 ${r.delayP99Ms} ms; garbage collection: longest pause ${r.gc.longestMs} ms, ${r.gc.over50} over 50 ms, ${r.gc.totalMs} ms in all; ${r.samples} samples over ${r.seconds} s${own ? '' : ' (KITE_LONG_TASK_LOG monitor)'}`,
      );
      assert.ok(r.samples > 10, `the monitor measured only ${r.samples} ticks`);
      // The view kept up with the stream meanwhile: it ends up holding every streamed event. (A view
      // hidden by the tab — it is, in this window — reloads when shown: show it.)
      await vscode.commands.executeCommand('kite.timeline.focus');
      await waitFor(
        `the ${written} streamed events in the Kite view`,
        () => (t.viewState()?.log === writer.path && t.viewState()!.events === written ? true : undefined),
        [t.onDidApply],
        30_000,
      ).catch((e: unknown) => {
        throw new Error(`${String(e)}; the view holds ${JSON.stringify(t.viewState())}`);
      });
    } finally {
      clearInterval(stream);
      own?.dispose();
    }
  });
});
