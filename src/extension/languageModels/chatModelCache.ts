// The chat model for a vendor/family, selected once and kept until VS Code says its models changed
// (vscode.lm.onDidChangeChatModels), as the API intends: each selectChatModels is a round trip to
// the workbench, which under load answered it in seconds; holding the model costs nothing.
import * as vscode from 'vscode';

export class ChatModelCache implements vscode.Disposable {
  private readonly models = new Map<string, vscode.LanguageModelChat>();
  private readonly sub = vscode.lm.onDidChangeChatModels(() => this.models.clear());

  async select(vendor: string, family: string): Promise<vscode.LanguageModelChat | undefined> {
    const key = `${vendor}/${family}`;
    const held = this.models.get(key);
    if (held) return held;
    const [model] = await vscode.lm.selectChatModels({ vendor, family });
    if (model) this.models.set(key, model);
    return model;
  }

  /** After a request failed with NotFound: select again next time. */
  forget(vendor: string, family: string): void {
    this.models.delete(`${vendor}/${family}`);
  }

  dispose(): void {
    this.sub.dispose();
    this.models.clear();
  }
}
