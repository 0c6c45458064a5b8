// The walkthrough's Initialize step (issue 18 leftover): after "Kite: Initialize Kite in This
// Workspace" it must tick even when the Features view is hidden — the usual case with the
// walkthrough open and the Explorer showing. It completes on the command (Initialize always leaves
// the workspace initialized) and on kite.hasProgressFile (a progress file made another way).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STEP = '.getting-started-step[data-step-id="kite-dev.kite#gettingStarted#init"] [role="checkbox"]';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, screenshot }) {
  const progress = join(workspace, 'kite-progress.json');
  const original = readFileSync(progress, 'utf8');
  const features = page.locator('.pane-header .title', { hasText: /^\s*Features\s*$/i });
  try {
    // A workspace without a progress file, as Kite sees it (the Features view says so).
    rmSync(progress);
    await runCommand('View: Show Kite');
    const noFile = page.locator('.welcome-view-content', { hasText: 'This workspace has no kite-progress.json' });
    check('the Features view sees no progress file', await noFile.first().waitFor({ timeout: 20_000 }).then(() => true, () => false));
    await runCommand('View: Show Explorer'); // Kite's views hidden from here on
    check('the Kite views are hidden', await features.first().waitFor({ state: 'hidden', timeout: 10_000 }).then(() => true, () => false));
    await runCommand('Developer: Reset Welcome Page Walkthrough Progress');
    await runCommand('Kite: Get Started with Kite');
    const box = page.locator(STEP);
    await box.waitFor({ timeout: 20_000 });
    check('the Initialize step starts not completed', (await box.getAttribute('aria-checked')) === 'false', await box.getAttribute('aria-label'));
    await runCommand('Kite: Initialize Kite in This Workspace');
    // Initialize opens the progress file; let that editor take the focus before the palette opens again.
    await page.locator('.tabs-container .tab.active', { hasText: 'kite-progress.json' }).first().waitFor({ timeout: 10_000 }).catch(() => {});
    await runCommand('Kite: Get Started with Kite');
    const ticked = await page
      .waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-checked') === 'true', STEP, { timeout: 20_000 })
      .then(() => true, () => false);
    check('after Kite: Initialize the Initialize step is completed', ticked, await page.locator(STEP).getAttribute('aria-label').catch(() => null));
    await screenshot('walkthrough-init');
  } finally {
    writeFileSync(progress, original); // the next scenarios use the sample's features
  }
}
