// Seeing the model work (stage B, issue 18 item 12): the Kite view's timeline is open → "Kite: Start
// Agent on Current Feature" with a scripted model paced like a real one (test/fixtures/scripts/
// extension-stream.json: 6 characters every 120 ms) → the current turn's row fills with the reply
// as it is generated, its thinking collapsed → the logged reply replaces the row. Then "Kite: Stop
// Agent". Screenshot: streaming.png (the turn being written).
import { clearScript, latestRunEvents, onlyTimelineOpen, resetSample, until, useScript } from './kiteScenario.mjs';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, findFrame, screenshot }) {
  resetSample(workspace);
  useScript(workspace, 'extension-stream.json');
  const events = () => latestRunEvents(workspace);
  let reopen = async () => {};
  try {
    await runCommand('Kite: Focus on Timeline View');
    const frame = await findFrame('#steer-input', { timeout: 30_000 });
    reopen = await onlyTimelineOpen(page);

    await runCommand('Kite: Start Agent on Current Feature');
    const row = frame.locator('#stream-row');
    const shown = await row.waitFor({ state: 'visible', timeout: 30_000 }).then(() => true, () => false);
    check('the turn being generated shows in the timeline while the model writes it', shown);
    check('its title says which turn is being generated', (await row.locator('.stream-title').textContent().catch(() => '')) === 'Turn 1 · generating…');
    const thinking = row.locator('details.thinking');
    check('the thinking is shown collapsed, with its length', /^Thinking · \d+ characters$/.test((await thinking.locator('summary').textContent().catch(() => '')) ?? '') && !(await thinking.evaluate((d) => d.open).catch(() => true)));
    const text = () => row.locator('.stream-text').textContent().then((t) => t ?? '', () => '');
    await until(page, async () => (await text()).length >= 30, 20_000);
    const before = await text();
    await page.waitForTimeout(1000);
    const after = await text();
    check('the text grows as the reply streams, from its start', after.length > before.length && after.startsWith(before) && before.startsWith('The fee is computed'), { before, after });
    check('nothing of the reply is in the log yet (it is still being written)', !events().some((e) => e.kind === 'model'));
    await screenshot('streaming');

    const logged = await until(page, () => events().some((e) => e.kind === 'model' && e.turn === 1), 60_000);
    check('the reply lands in the log when the model finishes', logged);
    const gone = await frame.locator('#stream-row').waitFor({ state: 'hidden', timeout: 15_000 }).then(() => true, () => false);
    check('the logged reply replaces the streaming row', gone);
    const turn1 = frame.locator('.row.k-model', { hasText: 'Turn 1' }).first();
    check("Turn 1's row holds the whole reply", ((await turn1.textContent().catch(() => '')) ?? '').includes('The fee is computed in floating point'));
  } finally {
    await runCommand('Kite: Stop Agent').catch(() => {});
    await until(page, () => events().some((e) => e.kind === 'session_end'), 20_000);
    await reopen();
    clearScript(workspace);
    resetSample(workspace);
    await runCommand('View: Show Explorer', { timeout: 10_000 }).catch(() => {});
  }
}
