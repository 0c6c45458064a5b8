// Localizable strings (issue 18 item 18): package.json holds %key%s and package.nls.json their
// English text. A person must see that text — in the command palette and the Kite views' titles
// (localizedSettings: the settings editor) — never a raw "%command.init.title%". In stage C this also proves the VSIX
// ships package.nls.json.
export const vsix = true;

const RAW_KEY = /%[\w.]+%/;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, check, runCommand, screenshot }) {
  // The palette: every Kite command row reads "Kite: <English title>". runCommand waits (retrying)
  // until the window knows Kite's commands, and finds this one by its English title only.
  await runCommand('Kite: Show Kite Log');
  await page.keyboard.press('Escape');
  const quickInput = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await quickInput.waitFor({ state: 'visible', timeout: 10_000 });
  await quickInput.locator('input').fill('>Kite: ');
  const rows = page.locator('.quick-input-list .monaco-list-row .label-name');
  await rows.first().waitFor({ timeout: 10_000 });
  const shown = await rows.allTextContents();
  check('the palette lists Kite commands', shown.some((t) => t.startsWith('Kite: ')), shown.slice(0, 5));
  check('no palette row shows a raw %key%', !shown.some((t) => RAW_KEY.test(t)), shown.filter((t) => RAW_KEY.test(t)));
  await quickInput.locator('input').fill('>Kite: Initialize');
  const init = page.locator('.quick-input-list .monaco-list-row .label-name', { hasText: /^\s*Kite: Initialize Kite in This Workspace\s*$/ });
  check('"Kite: Initialize Kite in This Workspace" is in the palette in English', await init.first().waitFor({ timeout: 10_000 }).then(() => true, () => false));
  await screenshot('l10n-palette');
  await page.keyboard.press('Escape');

  // The Kite view container: its title and its views' names.
  await runCommand('View: Show Kite');
  const sidebar = page.locator('.part.sidebar');
  const title = sidebar.locator('.composite.title');
  check('the Kite side bar opens titled KITE', await title.filter({ hasText: /kite/i }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false), await title.allTextContents().catch(() => []));
  const headers = sidebar.locator('.pane-header .title');
  await headers.first().waitFor({ timeout: 10_000 }).catch(() => {});
  const names = (await headers.allTextContents()).map((t) => t.trim());
  for (const name of ['Features', 'Pending Approvals', 'Runs', 'Evals', 'Timeline']) check(`the ${name} view is titled in English`, names.some((n) => n.toLowerCase() === name.toLowerCase()), names);
  check('no view title is a raw %key%', !names.some((n) => RAW_KEY.test(n)) && !RAW_KEY.test((await title.allTextContents()).join(' ')), names);
  await screenshot('l10n-views');
}
