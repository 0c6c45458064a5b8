// A pending approval survives a window reload (stage B): the reload ends the harness server with
// its run (no session_end: resumable); on activation Kite resumes the interrupted run from its log
// (kite.resumeInterruptedRuns = "always" here) and the same diff opens again, live. Then the
// editor-title Reject All asks for a reason in an input box, the agent proposes again, and
// "Kite: Stop Agent" ends the run cancelled. Screenshot: approve-diff-reject-reason.png.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { clearScript, resetSample, until, useScript } from './kiteScenario.mjs';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, screenshot, log }) {
  resetSample(workspace);
  useScript(workspace, 'extension-reject-stop.json', { 'kite.resumeInterruptedRuns': 'always' });
  const diff = page.locator('.monaco-diff-editor').first();
  let opened = false;
  for (let attempt = 1; attempt <= 3 && !opened; attempt++) {
    await runCommand('Kite: Start Agent on Current Feature');
    opened = await page.locator('.tabs-container .tab.active', { hasText: 'ledger.js' }).waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (!opened) log(`attempt ${attempt}: no diff yet`);
  }
  check('the proposal diff opens', opened);

  await runCommand('Developer: Reload Window').catch(() => {});
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.statusbar').waitFor({ timeout: 60_000 });
  // A live approval (not a restored tab): its CodeLens come from the resumed run's session.
  const liveLens = diff.locator('.editor.modified .codelens-decoration a', { hasText: 'Reject All' }).first();
  const again = await liveLens.waitFor({ timeout: 40_000 }).then(() => true, () => false);
  const tabCount = await page.locator('.tabs-container .tab', { hasText: 'ledger.js' }).count();
  check('after a window reload the run resumes and the same diff opens again (one tab, live)', again && tabCount === 1, tabCount);

  await page.locator('.editor-actions [aria-label*="Reject All"]').first().click();
  const box = page.locator('.quick-input-widget');
  const asked = await box.waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
  const boxText = asked ? await box.innerText() : '';
  check('Reject All asks why (the agent reads the reason)', /Why\?/.test(boxText), boxText);
  await page.keyboard.type('keep the toFixed rounding for now');
  await screenshot('approve-diff-reject-reason');
  await page.keyboard.press('Enter');

  // The agent proposes again (its request is in the log, then its diff opens); stop it from the palette.
  const runs = join(workspace, '.kite', 'runs');
  const logText = () => readdirSync(runs).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(join(runs, f), 'utf8')).join('\n');
  const asksAgain = await until(page, () => /"kind":"approval_request"[^\n]*"id":"toolu_rej_2"/.test(logText()), 20_000);
  const next = asksAgain && (await diff.locator('.editor.modified .codelens-decoration a', { hasText: 'Reject All' }).first().waitFor({ timeout: 20_000 }).then(() => true, () => false));
  check('the agent proposes again after the rejection', next);
  // The new diff may take focus while the palette opens (closing it): try once more then.
  await runCommand('Kite: Stop Agent').catch(async (e) => {
    log(`retrying Stop Agent: ${e.message.split('\n')[0]}`);
    await page.keyboard.press('Escape');
    await runCommand('Kite: Stop Agent');
  });
  const stopped = await until(page, () => {
    const text = logText();
    return /"status":"cancelled"/.test(text) && text.includes('keep the toFixed rounding for now');
  }, 20_000);
  check('the run ends cancelled, and the log holds the reason the model was told', stopped);
  check('the rejected file is untouched', !readFileSync(join(workspace, 'src', 'ledger.js'), 'utf8').includes('Math.round(paise)'));
  const tabs = await until(page, async () => (await page.locator('.tabs-container .tab', { hasText: 'ledger.js' }).count()) === 0, 10_000);
  check('no approval diff is left open', tabs);

  clearScript(workspace);
  resetSample(workspace);
  // Hand the window on as found: the Explorer in the side bar (the Kite view holds a timeline webview too).
  await runCommand('View: Show Explorer', { timeout: 10_000 }).catch(() => {});
}
