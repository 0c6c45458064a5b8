// Shared by Kite's extension scenarios: a clean sample workspace (real git) and the scripted model.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The events of the workspace's newest run log (empty while there is none): the run as Kite logged it. */
export function latestRunEvents(workspace) {
  const runs = join(workspace, '.kite', 'runs');
  try {
    const file = readdirSync(runs).filter((f) => f.endsWith('.jsonl')).sort().pop();
    return file ? readFileSync(join(runs, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  } catch {
    return [];
  }
}

/**
 * Room for one section of the side bar's Kite view: every other expanded section is collapsed
 * (earlier scenarios may have opened Evals or MCP Servers, and a short section clips its rows) and
 * this one is expanded. Returns a function that opens the others again.
 */
export async function onlySectionOpen(page, section) {
  const header = (name) => page.locator('.part.sidebar .pane-header', { has: page.locator('h3.title', { hasText: new RegExp(`^${name}$`) }) }).first();
  const titles = await page.locator('.part.sidebar .pane-header[aria-expanded="true"] h3.title').allTextContents();
  const closed = titles.map((t) => t.trim()).filter((t) => t && t !== section);
  for (const name of closed) await header(name).click().catch(() => {});
  if ((await header(section).getAttribute('aria-expanded').catch(() => null)) === 'false') await header(section).click().catch(() => {});
  return async () => {
    for (const name of closed) if ((await header(name).getAttribute('aria-expanded').catch(() => null)) === 'false') await header(name).click().catch(() => {});
  };
}

/** Room for the Timeline (see onlySectionOpen). */
export function onlyTimelineOpen(page) {
  return onlySectionOpen(page, 'Timeline');
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

/**
 * Back to the default model: the workspace settings emptied, not deleted. Deleting .vscode/ shuts
 * VS Code's watcher on it down ("watched path got deleted"), and the next scenario's settings were
 * then never read (it ran with the previous model).
 */
export function clearScript(workspace) {
  const settings = join(workspace, '.vscode', 'settings.json');
  if (existsSync(settings)) writeFileSync(settings, '{}\n');
}

/**
 * A finished run in the workspace, made by the real `kite` CLI (dist/cli.js) with a scripted model:
 * it rewrites src/ledger.js, then creates src/notes.txt. Returns the log and the seq of each write.
 */
export function cliRunThatWrites(workspace, out) {
  const ledger = readFileSync(join(workspace, 'src', 'ledger.js'), 'utf8');
  const use = (id, input) => ({ content: [{ type: 'tool_use', id, name: 'write_file', input }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 2 } });
  const script = join(out, `cli-run-${Date.now()}.json`);
  mkdirSync(out, { recursive: true });
  writeFileSync(script, JSON.stringify([use('w1', { path: 'src/ledger.js', content: `${ledger}// touched by the run\n` }), use('w2', { path: 'src/notes.txt', content: 'notes from the run\n' })]));
  try {
    execFileSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'run', '--unattended', '--model', `script:${script}`], { cwd: workspace, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' } });
  } catch {
    // The script ends before the agent says done: the run ends error, its writes stay in the tree.
  }
  const runs = join(workspace, '.kite', 'runs');
  const log = join(runs, readdirSync(runs).filter((f) => f.endsWith('.jsonl')).sort().at(-1));
  const events = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const writes = events.filter((e) => e.kind === 'tool' && e.name === 'write_file' && !e.is_error).map((e) => e.seq);
  return { log, writes, run: log.split('/').pop().replace(/\.jsonl$/, ''), ledger };
}
