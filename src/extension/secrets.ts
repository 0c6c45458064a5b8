// API keys (Anthropic, OpenAI) live in VS Code's SecretStorage only: never in settings, logs or
// files. They reach the harness server as ANTHROPIC_API_KEY / OPENAI_API_KEY in that process's
// environment (set at launch; a key change restarts an idle server), never in a JSON-RPC message
// a trace could log. Local OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp) need none.
import * as vscode from 'vscode';
import type { KeyProvider } from '../harness/protocol/rpc';
import { keyPersistenceNote } from './keyPersistence';

/** How long a key set in this window lasts (see keyPersistence.ts). */
export function persistenceNote(provider: KeyProvider): string {
  return keyPersistenceNote(vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop', SLOTS[provider].env);
}

interface KeySlot {
  secret: string; // SecretStorage key
  env: string; // the variable the harness reads
  label: string;
  placeholder: string;
}

const SLOTS: Record<KeyProvider, KeySlot> = {
  anthropic: { secret: 'kite.anthropicApiKey', env: 'ANTHROPIC_API_KEY', label: 'Anthropic', placeholder: 'sk-ant-…' },
  openai: { secret: 'kite.openaiApiKey', env: 'OPENAI_API_KEY', label: 'OpenAI', placeholder: 'sk-…' },
};

export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The environment the harness server gets for the model adapters. */
  async env(): Promise<NodeJS.ProcessEnv> {
    const env: NodeJS.ProcessEnv = {};
    for (const slot of Object.values(SLOTS)) {
      const stored = await this.secrets.get(slot.secret);
      if (stored) env[slot.env] = stored;
    }
    return env;
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** The stored key, else the provider's variable from VS Code's environment, else undefined. */
  async get(provider: KeyProvider = 'anthropic'): Promise<string | undefined> {
    const slot = SLOTS[provider];
    return (await this.secrets.get(slot.secret)) || process.env[slot.env] || undefined;
  }

  static label(provider: KeyProvider): string {
    return SLOTS[provider].label;
  }

  /** "Kite: Set API Key…": which provider (unless given), then the key (masked); empty removes it. */
  async prompt(provider?: KeyProvider): Promise<boolean> {
    const which = provider ?? (await this.pickProvider());
    if (!which) return false;
    const slot = SLOTS[which];
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Kite: {0} API key', slot.label),
      prompt: vscode.l10n.t('Stored in VS Code Secret Storage; never written to settings, logs or the workspace. Leave empty to remove it.'),
      password: true,
      ignoreFocusOut: true,
      placeHolder: slot.placeholder,
      validateInput: (v) => (v && !/^\S+$/.test(v.trim()) ? 'The key has no spaces.' : undefined),
    });
    if (value === undefined) return false;
    await this.store(value, which);
    void vscode.window.showInformationMessage(value.trim() ? vscode.l10n.t('Kite: {0} API key stored in Secret Storage. {1}', slot.label, persistenceNote(which)) : vscode.l10n.t('Kite: {0} API key removed.', slot.label));
    return true;
  }

  private async pickProvider(): Promise<KeyProvider | undefined> {
    const items: (vscode.QuickPickItem & { provider: KeyProvider })[] = [
      { label: 'Anthropic', description: 'anthropic:<model> (Claude)', provider: 'anthropic' },
      { label: 'OpenAI', description: 'openai:<model>; local servers (ollama:, lmstudio:, vllm:, llamacpp:) need no key', provider: 'openai' },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Kite: Set API Key…'), placeHolder: vscode.l10n.t('Which provider is the key for?') });
    return pick?.provider;
  }

  /** Stores (or, when empty, removes) the key; what the prompt does with the person's answer. */
  async store(value: string, provider: KeyProvider = 'anthropic'): Promise<void> {
    const slot = SLOTS[provider];
    if (value.trim()) await this.secrets.store(slot.secret, value.trim());
    else await this.secrets.delete(slot.secret);
    this.changed.fire();
  }
}
