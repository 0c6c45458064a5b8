// The Anthropic API key lives in VS Code's SecretStorage only: never in settings, logs or files.
// It reaches the harness server as ANTHROPIC_API_KEY in that process's environment (set at launch;
// a key change restarts an idle server), never in a JSON-RPC message a trace could log.
import * as vscode from 'vscode';

const KEY = 'kite.anthropicApiKey';

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The environment the harness server gets for the model adapter. */
  async env(): Promise<NodeJS.ProcessEnv> {
    const stored = await this.secrets.get(KEY);
    return stored ? { ANTHROPIC_API_KEY: stored } : {};
  }

  dispose(): void {
    this.changed.dispose();
  }

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
    await this.store(value);
    void vscode.window.showInformationMessage(value.trim() ? 'Kite: API key stored in Secret Storage.' : 'Kite: API key removed.');
    return true;
  }

  /** Stores (or, when empty, removes) the key; what the prompt does with the person's answer. */
  async store(value: string): Promise<void> {
    if (value.trim()) await this.secrets.store(KEY, value.trim());
    else await this.secrets.delete(KEY);
    this.changed.fire();
  }
}
