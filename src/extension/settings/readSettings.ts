// Reads the kite.* settings and the competing keys of .kite/config.json (see runSettings.ts for
// which wins). A broken config file is left for the harness to report with its JSON path.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { mergedLevels, userSandbox, type ConfigFileView, type KiteSettings } from './runSettings';

const ConfigView = z.looseObject({
  model: z.string().optional(),
  budget: z.looseObject({ turns: z.number().optional(), tokens: z.number().optional(), usd: z.number().optional(), wall_s: z.number().optional() }).optional(),
  max_gate_failures: z.number().optional(),
});

const Strings = z.array(z.string());

/** kite.policy.allowCommands is an application-scope setting: only the user's own value counts. */
function userList(c: vscode.WorkspaceConfiguration, key: string): string[] {
  const r = Strings.safeParse(c.inspect<unknown>(key)?.globalValue);
  return r.success ? r.data : [];
}

export function readKiteSettings(scope?: vscode.Uri): KiteSettings {
  const c = vscode.workspace.getConfiguration('kite', scope);
  const num = (k: string): number | null => {
    const v = c.get<number | null>(k, null);
    return typeof v === 'number' && v > 0 ? v : null;
  };
  return {
    model: c.get<string>('model', ''),
    budget: { turns: num('budget.turns'), tokens: num('budget.tokens'), usd: num('budget.usd'), wallSeconds: num('budget.wallSeconds') },
    maxGateFailures: num('maxGateFailures'),
    policy: { denyCommands: mergedLevels(c.inspect<unknown>('policy.denyCommands')), allowCommands: userList(c, 'policy.allowCommands') },
    sandbox: userSandbox(c.inspect<unknown>('sandbox')),
  };
}

export async function readConfigView(root: string): Promise<ConfigFileView | null> {
  let text: string;
  try {
    text = await readFile(join(root, '.kite', 'config.json'), 'utf8');
  } catch {
    return null;
  }
  try {
    const r = ConfigView.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
