// Approving an agent's write like a person (stage B): command palette → "Kite: Start Agent on Current
// Feature" (scripted model) → the diff opens with Accept / Reject CodeLens on each hunk → click
// "Accept All" (CodeLens) → the second diff → the editor-title "Accept All" button → the command
// prompt → "Run once" → the run ends done: the files hold the proposal, the feature is done and
// committed, the Kite view shows it. Screenshots: approve-diff.png (the diff) and approve-diff-done.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearScript, resetSample, until, useScript } from './kiteScenario.mjs';

// Also in stage C: the packaged VSIX must carry a working harness server (dist/harnessServer.js).
export const vsix = true;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, screenshot, log }) {
  const git = resetSample(workspace);
  useScript(workspace, 'extension-accept.json');
  const commitsBefore = Number(git('rev-list', '--count', 'HEAD'));

  // Room for the diff: hide the (empty) secondary side bar.
  const aux = page.locator('.part.auxiliarybar');
  if (await aux.isVisible().catch(() => false)) {
    await page.keyboard.press('Control+Alt+KeyB');
    if (await aux.isVisible().catch(() => false)) await runCommand('View: Toggle Secondary Side Bar Visibility', { timeout: 5_000 }).catch(() => {});
  }
  const diff = page.locator('.monaco-diff-editor').first();
  let opened = false;
  // The settings file is picked up by a file watcher; if the first start still saw no model, try again.
  for (let attempt = 1; attempt <= 3 && !opened; attempt++) {
    await runCommand('Kite: Start Agent on Current Feature');
    opened = await diff.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
    if (!opened) log(`attempt ${attempt}: no diff yet`);
  }
  check('the proposed write opens as a diff editor', opened);
  const tabTitle = await page.locator('.tabs-container .tab.active').first().textContent().catch(() => '');
  check('the diff tab names the file', /ledger\.js/.test(tabTitle ?? ''), tabTitle);
  const left = await diff.locator('.editor.original .view-lines').first().innerText().catch(() => '');
  check('the left side shows the file as it is', /Number\(fee\.toFixed\(2\)\)/.test(left) || /toFixed/.test(await diff.innerText()), left.slice(0, 80));

  const lenses = diff.locator('.editor.modified .codelens-decoration');
  const acceptLens = lenses.locator('a', { hasText: 'Accept All' }).first();
  check('CodeLens "Accept All" shows on the proposal', await acceptLens.waitFor({ timeout: 15_000 }).then(() => true, () => false));
  const hunkLenses = await lenses.locator('a', { hasText: /^\s*Accept \(/ }).count();
  check('each changed hunk has its own Accept CodeLens', hunkLenses === 2, hunkLenses);
  const titleAccept = page.locator('.editor-actions [aria-label*="Accept All"]').first();
  check('the editor title has an Accept All button', await titleAccept.isVisible().catch(() => false));
  // The Kite view beside the diff: the running feature and the approval waiting in line.
  await page.locator('.activitybar .action-item a[aria-label^="Kite"]').first().click().catch(() => {});
  const waiting = page.locator('.pane', { hasText: 'Pending Approvals' }).locator('.monaco-list-row', { hasText: 'ledger.js' }).first();
  check('the Pending Approvals view lists the write', await waiting.waitFor({ timeout: 10_000 }).then(() => true, () => false));
  const running = page.locator('.pane', { hasText: 'Features' }).locator('.monaco-list-row', { hasText: 'running' }).first();
  check('the Features view shows F1 running', await running.waitFor({ timeout: 10_000 }).then(() => true, () => false));
  await page.mouse.move(700, 450); // no hover tooltip in the picture
  await screenshot('approve-diff');

  await acceptLens.click();
  const ledgerOk = await until(page, () => readFileSync(join(workspace, 'src', 'ledger.js'), 'utf8').includes('Math.round(paise)'), 20_000);
  check('after Accept, src/ledger.js holds the proposal', ledgerOk);

  // Second proposal: a new test file; use the editor-title button this time.
  const second = await page
    .locator('.tabs-container .tab.active', { hasText: 'fees.test.js' })
    .waitFor({ timeout: 20_000 })
    .then(() => true, () => false);
  check('the next proposal (test/fees.test.js) opens', second);
  await page.locator('.editor-actions [aria-label*="Accept All"]').first().click();

  // The command approval: a prompt with the command and its folder; choose "Run once".
  const prompt = page.locator('.quick-input-widget');
  const shown = await prompt.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false);
  const promptText = shown ? await prompt.innerText() : '';
  check('the command prompt shows the command and Run once / Always allow / Deny', shown && /node --version/.test(promptText) && /Run once/.test(promptText) && /Always allow/.test(promptText) && /Deny/.test(promptText), promptText);
  await prompt.locator('.monaco-list-row', { hasText: 'Run once' }).first().click();

  const done = await until(page, () => /"status": "done"/.test(readFileSync(join(workspace, 'kite-progress.json'), 'utf8')) && Number(git('rev-list', '--count', 'HEAD')) > commitsBefore, 45_000);
  check('the run ends done with a commit', done, git('log', '--oneline', '-3'));

  const feature = page.locator('.pane', { hasText: 'Features' }).locator('.monaco-list-row', { hasText: 'F1' }).first();
  const doneRow = page.locator('.pane', { hasText: 'Features' }).locator('.monaco-list-row', { hasText: /F1.*done/ }).first();
  const featureShown = await doneRow.waitFor({ timeout: 15_000 }).then(() => true, () => false);
  const featureText = await feature.textContent().catch(() => '');
  check('the Features view shows F1 done', /done/.test(featureText ?? ''), featureText);
  await screenshot('approve-diff-done');

  // Leave the sample as other scenarios expect it.
  clearScript(workspace);
  resetSample(workspace);
  // Hand the window on as found: the Explorer in the side bar (the Kite view holds a timeline webview too).
  await runCommand('View: Show Explorer', { timeout: 10_000 }).catch(() => {});
}
