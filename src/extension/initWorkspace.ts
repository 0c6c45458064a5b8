// "Initialize Kite in This Workspace": a starter kite-progress.json and .kite/config.json, each
// pointing at its JSON Schema (completion and errors while editing). Never overwrites a file.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { detectTestCommand, type DetectedCheck } from '../harness/config/detectChecks';
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
    void vscode.window.showInformationMessage(vscode.l10n.t('Kite: wrote {0}. Describe your features, then start the agent.', written.join(' and ')));
    if (written.includes('.kite/config.json')) void proposeCheck(config, detected);
  }
  return written;
}

/** Says which check was proposed (or that none was found) and offers to change it. */
async function proposeCheck(config: string, detected: DetectedCheck | null): Promise<void> {
  const text = detected
    ? `Kite: every run must pass ${detected.command} (found in ${detected.from}) before it is committed. Is that your test command?`
    : 'Kite found no test command (package.json scripts.test, pytest, cargo test, go test, make test). Add one to "checks" in .kite/config.json: a run with nothing to verify it ends unverified, never done.';
  const pick = await vscode.window.showInformationMessage(text, ...(detected ? ['Keep It', 'Change Check…'] : ['Add a Check…']));
  if (pick === 'Change Check…' || pick === 'Add a Check…') await vscode.window.showTextDocument(vscode.Uri.file(config));
}
