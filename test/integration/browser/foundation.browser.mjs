// Foundation scenario (stages B and C): from the command palette, "Kite: Show Kite Log" opens the
// Output panel on the Kite channel, which shows the activation line. In stage C (the packaged VSIX,
// no extensionDevelopmentPath) this proves the installed VSIX activates.
export const vsix = true;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, check, runCommand, screenshot }) {
  await runCommand('Kite: Show Kite Log');
  const panel = page.locator('.part.panel');
  check('Output panel is visible', await panel.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false));
  const line = panel.locator('.view-lines', { hasText: 'Kite activated' });
  check('Kite channel shows "Kite activated"', await line.first().waitFor({ timeout: 20_000 }).then(() => true, (e) => (console.log(e.message), false)));
  const channel = await panel.locator('.monaco-select-box, .output-channel-picker, [aria-label*="Output Channel" i]').first().evaluate((el) => el.value ?? el.textContent ?? '').catch(() => '');
  check('selected channel is Kite', /Kite/.test(channel), channel);
  await screenshot('foundation-kite-log');
}
