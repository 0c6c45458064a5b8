// Evals in the real workbench (issue 15 part 1): "Kite: Run All Evals" runs the suite behind a
// progress notification; its Cancel stops the running case (here a gate that would sleep a
// minute) and the end notification says the run was cancelled. The Evals view shows the case.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../../fixtures/evals/missing-binary/', import.meta.url));

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, screenshot }) {
  const dir = join(workspace, '.kite', 'evals', 'slow-gate');
  cpSync(FIXTURE, dir, { recursive: true });
  const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
  spec.feature.verify = 'sleep 90'; // the gate would hold the case for a minute and a half
  spec.expect = { outcome: 'done' };
  writeFileSync(join(dir, 'case.json'), JSON.stringify(spec, null, 2));
  try {
    const t0 = Date.now();
    await runCommand('Kite: Run All Evals');
    await runCommand('Notifications: Show Notifications');
    // As a toast or in the center (the center can open before the notification exists); the first
    // command of a fresh window also waits for Kite's harness server to start.
    const progress = page.locator('.notification-list-item', { hasText: 'Kite: running 1 eval case' });
    check('a progress notification shows the suite running', await progress.first().waitFor({ timeout: 60_000 }).then(() => true, () => false));
    const cancel = progress.first().locator('.monaco-button', { hasText: 'Cancel' });
    check('it has a Cancel button', await cancel.waitFor({ timeout: 10_000 }).then(() => true, () => false));
    await screenshot('evals-progress');
    await cancel.click();
    const gone = await progress.first().waitFor({ state: 'detached', timeout: 20_000 }).then(() => true, () => false);
    check('Cancel closes the progress notification', gone);
    // The server stops the running case (its gate command is killed) and writes results.json.
    const results = await resultsOf(workspace, t0, 60_000);
    const r = results?.results?.find((x) => x.case === 'slow-gate');
    check('the cancelled case ended cancelled, not after its gate command', r?.outcome === 'cancelled', JSON.stringify(r ?? results));
    check('well before the gate command would have finished', Date.now() - t0 < 80_000, `${Date.now() - t0} ms`);
    await screenshot('evals-cancelled');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await page.keyboard.press('Escape');
  }
}

/** The results.json of a suite run that started after t0, once written (the server writes it when the run ends). */
async function resultsOf(workspace, t0, timeoutMs) {
  const runs = join(workspace, '.kite', 'runs');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    for (const d of existsSync(runs) ? readdirSync(runs) : []) {
      const f = join(runs, d, 'results.json');
      if (d.startsWith('eval-') && existsSync(f) && statSync(f).mtimeMs >= t0) return JSON.parse(readFileSync(f, 'utf8'));
    }
    await new Promise((r) => setTimeout(r, 250)); // a file, not the page: nothing to wait on but the disk
  }
  return null;
}
