// "Initialize Kite in This Workspace": a starter kite-progress.json and .kite/config.json, each
// pointing at its JSON Schema (completion and errors while editing). Never overwrites a file.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { detectTestCommand, type DetectedCheck } from '../harness/config/detectChecks';
import { commitPaths, isGitRepo } from '../harness/progress/git';
import { starterConfig, starterProgress } from './initTemplates';

export async function initWorkspace(root: string): Promise<string[]> {
  const written: string[] = [];
  const progress = join(root, 'kite-progress.json');
  if (!existsSync(progress)) {
    await writeFile(progress, starterProgress(root), { flag: 'wx' });
    written.push('kite-progress.json');
  }
  const config = join(root, '.kite', 'config.json');
  // The gate needs a command (a run with none ends unverified): propose the project's test command.
  const detected = detectTestCommand(root);
  if (!existsSync(config)) {
    await mkdir(join(root, '.kite'), { recursive: true });
    await writeFile(config, starterConfig(detected ? [detected.command] : []), { flag: 'wx' });
    written.push('.kite/config.json');
  }
  if (written.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Kite is already initialized here (kite-progress.json and .kite/config.json exist).'));
  } else {
    await vscode.window.showTextDocument(vscode.Uri.file(progress));
    const text =
      written.length > 1
        ? vscode.l10n.t('Kite: wrote {0}. Describe your features and commit both files (a run starts from a clean tree), then start the agent.', written.join(' and '))
        : vscode.l10n.t('Kite: wrote {0}. Describe your features and commit it (a run starts from a clean tree), then start the agent.', written.join(' and '));
    void offerCommit(root, written, text);
    if (written.includes('.kite/config.json')) void proposeCheck(config, detected);
  }
  return written;
}

/**
 * The message about what was written, with a Commit button: a run refuses to start on uncommitted
 * changes, so a new user's first Start Agent would stop at Kite's own files otherwise.
 */
async function offerCommit(root: string, written: string[], text: string): Promise<void> {
  const commit = vscode.l10n.t('Commit');
  const pick = await vscode.window.showInformationMessage(text, ...(isGitRepo(root) ? [commit] : []));
  if (pick !== commit) return;
  try {
    const sha = commitPaths(root, written, 'Kite: initialize');
    void vscode.window.showInformationMessage(vscode.l10n.t('Kite: committed {0} ({1}). Start the agent when your features are described.', written.join(' and '), sha.slice(0, 8)), vscode.l10n.t('Start Agent')).then((p) => (p ? vscode.commands.executeCommand('kite.startAgent') : undefined));
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Kite: could not commit {0}: {1}', written.join(' and '), (e as Error).message));
  }
}

/** Says which check was proposed (or that none was found) and offers to change it. */
async function proposeCheck(config: string, detected: DetectedCheck | null): Promise<void> {
  const text = detected
    ? vscode.l10n.t('Kite: every run must pass {0} (found in {1}) before it is committed. Is that your test command?', detected.command, detected.from)
    : vscode.l10n.t('Kite found no test command (package.json scripts.test, pytest, cargo test, go test, make test). Add one to "checks" in .kite/config.json: a run with nothing to verify it ends unverified, never done.');
  const change = vscode.l10n.t('Change Check…');
  const add = vscode.l10n.t('Add a Check…');
  const pick = await vscode.window.showInformationMessage(text, ...(detected ? [vscode.l10n.t('Keep It'), change] : [add]));
  if (pick === change || pick === add) await vscode.window.showTextDocument(vscode.Uri.file(config));
}
