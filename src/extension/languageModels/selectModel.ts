// "Kite: Select Model…": a quick pick of the language models VS Code offers (what
// vscode.lm.selectChatModels() returns); the pick becomes kite.model = "vscode-lm:<vendor>/<family>",
// written in the workspace's settings when it is set there, else in the user's: the model is the
// person's choice.
import * as vscode from 'vscode';
import { parseVscodeLmSpec, vscodeLmSpec } from '../../harness/protocol/languageModel';

export interface ModelChoice extends vscode.QuickPickItem {
  spec: string;
}

/** One item per vendor/family (selectChatModels may list several versions of one family). */
export async function modelChoices(): Promise<ModelChoice[]> {
  const current = vscode.workspace.getConfiguration('kite').get<string>('model', '');
  const seen = new Set<string>();
  const items: ModelChoice[] = [];
  for (const m of await vscode.lm.selectChatModels()) {
    const spec = vscodeLmSpec(m.vendor, m.family);
    if (seen.has(spec)) continue;
    seen.add(spec);
    items.push({ label: m.name, description: spec, detail: `${m.vendor} · up to ${m.maxInputTokens.toLocaleString('en-US')} input tokens${spec === current ? ' · current' : ''}`, spec });
  }
  return items;
}

type Pick = (items: ModelChoice[], options: vscode.QuickPickOptions) => Thenable<ModelChoice | undefined>;

export async function selectModel(log: vscode.LogOutputChannel, pick: Pick = (i, o) => vscode.window.showQuickPick(i, o)): Promise<string | undefined> {
  const items = await modelChoices();
  if (!items.length) {
    const open = await vscode.window.showInformationMessage(
      vscode.l10n.t('Kite: VS Code offers no language models here (install or sign in to a provider such as GitHub Copilot). Other models (anthropic:, openai:, ollama:…) are set in the setting kite.model.'),
      vscode.l10n.t('Open Settings'),
    );
    if (open) await vscode.commands.executeCommand('workbench.action.openSettings', 'kite.model');
    return undefined;
  }
  const current = vscode.workspace.getConfiguration('kite').get<string>('model', '');
  const chosen = await pick(items, { title: 'Kite: Select Model', placeHolder: parseVscodeLmSpec(current) ? `current: ${current}` : 'a VS Code language model for new runs (kite.model)', matchOnDescription: true });
  if (!chosen) return undefined;
  await vscode.workspace.getConfiguration('kite').update('model', chosen.spec, targetOf());
  log.info(`kite.model set to ${chosen.spec} (Kite: Select Model…)`);
  return chosen.spec;
}

function targetOf(): vscode.ConfigurationTarget {
  const i = vscode.workspace.getConfiguration('kite').inspect<string>('model');
  if (i?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}
