// Localizable strings (issue 18 item 18), the settings editor: a Kite setting's description is
// its English text from package.nls.json, never a raw "%config.sandbox.markdownDescription%".
export const vsix = true;

const RAW_KEY = /%[\w.]+%/;

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, check, runCommand, screenshot }) {
  // The settings editor: a Kite setting's description.
  await runCommand('Preferences: Open Settings (UI)');
  // The search box is a small Monaco editor, focused when the settings editor opens: type into it.
  const search = page.locator('.settings-editor .suggest-input-container .monaco-editor').first();
  await search.waitFor({ timeout: 15_000 });
  await search.click();
  await page.keyboard.type('kite.sandbox');
  const description = page.locator('.settings-editor .setting-item-description', { hasText: "Where the agent's commands run" });
  check('the kite.sandbox setting is described in English', await description.first().waitFor({ timeout: 15_000 }).then(() => true, () => false));
  const body = await page.locator('.settings-editor .settings-body').textContent().catch(() => '');
  check('no settings text is a raw %key%', !RAW_KEY.test(body ?? ''), (body ?? '').match(RAW_KEY)?.[0]);
  await screenshot('l10n-settings');
}
