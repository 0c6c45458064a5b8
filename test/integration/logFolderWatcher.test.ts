// The log folder deleted while VS Code is open (issue 18, the new-user walk): a person deletes
// `.kite/runs` (or the whole `.kite`) — to the trash, as the Explorer and file managers do, which is
// a move: the file system reports the folder, not the logs in it. The Runs view must drop the runs
// that are gone, and when the next run creates the folder again, list that run on its own — no
// Refresh, no reload. The next run here is a `kite run` in a
// terminal (the real CLI of the extension under test): nothing but the file watcher tells the view.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { git, KITE_ID, kite, resetWorkspace } from './extensionHelpers';

type Row = Awaited<ReturnType<KiteParts['runsView']>>[number];

describe('the log folder deleted while VS Code is open', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws = '';
  let script = '';
  const scratch = mkdtempSync(join(tmpdir(), 'kite-log-folder-'));
  let trash = '';

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
    trash = mkdtempSync(join(dirname(ws), 'trash-')); // beside the workspace: same file system, a plain rename
    // One reply: the agent claims done, the gate finds nothing changed, the script runs out (ends error).
    script = join(scratch, 'claims-done.json');
    writeFileSync(script, JSON.stringify([{ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } }]));
  });
  after(async () => {
    await resetWorkspace();
    rmSync(scratch, { recursive: true, force: true });
    rmSync(trash, { recursive: true, force: true });
  });

  /** `kite run` in the workspace, as a person types it in a terminal; resolves when it exits. F1 by
   *  name: after the first run it is no longer todo. */
  const cliRun = (): Promise<void> =>
    new Promise((resolve) => {
      const cli = join(vscode.extensions.getExtension(KITE_ID)!.extensionPath, 'dist', 'cli.js');
      execFile(process.execPath, [cli, 'run', '--feature', 'F1', '--unattended', '--model', `script:${script}`], { cwd: ws, env: { ...process.env, NO_COLOR: '1' } }, () => resolve());
    });

  /**
   * Resolves once the Runs view has been told to redraw AND then lists what `ok` wants: a listing
   * read without a redraw proves nothing about what a person sees (the view keeps its old rows).
   */
  const viewRedrawsTo = (what: string, ok: (rows: Row[]) => boolean, timeoutMs = 20_000): Promise<Row[]> =>
    new Promise((resolve, reject) => {
      let last: Row[] = [];
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for the Runs view to redraw with ${what}; it lists ${JSON.stringify(last.map((r) => r.path))}`));
      }, timeoutMs);
      const sub = k.onDidChangeRunsView(() => {
        void k.runsView().then((rows) => {
          last = rows;
          if (!ok(rows)) return;
          clearTimeout(timer);
          sub.dispose();
          resolve(rows);
        });
      });
    });

  for (const gone of ['.kite/runs', '.kite']) {
    it(`after ${gone} is deleted (to the trash), the next run's folder is watched again: the Runs view lists the new run`, async () => {
      const runs = join(ws, '.kite', 'runs');
      // A run to delete: the folder exists and the view lists it.
      const first = viewRedrawsTo('the first run', (rows) => rows.some((r) => r.path.startsWith(runs)));
      await cliRun();
      const before = await first;

      const emptied = viewRedrawsTo('no run left', (rows) => rows.length === 0);
      renameSync(join(ws, gone), join(trash, `${gone.replace(/\W/g, '_')}-${Date.now()}`));
      await emptied;
      // The sample's .kite/config.json is committed: put it back, or the run refuses the dirty tree.
      git(ws, 'checkout', '--', '.');

      const listed = viewRedrawsTo('the run after the deletion', (rows) => rows.some((r) => r.path.startsWith(runs) && !before.some((b) => b.path === r.path)));
      await cliRun();
      assert.ok(existsSync(runs), 'the run created the log folder again');
      const rows = await listed;
      assert.equal(rows.length, 1, `only the new run is listed: ${JSON.stringify(rows.map((r) => r.path))}`);
      await resetWorkspace(); // the run set F1's status in kite-progress.json
    });
  }
});
