// The timeline as a person sees it in the real workbench (stages B and C): a run log in .kite/runs →
// "Kite: Open Timeline" → pick the run → its tab shows the rows (inside VS Code's webview, with the
// real CSP, resource URIs and theme) → click a row, "Raw event" opens the event in an editor → the
// Kite view's Timeline follows the same log. Screenshots: timeline-vscode.png, timeline-view.png.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const vsix = true;

const repo = new URL('../../..', import.meta.url).pathname;
const RUN = '20260301-101500-F4';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, findFrame, screenshot, log }) {
  const runs = join(workspace, '.kite', 'runs');
  const logPath = join(runs, `${RUN}.jsonl`);
  mkdirSync(runs, { recursive: true });
  writeFileSync(join(runs, '.gitignore'), '*\n');
  copyFileSync(join(repo, 'test', 'fixtures', 'logs', 'demo-run.jsonl'), logPath);
  try {
    await runCommand('Kite: Open Timeline');
    const input = page.locator('.quick-input-widget input').first();
    check('Open Timeline asks which run', await input.waitFor({ timeout: 15_000 }).then(() => true, () => false));
    await input.fill(RUN);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: RUN }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');

    const frame = await findFrame('.row[data-seq="3"]', { timeout: 30_000 });
    check('the run opens in a timeline tab', await page.locator('.tabs-container .tab', { hasText: RUN }).first().isVisible());
    await frame.locator('#count').filter({ hasText: '45 events' }).waitFor({ timeout: 10_000 }).catch(() => {});
    check('the tab counts the 45 events of the run', (await frame.locator('#count').textContent()) === '45 events', await frame.locator('#count').textContent());
    // The count is written with the batch; its rows are drawn on the next frame. The list draws only
    // the rows in view (the editor may be short: the Output panel is open in stage C), so look at the first turn.
    const turn1 = frame.locator('.row.head .c-title', { hasText: /^Turn 1$/ });
    await turn1.first().waitFor({ timeout: 10_000 }).catch(() => {});
    check('turn rows are grouped', (await turn1.count()) === 1 && (await frame.locator('.row.head').count()) >= 2);
    check('the header shows the outcome', (await frame.locator('#run-badge').textContent()) === 'done');
    // One path per stack, a subpath per bar ("M x bottom h0.84 v height h-0.84 z"): count the bars' x.
    const bars = await frame.locator('#chart-tokens').evaluate((el) => new Set([...el.querySelectorAll('path.bar')].flatMap((p) => [...(p.getAttribute('d') ?? '').matchAll(/M([\d.]+) /g)].map((m) => Math.floor(Number(m[1]))))).size);
    check('the tokens chart has a bar per turn', bars === 8, bars);
    const bg = await frame.locator('body').evaluate((b) => getComputedStyle(b).color);
    check('the page uses the theme colours VS Code injects', bg !== 'rgb(0, 0, 0)' && bg !== '', bg);

    // Errors only: the failed gate comes into view whatever the window height; click it.
    await frame.locator('#errors-only').click();
    await frame.locator('#count').filter({ hasText: '3 of 45 events' }).waitFor({ timeout: 10_000 }).catch(() => {});
    check('"Errors only" keeps the 3 errors', (await frame.locator('#count').textContent()) === '3 of 45 events', await frame.locator('#count').textContent());
    await frame.locator('.row[data-seq="19"] .c-summary').click();
    check('a click shows the details of the failed gate', /Gate failed/.test((await frame.locator('#details h2').textContent()) ?? ''));
    await screenshot('timeline-vscode');
    await frame.locator('#details vscode-button[data-action="openRaw"]').click();
    await frame.locator('#errors-only').click().catch(() => {});
    const raw = page.locator('.tabs-container .tab', { hasText: 'event-19.json' }).first();
    check('"Raw event" opens the event in an editor', await raw.waitFor({ timeout: 15_000 }).then(() => true, () => false));
    const text = await page.locator('.editor-instance .view-lines').first().innerText().catch(() => '');
    check('the raw event is the gate result from the log', /"kind":\s*"gate"/.test(text), text.slice(0, 120));

    // The Kite view follows the newest log of the workspace (this one).
    await runCommand('View: Close All Editors').catch(() => {});
    await runCommand('Kite: Focus on Timeline View').catch((e) => log(`focus command: ${e}`));
    const view = await findFrame('#run-title', { timeout: 30_000 }).catch(() => null);
    check('the Kite view shows a timeline', view !== null);
    if (view) {
      await view.locator('#count').filter({ hasText: '45 events' }).waitFor({ timeout: 20_000 }).catch(() => {});
      const shown = { count: await view.locator('#count').textContent(), empty: await view.locator('#empty').textContent(), hidden: await view.locator('#empty').isHidden(), title: await view.locator('#run-title').textContent() };
      check('the view shows the run', shown.count === '45 events' && (await view.locator('.row').count()) > 0, JSON.stringify(shown));
      await screenshot('timeline-view');
    }
  } finally {
    rmSync(logPath, { force: true });
  }
}
