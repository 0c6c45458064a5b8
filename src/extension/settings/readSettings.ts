// Reads the kite.* settings and the competing keys of .kite/config.json (see runSettings.ts for
// which wins). A broken config file is left for the harness to report with its JSON path.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import type { ConfigFileView, KiteSettings } from './runSettings';

const ConfigView = z.looseObject({
  model: z.string().optional(),
  budget: z.looseObject({ turns: z.number().optional(), tokens: z.number().optional(), usd: z.number().optional(), wall_s: z.number().optional() }).optional(),
});

export function readKiteSettings(scope?: vscode.Uri): KiteSettings {
  const c = vscode.workspace.getConfiguration('kite', scope);
  const num = (k: string): number | null => {
    const v = c.get<number | null>(k, null);
    return typeof v === 'number' && v > 0 ? v : null;
  };
  return {
    model: c.get<string>('model', ''),
    budget: { turns: num('budget.turns'), tokens: num('budget.tokens'), usd: num('budget.usd'), wallSeconds: num('budget.wallSeconds') },
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
