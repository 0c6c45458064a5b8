// "Initialize Kite in This Workspace": a starter kite-progress.json and .kite/config.json, each
// pointing at its JSON Schema (completion and errors while editing). Never overwrites a file.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { starterConfig, starterProgress } from './initTemplates';

export async function initWorkspace(root: string): Promise<string[]> {
  const written: string[] = [];
  const progress = join(root, 'kite-progress.json');
  if (!existsSync(progress)) {
    await writeFile(progress, starterProgress(root), { flag: 'wx' });
    written.push('kite-progress.json');
  }
  const config = join(root, '.kite', 'config.json');
  if (!existsSync(config)) {
    await mkdir(join(root, '.kite'), { recursive: true });
    await writeFile(config, starterConfig(), { flag: 'wx' });
    written.push('.kite/config.json');
  }
  if (written.length === 0) {
    void vscode.window.showInformationMessage('Kite is already initialized here (kite-progress.json and .kite/config.json exist).');
  } else {
    await vscode.window.showTextDocument(vscode.Uri.file(progress));
    void vscode.window.showInformationMessage(`Kite: wrote ${written.join(' and ')}. Describe your features, then start the agent.`);
  }
  return written;
}
