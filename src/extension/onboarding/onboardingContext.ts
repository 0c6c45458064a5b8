// Context keys behind the walkthrough's completion events and the views' welcome content:
// kite.needsApiKey (the model a run would use needs a key and none is set) and kite.hasRuns, and
// a first read of the Features view's kite.hasProgressFile (set by that view even while hidden).
import * as vscode from 'vscode';
import { layerSettings } from '../../harness/config/settingsLayer';
import { keyProviderOf } from '../../harness/protocol/rpc';
import type { ApiKeyStore } from '../secrets';
import { readRunSettings } from '../settings/readSettings';
import type { RunsTree } from '../views/runsTree';

export class OnboardingContext implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly root: () => string | undefined,
    private readonly keys: ApiKeyStore,
    private readonly runs: RunsTree,
    onWorkspaceChange: vscode.Event<unknown>,
    /** Reads the progress file, which sets kite.hasProgressFile (featuresTree.ts owns that key). */
    private readonly readProgress: () => Promise<unknown>,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration('kite') ? void this.update() : undefined)),
      keys.onDidChange(() => void this.update()),
      // A redraw of one run's row (a run streaming: four times a second) cannot change kite.hasRuns.
      runs.onDidChangeTreeData((node) => (node ? undefined : void this.update())),
      // Re-read on every change: a hidden Features view reads nothing, and after Kite: Initialize the
      // walkthrough's Initialize step must still tick (onContext:kite.hasProgressFile).
      onWorkspaceChange(() => void this.update()),
    );
    void this.update();
  }

  /** The model a new run would use here (setting, else .kite/config.json, else the default). */
  modelSpec(): string {
    try {
      return layerSettings(readRunSettings(), this.root() ?? null).model;
    } catch {
      return ''; // a broken config: the Features view shows the problem, not a key prompt
    }
  }

  async needsApiKey(): Promise<boolean> {
    const provider = keyProviderOf(this.modelSpec());
    return provider !== null && !(await this.keys.get(provider));
  }

  async update(): Promise<void> {
    // Whether there is a run log at all: no log is read (an unfinished one would be folded whole).
    const [needsKey, hasRuns] = await Promise.all([this.needsApiKey(), this.runs.hasRuns().catch(() => false), this.readProgress().catch(() => undefined)]);
    await vscode.commands.executeCommand('setContext', 'kite.needsApiKey', needsKey);
    await vscode.commands.executeCommand('setContext', 'kite.hasRuns', hasRuns);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
