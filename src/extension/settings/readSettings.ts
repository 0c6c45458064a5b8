// Reads the kite.* settings a run depends on exactly as VS Code holds them, every scope (user,
// workspace, folder) apart. What they mean, which scope counts and how they meet
// .kite/config.json is the harness's call (src/harness/config/settingsLayer.ts), made once there.
import * as vscode from 'vscode';
import { RUN_SETTING_KEYS, type RawSettings } from '../../harness/protocol/rpc';

export function readRunSettings(): RawSettings {
  const c = vscode.workspace.getConfiguration('kite');
  const raw: RawSettings = {};
  for (const key of RUN_SETTING_KEYS) {
    const i = c.inspect<unknown>(key);
    if (i) raw[key] = { globalValue: i.globalValue, workspaceValue: i.workspaceValue, workspaceFolderValue: i.workspaceFolderValue };
  }
  return raw;
}
