// Workbench helpers handed to every browser scenario (test/integration/browser/*.browser.mjs).
// They wait on what the workbench renders, never on fixed sleeps.
import { existsSync } from 'node:fs';

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @param {import('playwright-core').Page} page */
export function createHelpers(page, { log }) {
  const quickInput = page.locator('.quick-input-widget input');

  /** Opens the command palette (F1), types the command's full title ("Kite: Show Kite Log") and
   *  runs the row whose label is exactly that title (fuzzy matching may rank others first).
   *  The palette snapshots the command list when it opens, and extensions register theirs a few
   *  seconds after the window loads: reopen it until the row shows up or `timeout` passes. */
  async function runCommand(title, { timeout = 30_000 } = {}) {
    const deadline = Date.now() + timeout;
    const exact = new RegExp(`^\\s*${escapeRe(title)}\\s*$`);
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
    let shown = [];
    for (;;) {
      await page.keyboard.press('F1');
      const open = await quickInput.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
      // The palette can close under us (an editor a previous command opens takes the focus): then
      // fill gives up quickly and the loop opens it again, instead of waiting on a hidden input.
      const filled = open && (await quickInput.fill('>' + title, { timeout: 3_000 }).then(() => true, () => false));
      if (filled) {
        // The palette can also close between finding the row and clicking it (CI: Initialize's
        // editor took the focus): a click that cannot land gives up quickly and the loop reopens it.
        if ((await row.waitFor({ timeout: 3_000 }).then(() => true, () => false)) && (await row.click({ timeout: 3_000 }).then(() => true, () => false))) break;
        shown = await page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents().catch(() => []);
        await page.keyboard.press('Escape');
      }
      if (Date.now() > deadline) throw new Error(`no command titled "${title}" in the palette after ${timeout} ms; it shows: ${JSON.stringify(shown.slice(0, 8))}`);
    }
    await quickInput.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
    log(`ran "${title}"`);
  }

  /** The frame (webview iframes are nested two deep) that contains `selector`; waits up to
   *  `timeout` ms for it to appear. Returns the Playwright Frame. A webview on screen comes first:
   *  Kite's webviews are kept while hidden (retainContextWhenHidden), so a hidden one — the Kite
   *  view behind the Explorer, a tab behind another — can hold the same rows off screen. Only when
   *  no shown frame has it for a few seconds is a hidden one returned (a check of a hidden page's state). */
  async function findFrame(selector, { timeout = 30_000 } = {}) {
    const t0 = Date.now();
    for (;;) {
      let hidden = null;
      for (const f of page.frames()) {
        const el = await f.$(selector).catch(() => null);
        if (!el) continue;
        if (await onScreen(f)) return f;
        hidden ??= f;
      }
      if (hidden && Date.now() - t0 > Math.min(5_000, timeout)) return hidden;
      if (Date.now() - t0 > timeout) throw new Error(`no frame contains ${selector} after ${timeout} ms`);
      await page.waitForTimeout(200); // frames attach asynchronously; re-scan
    }
  }

  /** Whether every iframe that holds `frame` is visible and inside the window. */
  async function onScreen(frame) {
    const size = page.viewportSize() ?? { width: Infinity, height: Infinity };
    for (let f = frame; f.parentFrame(); f = f.parentFrame()) {
      const el = await f.frameElement().catch(() => null);
      if (!el || !(await el.isVisible().catch(() => false))) return false;
      const box = await el.boundingBox().catch(() => null);
      if (!box || box.width === 0 || box.height === 0 || box.x + box.width <= 0 || box.y + box.height <= 0 || box.x >= size.width || box.y >= size.height) return false;
    }
    return true;
  }

  async function waitForFile(path, { timeout = 20_000 } = {}) {
    const t0 = Date.now();
    while (!existsSync(path)) {
      if (Date.now() - t0 > timeout) return false;
      await page.waitForTimeout(100);
    }
    return true;
  }

  async function screenshot(path) {
    await page.screenshot({ path });
    log('screenshot', path);
    return path;
  }

  /** Between scenarios: dismiss pickers and close editors so the next one starts from a calm window. */
  async function reset() {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editors', { timeout: 5_000 }).catch(() => {});
  }

  return { runCommand, findFrame, waitForFile, screenshot, reset };
}
