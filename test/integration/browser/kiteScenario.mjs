// Shared by Kite's extension scenarios: a clean sample workspace (real git) and the scripted model.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const repo = new URL('../../..', import.meta.url).pathname;

/** Re-checks `ok` until it holds (files change outside the page: there is no event to wait on). */
export async function until(page, ok, timeout) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await ok()) return true;
    if (Date.now() > end) return false;
    await page.waitForTimeout(200);
  }
}

export function resetSample(ws) {
  const git = (...a) => execFileSync('git', a, { cwd: ws, encoding: 'utf8', stdio: 'pipe' }).trim();
  git('reset', '-q', '--hard', git('rev-list', '--max-parents=0', 'HEAD'));
  git('clean', '-q', '-fd');
  return git;
}

/** kite.* workspace settings (the scripted model); .vscode/ is excluded locally so the git tree stays clean. */
export function useScript(workspace, name, extra = {}) {
  const exclude = join(workspace, '.git', 'info', 'exclude');
  if (!readFileSync(exclude, 'utf8').includes('.vscode/')) appendFileSync(exclude, '\n.vscode/\n');
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const script = join(repo, 'test', 'fixtures', 'scripts', name);
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'kite.model': `script:${script}`, ...extra }, null, 2));
}
