// Initialize in a project that has never seen Kite (issue 18: a new user's first Start Agent must
// not stop at Kite's own uncommitted files): the notification that says what Initialize wrote offers
// Commit; the person clicks it in the Notification Center and exactly the two files Kite wrote are
// committed — what the person had staged stays staged and out of that commit — and the next
// notification offers Start Agent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resetSample } from './kiteScenario.mjs';

/** @param {import('./scenario').ScenarioApi} api */
export async function run({ page, workspace, check, runCommand, screenshot, log }) {
  const git = resetSample(workspace);
  const seen = (locator, timeout = 60_000) => locator.waitFor({ timeout }).then(() => true, () => false);
  const notifications = page.locator('.notifications-center');
  const notice = async (hasText) => {
    if (!(await notifications.isVisible().catch(() => false))) await runCommand('Notifications: Show Notifications');
    const item = notifications.locator('.notification-list-item', { hasText }).first();
    return (await seen(item)) ? item : null;
  };
  try {
    // A project without Kite: the sample with its Kite files removed, committed that way.
    git('rm', '-q', 'kite-progress.json', '.kite/config.json');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '--no-verify', '-m', 'a project without Kite');
    const before = git('rev-parse', 'HEAD');
    // Work of the person's own, staged and not yet committed: Kite's commit must leave it alone.
    writeFileSync(join(workspace, 'AGENTS.md'), 'Notes for agents, staged by the person.\n');
    git('add', 'AGENTS.md');
    await runCommand('Notifications: Clear All Notifications').catch(() => {});

    await runCommand('Kite: Initialize Kite in This Workspace');
    const wrote = await notice('wrote kite-progress.json and .kite/config.json');
    check('Initialize says what it wrote and that a run starts from a clean tree', wrote && /commit both files/.test((await wrote.textContent()) ?? ''), await wrote?.textContent());
    const commit = wrote?.locator('.monaco-button', { hasText: /^Commit$/ });
    check('it offers Commit', commit && (await commit.count()) === 1);
    await screenshot('init-commit-offer');
    if (commit) await commit.click({ timeout: 60_000 });

    const committed = await notice(/committed kite-progress\.json and \.kite\/config\.json/);
    check('a notification says the two files were committed, with the commit', committed && /\([0-9a-f]{8}\)/.test((await committed.textContent()) ?? ''), await committed?.textContent());
    check('and offers Start Agent', committed && (await committed.locator('.monaco-button', { hasText: 'Start Agent' }).count()) === 1);
    const files = git('show', '--name-only', '--format=%s', 'HEAD').split('\n').filter(Boolean);
    check('the commit is "Kite: initialize" with exactly the files Kite wrote', git('rev-parse', 'HEAD^') === before && files[0] === 'Kite: initialize' && files.slice(1).sort().join(',') === '.kite/config.json,kite-progress.json', files);
    const status = git('status', '--porcelain', '--untracked-files=all');
    check("the person's staged file is still staged, and nothing else is left uncommitted", status === 'A  AGENTS.md' || status === 'M  AGENTS.md', status);
    await screenshot('init-commit-done');
  } catch (e) {
    log(`initCommit stopped: ${e}`);
    throw e;
  } finally {
    await runCommand('Notifications: Clear All Notifications').catch(() => {});
    await runCommand('View: Close All Editors').catch(() => {});
    resetSample(workspace);
  }
}
