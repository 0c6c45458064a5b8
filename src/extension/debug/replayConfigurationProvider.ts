// launch.json support for `kite`: an initial configuration, and filling in the open log when a
// person presses F5 on a .jsonl without a launch.json (or leaves `log` out).
import * as vscode from 'vscode';
import { basename, isAbsolute, join } from 'node:path';
import type { RunLogFolders } from '../runLogFolders';
import { activeLog, pickRun, rootOfLog } from './runLogs';

export class ReplayConfigurationProvider implements vscode.DebugConfigurationProvider {
  constructor(private readonly folders: RunLogFolders) {}

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: 'kite', request: 'launch', name: 'Kite: replay run log', log: '${file}', stopOnEntry: true }];
  }

  async resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    const empty = !config.type && !config.request && !config.name;
    if (empty || typeof config.log !== 'string' || !config.log) {
      const log = activeLog() ?? (await pickRun(this.folders));
      if (!log) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Kite: nothing to replay. Open a run log (.jsonl in the log folder, .kite/runs by default) or set "log" in the launch configuration.'));
        return undefined;
      }
      config = { ...config, type: 'kite', request: 'launch', name: config.name || `Replay ${basename(log)}`, log, stopOnEntry: config.stopOnEntry ?? true };
    }
    return config;
  }

  async resolveDebugConfigurationWithSubstitutedVariables(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration> {
    // A relative "log" (".kite/runs/x.jsonl" in launch.json) means relative to the workspace folder.
    const log = typeof config.log === 'string' && folder && !isAbsolute(config.log) ? join(folder.uri.fsPath, config.log) : config.log;
    const root = typeof log === 'string' && config.root === undefined ? await rootOfLog(log) : undefined;
    return { ...config, log, ...(root ? { root } : {}) };
  }
}
