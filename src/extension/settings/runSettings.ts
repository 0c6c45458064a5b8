// Which model and budgets a run started from VS Code gets. Pure (no 'vscode'): unit-tested.
//
// Precedence (also in the setting descriptions and the README):
//   - model:   the `kite.model` setting when set, else `model` in .kite/config.json, else the default
//              Anthropic model. The model is personal (your key, your bill), so your setting wins.
//   - budgets: `budget.*` in .kite/config.json when set (the project's limits are shared with the CLI
//              and CI, so they win); else the `kite.budget.*` setting; else the harness defaults.
import { isAbsolute, resolve } from 'node:path';
import type { Limits } from '../../harness/protocol/events';

export const DEFAULT_MODEL_SPEC = 'anthropic:claude-sonnet-5-5';

export interface KiteSettings {
  model: string; // '' = not set
  budget: { turns: number | null; tokens: number | null; usd: number | null; wallSeconds: number | null };
}

/** The parts of .kite/config.json that compete with settings (null: no file or key absent). */
export interface ConfigFileView {
  model?: string;
  budget?: { turns?: number; tokens?: number; usd?: number; wall_s?: number };
}

export interface EffectiveRunSettings {
  model: string; // a spec the harness accepts; script paths absolute
  modelSource: 'setting' | 'config' | 'default';
  /** Only the limits the config does not set (the harness applies the config's own). */
  limits: Partial<Limits>;
  limitSources: Record<keyof Limits, 'config' | 'setting' | 'default'>;
}

/** "script:rel/path.json" → "script:/abs/path.json"; a bare model id → "anthropic:<id>". */
export function normalizeModelSpec(spec: string, root: string): string {
  const s = spec.trim();
  const m = /^(script|replay):(.+)$/.exec(s);
  if (m) return `${m[1]}:${isAbsolute(m[2]!) ? m[2] : resolve(root, m[2]!)}`;
  if (s.startsWith('anthropic:')) return s;
  return `anthropic:${s}`;
}

export function effectiveRunSettings(settings: KiteSettings, config: ConfigFileView | null, root: string): EffectiveRunSettings {
  let model = DEFAULT_MODEL_SPEC;
  let modelSource: EffectiveRunSettings['modelSource'] = 'default';
  if (settings.model.trim()) {
    model = settings.model;
    modelSource = 'setting';
  } else if (config?.model) {
    model = config.model;
    modelSource = 'config';
  }
  const limits: Partial<Limits> = {};
  const limitSources = { turns: 'default', tokens: 'default', usd: 'default', wall_s: 'default' } as EffectiveRunSettings['limitSources'];
  const pairs: [keyof Limits, number | undefined, number | null][] = [
    ['turns', config?.budget?.turns, settings.budget.turns],
    ['tokens', config?.budget?.tokens, settings.budget.tokens],
    ['usd', config?.budget?.usd, settings.budget.usd],
    ['wall_s', config?.budget?.wall_s, settings.budget.wallSeconds],
  ];
  for (const [key, fromConfig, fromSetting] of pairs) {
    if (fromConfig !== undefined) limitSources[key] = 'config';
    else if (fromSetting !== null && fromSetting > 0) {
      limits[key] = fromSetting;
      limitSources[key] = 'setting';
    }
  }
  return { model: normalizeModelSpec(model, root), modelSource, limits, limitSources };
}

export function needsApiKey(modelSpec: string): boolean {
  return modelSpec.startsWith('anthropic:');
}
