// Foundation scenario (stages B and C): from the command palette, "Kite: Show Kite Log" opens the
// Output panel on the Kite channel, whose first line is the activation line. In stage C (the
// packaged VSIX, no extensionDevelopmentPath) this proves the installed VSIX activates.
export const vsix = true;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, check, runCommand, screenshot }) {
  await runCommand('Kite: Show Kite Log');
  const panel = page.locator('.part.panel');
  check('Output panel is visible', await panel.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false));
  const picker = panel.locator('select.monaco-select-box').first();
  const channel = await picker.waitFor({ timeout: 10_000 }).then(() => picker.evaluate((el) => el.value), () => '');
  check('the selected output channel is Kite', channel === 'Kite', channel);
  // Earlier scenarios may have filled the log: Monaco renders only visible lines, so go to line 1.
  const editor = panel.locator('.monaco-editor .view-lines').first();
  await editor.click();
  await page.keyboard.press('Control+Home');
  const first = panel.locator('.view-lines', { hasText: 'Kite activated' }).first();
  check('the Kite log starts with "Kite activated"', await first.waitFor({ timeout: 20_000 }).then(() => true, () => false));
  await screenshot('foundation-kite-log');
}
