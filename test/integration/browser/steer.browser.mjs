// Talking to a running agent like a person (stage B): the Kite view's timeline is open → "Kite: Start
// Agent on Current Feature" (scripted model) → the agent asks to run a command; while that prompt
// waits, type into the timeline's "Tell the agent" box and press Enter → the box says it was sent →
// "Run once" → the log holds the message as a `user` event (reason steer) after the command's
// result and before the next reply, so the next model request carries it; the timeline shows the
// row. Then "Kite: Stop Agent". Screenshots: steer-sent.png (box and prompt), steer.png (the row).
import { clearScript, latestRunEvents, onlyTimelineOpen, resetSample, until, useScript } from './kiteScenario.mjs';

const STEER = 'Keep the old rounding behind a flag named LEGACY_ROUNDING, please.';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, findFrame, screenshot, log }) {
  resetSample(workspace);
  useScript(workspace, 'extension-steer.json');
  const events = () => latestRunEvents(workspace);
  let reopen = async () => {};
  try {
    // The timeline view first: it follows the run as soon as its log appears.
    await runCommand('Kite: Focus on Timeline View');
    const frame = await findFrame('#steer-input', { timeout: 30_000 });
    // Room for the timeline: the Kite container's other sections collapsed (opened again at the end).
    reopen = await onlyTimelineOpen(page);
    check('the timeline view has a "Tell the agent" box', (await frame.locator('label[for="steer-input"]').textContent()) === 'Tell the agent');

    const prompt = page.locator('.quick-input-widget');
    let asked = false;
    for (let attempt = 1; attempt <= 3 && !asked; attempt++) {
      await runCommand('Kite: Start Agent on Current Feature');
      asked = await prompt.filter({ hasText: 'node --version' }).waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
      if (!asked) log(`attempt ${attempt}: no command prompt yet`);
    }
    check('the agent waits for approval of its command (the run is alive)', asked);

    // Type while the agent waits: the prompt stays (it ignores focus moving away).
    await frame.locator('#steer-input').click();
    await frame.locator('#steer-input').fill(STEER);
    await frame.locator('#steer-input').press('Enter');
    const status = frame.locator('#steer-status');
    const sent = await status.filter({ hasText: /Sent to F1/ }).waitFor({ timeout: 15_000 }).then(() => true, () => false);
    check('the box says the message was sent to F1, for its next turn', sent, await status.textContent());
    check('the box is empty again', (await frame.locator('#steer-input').inputValue()) === '');
    check('the command prompt still waits', await prompt.isVisible());
    await screenshot('steer-sent');

    await prompt.locator('.monaco-list-row', { hasText: 'Run once' }).first().click();
    const delivered = await until(page, () => events().some((e) => e.kind === 'model' && e.turn === 2), 30_000);
    check('the agent takes its next turn', delivered);
    const log_ = events();
    const steer = log_.filter((e) => e.kind === 'user' && e.reason === 'steer');
    check('the log holds the message word for word as a user event with reason steer', steer.length === 1 && steer[0].text === STEER, JSON.stringify(steer));
    const toolSeq = log_.find((e) => e.kind === 'tool' && e.id === 'toolu_st_1')?.seq ?? -1;
    const turn2 = log_.find((e) => e.kind === 'model' && e.turn === 2)?.seq ?? -1;
    check('delivered at the next turn: after the command result, before the next reply (so the next request carries it)', steer.length === 1 && toolSeq < steer[0].seq && steer[0].seq < turn2, { toolSeq, steer: steer[0]?.seq, turn2 });

    // The agent asks again (its next command): the log stands still while the rows are read.
    await prompt.filter({ hasText: 'flag plan' }).waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {});
    const row = frame.locator('.row', { hasText: 'You told the agent' }).first();
    check('the timeline shows the message as its own row', await row.waitFor({ timeout: 15_000 }).then(() => true, () => false));
    check('the row shows the words', ((await row.locator('.c-summary').textContent()) ?? '').includes('LEGACY_ROUNDING'));
    await row.locator('.c-summary').click();
    const heading = await frame.locator('#details h2', { hasText: 'You told the agent' }).waitFor({ timeout: 10_000 }).then(() => true, () => false);
    const body = (await frame.locator('#details .body').textContent().catch(() => '')) ?? '';
    check('its details hold the whole message', heading && body.includes(STEER), body.slice(0, 120));
    const turn2Row = frame.locator('.row.k-model', { hasText: 'Turn 2' }).first();
    check("the agent's answer follows in Turn 2", ((await turn2Row.textContent()) ?? '').includes('LEGACY_ROUNDING'));
    await screenshot('steer');

    await page.keyboard.press('Escape');
    await runCommand('Kite: Stop Agent');
    check('the run ends when stopped', await until(page, () => events().some((e) => e.kind === 'session_end'), 20_000));
  } finally {
    await reopen();
    clearScript(workspace);
    resetSample(workspace);
    await runCommand('View: Show Explorer', { timeout: 10_000 }).catch(() => {});
  }
}
