// "Kite: Review Changes" as a person uses it (stage B, issue 18 item 14): a run (the real `kite`
// CLI, scripted model) rewrites src/ledger.js and creates src/notes.txt. From the palette, and
// from the run's row in the Runs view, Review Changes opens VS Code's multi-file diff editor with
// both files: the left side is the file at the run's starting commit, the right side the file now.
// Screenshot: review-changes.png.
import { cliRunThatWrites, onlySectionOpen, resetSample } from './kiteScenario.mjs';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, out, check, runCommand, screenshot }) {
  resetSample(workspace);
  const r = cliRunThatWrites(workspace, out);
  const head = (await import('node:child_process')).execFileSync('git', ['rev-parse', 'HEAD'], { cwd: workspace, encoding: 'utf8' }).trim();
  try {
    await runCommand('Kite: Review Changes');
    const which = page.locator('.quick-input-widget input').first();
    if (await which.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await which.fill(r.run);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: r.run }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
    }
    const tab = page.locator('.tabs-container .tab', { hasText: `Kite: ${r.run}` }).first();
    check('a changes editor opens, named after the run', await tab.waitFor({ timeout: 20_000 }).then(() => true, () => false));
    const title = (await tab.getAttribute('aria-label').catch(() => null)) ?? (await tab.textContent());
    check('its title says starting commit ↔ now', title?.includes(`commit ${head.slice(0, 8)} ↔ now`), title);
    const editor = page.locator('.multiDiffEditor, .multi-diff-editor').first();
    check('it is the multi-file diff editor', await editor.waitFor({ timeout: 15_000 }).then(() => true, () => false));
    await editor.locator('.view-lines', { hasText: 'notes from the run' }).first().waitFor({ timeout: 20_000 }).catch(() => {});
    const text = await editor.innerText().catch(() => '');
    check('it lists every file the run changed', /ledger\.js/.test(text) && /notes\.txt/.test(text), text.slice(0, 300));
    // Only the run's line differs (the rest is folded as unchanged): left = starting commit, right = the file now.
    const runLine = await editor.locator('.view-lines', { hasText: 'touched by the run' }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
    const notes = await editor.locator('.view-lines', { hasText: 'notes from the run' }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
    const folded = await editor.locator('text=/\\d+ hidden lines/').count();
    check("ledger.js shows the run's appended line as its one change, the created file as added", runLine && notes && folded > 0, { runLine, notes, folded });
    await screenshot('review-changes');

    // The same from the run's row in the Runs view.
    await runCommand('View: Close All Editors').catch(() => {});
    await page.locator('.activitybar .action-item a[aria-label^="Kite"]').first().click().catch(() => {});
    // A short Runs section (other sections expanded by earlier scenarios) clips the row, and a
    // clipped row's inline actions never show: give Runs the room, then hover the row (a click would open the run).
    const reopen = await onlySectionOpen(page, 'Runs');
    const row = page.locator('.pane', { hasText: 'Runs' }).locator('.monaco-list-row', { hasText: 'F1 — error' }).first(); // newest first: this run
    const rowShown = await row.waitFor({ timeout: 15_000 }).then(() => true, () => false);
    check('the Runs view lists the run', rowShown);
    if (rowShown) {
      await row.hover();
      const action = row.locator('.action-label[aria-label*="Review Changes"]').first();
      const clicked = await action.click({ timeout: 10_000 }).then(() => true, (e) => String(e).split('\n')[0]);
      check('the run\'s row offers Review Changes', clicked === true, clicked);
      if (clicked === true) check('the Runs view row opens the same changes editor', await tab.waitFor({ timeout: 20_000 }).then(() => true, () => false));
    }
    await reopen();
  } finally {
    resetSample(workspace);
  }
}
