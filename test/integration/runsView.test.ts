// The Runs view while a run streams into the workspace's log folder (issue 17: the extension host
// is never blocked while a run streams). The view used to list the whole folder at every change of
// the growing log — a readdir, a stat per log (up to 200) and every row sent to the window again,
// four times a second. Now it redraws that run's row alone, and lists the folder only when a log
// comes or goes. The run streams from its own process, as the harness writes (a real run's mix of
// events, ~1 KB each, 50 a second).
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readLogSummary } from '../../src/harness/events/runLogSummary';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, resetWorkspace, waitForAsync } from './extensionHelpers';
import { streamRun, writeBigLog, type StreamingRun } from './loadProcesses';
import { waitFor } from './waitFor';

const RUN = '20261206-130000-STREAM';
const BIG_RUN = '20261206-120000-BIG';

describe('the Runs view while a run streams', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let runsDir = '';
  let run: StreamingRun | null = null;
  // VS Code asks for a row some time after it is told to redraw: checks re-run on a short tick too.
  const tick = new vscode.EventEmitter<void>();
  const ticking = setInterval(() => tick.fire(), 100);

  before(async () => {
    k = await kite();
    runsDir = join(await resetWorkspace(), '.kite', 'runs');
  });
  after(async () => {
    clearInterval(ticking);
    tick.dispose();
    await run?.stop().catch(() => undefined);
    for (const r of [RUN, BIG_RUN]) rmSync(join(runsDir, `${r}.jsonl`), { force: true }); // other suites tell new runs by the logs there
  });

  it("redraws the streaming run's row alone, with the totals of the whole log, and lists the folder only when a log comes", async () => {
    await vscode.commands.executeCommand('kite.runs.focus'); // shown: VS Code asks for its rows
    const redraws: (string | undefined)[] = [];
    const sub = k.onDidChangeRunsView((path) => redraws.push(path));
    try {
      run = await streamRun(runsDir, RUN);
      const log = run.path;
      await waitFor('the Runs view to draw the new run', () => k.runsViewRowsDrawn(log) > 0 || undefined, [tick.event], 30_000);
      await waitFor("a redraw of the run's row alone", () => redraws.includes(log) || undefined, [k.onDidChangeRunsView], 30_000);
      const listings = k.runsViewListings();
      const drawn = k.runsViewRowsDrawn(log);
      const from = redraws.length;
      await waitFor("six more redraws of the run's row", () => redraws.slice(from).filter((p) => p === log).length >= 6 || undefined, [k.onDidChangeRunsView], 30_000);
      const during = redraws.slice(from);
      assert.deepEqual(during.filter((p) => p !== log), [], `only the run's row was redrawn while it streamed: ${JSON.stringify(during)}`);
      assert.equal(k.runsViewListings(), listings, 'the folder was not listed again while the run streamed');
      await waitFor('VS Code to ask for the redrawn row (it holds the element)', () => k.runsViewRowsDrawn(log) >= drawn + 3 || undefined, [tick.event], 10_000);
      const written = await run.stop();
      run = null;
      // What the row says, folded on refresh after refresh, is what one fold of the whole log says.
      const whole = await readLogSummary(log);
      assert.ok(whole.turns > 1, `the run has turns (${written} events written)`);
      await waitForAsync(
        `the Runs view row with the whole log's totals (${whole.turns} turns, ${whole.tokens} tokens)`,
        () => k.runsView(),
        (rows) => rows.some((r) => r.path === log && r.turns === whole.turns && r.tokens === whole.tokens && r.costUsd === whole.costUsd),
        [k.onDidChangeRunsView, tick.event],
        15_000,
      );
    } finally {
      sub.dispose();
    }
  });

  it('lists a big interrupted run at once, counting its totals, and shows them once counted', async () => {
    // Written beside the log folder, then moved in at once: the view's first look at it is below.
    const staging = mkdtempSync(join(runsDir, '..', 'staging-'));
    const written = join(staging, `${BIG_RUN}.jsonl`);
    await writeBigLog(written, 20_001); // ~21 MB, no session_end: a run killed mid-turn
    const whole = await readLogSummary(written);
    assert.equal(whole.outcome, 'open');
    const log = join(runsDir, `${BIG_RUN}.jsonl`);
    renameSync(written, log);
    rmSync(staging, { recursive: true, force: true });
    const first = (await k.runsView()).find((r) => r.path === log);
    assert.ok(first, 'the big run is listed');
    assert.equal(first.counting, true, 'listed before its log is folded');
    // Counted: the view is told to redraw (the row, or every row when the log's arrival is handled
    // in the same refresh) and then lists the whole log's totals.
    await waitForAsync(
      `the big run's row with the whole log's totals (${whole.turns} turns)`,
      () => k.runsView(),
      (rows) => rows.some((r) => r.path === log && !r.counting && r.turns === whole.turns && r.tokens === whole.tokens && r.costUsd === whole.costUsd),
      [k.onDidChangeRunsView],
      30_000,
    );
  });
});
