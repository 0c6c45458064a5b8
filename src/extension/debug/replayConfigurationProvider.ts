// launch.json support for `kite`: an initial configuration, and filling in the open log when a
// person presses F5 on a .jsonl without a launch.json (or leaves `log` out).
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { activeLog, pickRun, rootOfLog } from './runLogs';

export class ReplayConfigurationProvider implements vscode.DebugConfigurationProvider {
  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: 'kite', request: 'launch', name: 'Kite: replay run log', log: '${file}', stopOnEntry: true }];
  }

  async resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    const empty = !config.type && !config.request && !config.name;
    if (empty || typeof config.log !== 'string' || !config.log) {
      const log = activeLog() ?? (await pickRun());
      if (!log) {
        void vscode.window.showErrorMessage('Kite: nothing to replay. Open a run log (.kite/runs/*.jsonl) or set "log" in the launch configuration.');
        return undefined;
      }
      config = { ...config, type: 'kite', request: 'launch', name: config.name || `Replay ${basename(log)}`, log, stopOnEntry: config.stopOnEntry ?? true };
    }
    return config;
  }

  resolveDebugConfigurationWithSubstitutedVariables(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration {
    const root = typeof config.log === 'string' && config.root === undefined ? rootOfLog(config.log) : undefined;
    return root ? { ...config, root } : config;
  }
}
