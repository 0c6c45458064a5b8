// "Restore Workspace to Here" as a person uses it (stage B, issue 18 item 13): a run (the real
// `kite` CLI, scripted model) rewrites src/ledger.js and creates src/notes.txt; the person then
// edits ledger.js. In the run's timeline tab: click the first write's row → "Restore workspace to
// here" → the list names both files, the person's file unticked → Enter → notes.txt is removed
// (created later), ledger.js keeps the person's edit, the log gets a restore event and the
// timeline shows its row. Then the same from the debugger: replay stopped at the session start →
// the debug toolbar's "Restore Workspace to Here" → tick the changed file too → ledger.js is back
// to the starting commit. Screenshots: restore-pick.png, restore-done.png, restore-debugger.png.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRunThatWrites, resetSample, until } from './kiteScenario.mjs';

const lastKind = (log) => JSON.parse(readFileSync(log, 'utf8').trim().split('\n').at(-1)).kind;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, out, check, runCommand, findFrame, screenshot, log }) {
  resetSample(workspace);
  const r = cliRunThatWrites(workspace, out);
  check('the run wrote twice', r.writes.length === 2, r.writes);
  const ledgerPath = join(workspace, 'src', 'ledger.js');
  const notesPath = join(workspace, 'src', 'notes.txt');
  writeFileSync(ledgerPath, `${r.ledger}// the person's own edit\n`);
  try {
    await runCommand('Kite: Open Timeline');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 15_000 });
    await input.fill(r.run);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: r.run }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    const frame = await findFrame(`.row[data-seq="${r.writes[0]}"]`, { timeout: 30_000 });
    await frame.locator(`.row[data-seq="${r.writes[0]}"] .c-summary`).click();
    const button = frame.locator('#details vscode-button[data-action="restoreToHere"]');
    check('the row offers "Restore workspace to here"', await button.waitFor({ timeout: 10_000 }).then(() => true, () => false));
    await button.click();

    const pick = page.locator('.quick-input-widget');
    const shown = await pick.locator('.monaco-list-row', { hasText: 'src/notes.txt' }).first().waitFor({ timeout: 20_000 }).then(() => true, () => false);
    const text = shown ? await pick.innerText() : '';
    check('the list names the file created later, to be removed', /src\/notes\.txt/.test(text) && /remove/.test(text), text);
    check('the list names the file the person changed, and says so', /src\/ledger\.js/.test(text) && /You changed this file since the run/.test(text), text);
    const ledgerRow = pick.locator('.monaco-list-row', { hasText: 'src/ledger.js' }).first();
    const notesRow = pick.locator('.monaco-list-row', { hasText: 'src/notes.txt' }).first();
    const ticked = async (row) => (await row.getAttribute('aria-checked')) ?? (await row.locator('input[type="checkbox"], .monaco-custom-toggle').first().getAttribute('aria-checked').catch(() => null));
    check('the changed file is unticked, the other ticked', (await ticked(ledgerRow)) === 'false' && (await ticked(notesRow)) === 'true', [await ticked(ledgerRow), await ticked(notesRow)]);
    await screenshot('restore-pick');
    await page.keyboard.press('Enter');

    check('the file created after that event is removed', await until(page, () => !existsSync(notesPath), 15_000));
    check("the person's edit is not overwritten", readFileSync(ledgerPath, 'utf8').includes("the person's own edit"));
    check('the restore is logged in the run log', await until(page, () => lastKind(r.log) === 'restore', 10_000), lastKind(r.log));
    const row = frame.locator('.row .c-title', { hasText: 'Restore' }).first();
    check('the timeline shows the restore row', await row.waitFor({ timeout: 15_000 }).then(() => true, () => false));
    await screenshot('restore-done');

    // From the debugger: replay stopped at the start, then the debug toolbar's command.
    await runCommand('View: Close All Editors').catch(() => {});
    await runCommand('Kite: Replay Run in Debugger');
    const which = page.locator('.quick-input-widget input').first();
    if (await which.waitFor({ timeout: 5_000 }).then(() => true, () => false)) {
      await which.fill(r.run);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: r.run }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
    }
    const tool = page.locator('.debug-toolbar .action-item a[aria-label*="Restore Workspace to Here"]').first();
    check('the debug toolbar offers "Restore Workspace to Here" while stopped', await tool.waitFor({ timeout: 30_000 }).then(() => true, () => false));
    await tool.click();
    const second = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'src/ledger.js' }).first();
    check('the debugger restore lists the file at the stopped event', await second.waitFor({ timeout: 20_000 }).then(() => true, () => false));
    const title = await page.locator('.quick-input-widget .quick-input-title').first().textContent().catch(() => '');
    check('it restores to the event the replay is stopped at (the session start, event 0)', /after event 0\b/.test(title ?? ''), title);
    await second.locator('.monaco-custom-toggle, input[type="checkbox"]').first().click();
    await screenshot('restore-debugger');
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click();
    check('ticked explicitly, the changed file goes back to the starting commit', await until(page, () => readFileSync(ledgerPath, 'utf8') === r.ledger, 15_000));
    await runCommand('Debug: Stop').catch((e) => log(`stop: ${e}`));
  } finally {
    resetSample(workspace);
  }
}
