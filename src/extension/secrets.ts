// The Anthropic API key lives in VS Code's SecretStorage only: never in settings, logs or files.
// It is handed to the harness server in the startRun/resumeRun params of each run.
import * as vscode from 'vscode';

const KEY = 'kite.anthropicApiKey';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The stored key, else ANTHROPIC_API_KEY from VS Code's environment, else undefined. */
  async get(): Promise<string | undefined> {
    return (await this.secrets.get(KEY)) || process.env.ANTHROPIC_API_KEY || undefined;
  }

  /** Asks for the key (masked); an empty answer removes the stored key. */
  async prompt(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: 'Kite: Anthropic API key',
      prompt: 'Stored in VS Code Secret Storage; never written to settings, logs or the workspace. Leave empty to remove it.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-ant-…',
      validateInput: (v) => (v && !/^\S+$/.test(v.trim()) ? 'The key has no spaces.' : undefined),
    });
    if (value === undefined) return false;
    if (value.trim()) {
      await this.secrets.store(KEY, value.trim());
      void vscode.window.showInformationMessage('Kite: API key stored in Secret Storage.');
    } else {
      await this.secrets.delete(KEY);
      void vscode.window.showInformationMessage('Kite: API key removed.');
    }
    return true;
  }
}
