// The one place where the kite.* settings (sent raw by the VS Code extension) meet
// .kite/config.json. The table is also in the setting descriptions and the README:
//   - model:   the `kite.model` setting when set, else `model` in .kite/config.json, else the default
//              Anthropic model. The model is personal (your key, your bill), so your setting wins.
//   - budgets: `budget.*` in .kite/config.json when set (the project's limits are shared with the CLI
//              and CI, so they win); else the `kite.budget.*` setting; else the harness defaults.
//   - kite.maxGateFailures: like a budget — `max_gate_failures` in .kite/config.json wins; the
//              setting fills in when the config leaves it out; else the harness default (3).
//   - policy:  settings only ever add to the workspace policy, never loosen it:
//              kite.policy.denyCommands merge with the config's deny list (and are checked even
//              before the config's own rules, so a workspace "allow" cannot override them);
//              kite.policy.allowCommands let matching commands run without asking in ATTENDED runs
//              only (every run started from VS Code is attended) — unattended runs (CLI, CI) follow
//              .kite/config.json alone. The deny lists and the config's rules still win over them.
//   - sandbox: the user-scope `kite.sandbox` alone ("off" is the only opt-out from VS Code); it is
//              always applied, so a `"sandbox": "off"` in .kite/config.json or a workspace/folder
//              kite.sandbox value cannot turn the sandbox off by itself (those are ignored, and logged).
// Which scope of a setting counts is settingScopes.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { defaultModelSpec, normalizeSpec } from '../model/index';
import type { Limits } from '../protocol/events';
import type { RawSettings, ResolvedSettings } from '../protocol/rpc';
import { CONFIG_FILE, KiteConfigFileSchema, type ConfigOverrides, type KiteConfigFile } from './config';
import { parseJsonWithComments } from './jsonText';
import { kiteSettingsOf, type KiteSettings, type SandboxSwitch } from './settingScopes';

export type { KiteSettings } from './settingScopes';

/** The limits a kite.budget.* setting can fill in (per_tool lives in .kite/config.json only). */
type SettableLimit = Exclude<keyof Limits, 'per_tool'>;

/** A setting the harness could not use, named for the person (e.g. kite.policy.denyCommands[2]). */
export type SettingProblem = ResolvedSettings['problems'][number];

/** The parts of .kite/config.json that compete with settings (null: no usable file). */
export type ConfigFileView = Pick<KiteConfigFile, 'model' | 'budget' | 'max_gate_failures'>;

export interface EffectiveRunSettings {
  model: string; // a spec the harness accepts; script paths absolute
  modelSource: 'setting' | 'config' | 'default';
  /** Only the limits the config does not set (runFeature applies the config's own). */
  limits: Partial<Limits>;
  limitSources: Record<SettableLimit, 'config' | 'setting' | 'default'>;
  /** Only when the config does not set max_gate_failures. */
  maxGateFailures?: number;
  maxGateFailuresSource: 'config' | 'setting' | 'default';
  /** Additions to the workspace policy (see the header); absent when the settings add nothing. */
  policy?: { deny: string[]; allowAttended: string[] };
  /** Patterns that are not valid regular expressions: the run must not start (a dropped deny would loosen the policy). */
  problems: SettingProblem[];
  /** Always applied (see the header). */
  sandbox: SandboxSwitch;
  /** For the log: kite.sandbox values outside the user settings that were ignored (null: none). */
  sandboxIgnored: string | null;
}

/** A run asked for with settings that cannot be used (the extension checks first; this is the backstop). */
export class SettingsError extends Error {
  readonly code = 'invalid_settings';
  constructor(readonly problems: SettingProblem[]) {
    super(`unusable settings: ${problems.map((p) => `${p.setting}: ${p.message}`).join('; ')}`);
    this.name = 'SettingsError';
  }
}

function patternProblems(setting: string, patterns: readonly string[]): SettingProblem[] {
  const out: SettingProblem[] = [];
  patterns.forEach((p, i) => {
    if (typeof p !== 'string' || p.length === 0) return void out.push({ setting: `${setting}[${i}]`, message: 'expected a non-empty regular expression' });
    try {
      new RegExp(p);
    } catch (e) {
      out.push({ setting: `${setting}[${i}]`, message: `not a valid regular expression: ${(e as Error).message}` });
    }
  });
  return out;
}

/** A spec from a setting or the config: a bare id means Anthropic; a script or replay path is relative to the workspace. */
export function modelSpecFor(spec: string, root: string): string {
  const s = normalizeSpec(spec.trim());
  const m = /^(script|replay):(.+)$/.exec(s);
  return m ? `${m[1]}:${resolve(root, m[2]!)}` : s;
}

export function effectiveRunSettings(settings: KiteSettings, config: ConfigFileView | null, root: string): EffectiveRunSettings {
  let model = defaultModelSpec(null);
  let modelSource: EffectiveRunSettings['modelSource'] = 'default';
  if (settings.model.trim()) {
    model = modelSpecFor(settings.model, root);
    modelSource = 'setting';
  } else if (config?.model) {
    model = modelSpecFor(config.model, root);
    modelSource = 'config';
  }
  const limits: Partial<Limits> = {};
  const limitSources = { turns: 'default', tokens: 'default', usd: 'default', wall_s: 'default', observation_tokens: 'default' } as EffectiveRunSettings['limitSources'];
  const pairs: [SettableLimit, number | undefined, number | null][] = [
    ['turns', config?.budget?.turns, settings.budget.turns],
    ['tokens', config?.budget?.tokens, settings.budget.tokens],
    ['usd', config?.budget?.usd, settings.budget.usd],
    ['wall_s', config?.budget?.wall_s, settings.budget.wallSeconds],
    ['observation_tokens', config?.budget?.observation_tokens, settings.budget.observationTokens ?? null],
  ];
  for (const [key, fromConfig, fromSetting] of pairs) {
    if (fromConfig !== undefined) limitSources[key] = 'config';
    else if (fromSetting !== null && fromSetting > 0) {
      limits[key] = fromSetting;
      limitSources[key] = 'setting';
    }
  }
  let maxGateFailures: number | undefined;
  let maxGateFailuresSource: EffectiveRunSettings['maxGateFailuresSource'] = 'default';
  if (config?.max_gate_failures !== undefined) maxGateFailuresSource = 'config';
  else if (settings.maxGateFailures && Number.isInteger(settings.maxGateFailures) && settings.maxGateFailures > 0) {
    maxGateFailures = settings.maxGateFailures;
    maxGateFailuresSource = 'setting';
  }
  const deny = [...new Set(settings.policy?.denyCommands ?? [])];
  const allowAttended = [...new Set(settings.policy?.allowCommands ?? [])];
  const problems = [...patternProblems('kite.policy.denyCommands', deny), ...patternProblems('kite.policy.allowCommands', allowAttended)];
  const policy = deny.length || allowAttended.length ? { deny, allowAttended } : undefined;
  const sb = settings.sandbox ?? { value: 'on', ignored: [] };
  const sandboxIgnored = sb.ignored.length
    ? `kite.sandbox in the ${sb.ignored.map((l) => (l === 'workspace' ? 'workspace' : 'folder')).join(' and ')} settings is ignored: only your user settings can turn the sandbox off (using "${sb.value}")`
    : null;
  return { model, modelSource, limits, limitSources, maxGateFailures, maxGateFailuresSource, policy, problems, sandbox: sb.value, sandboxIgnored };
}

/** What runFeature / resumeRun lay over .kite/config.json (config.ts applyOverrides); undefined: nothing. */
export function overridesOf(e: Pick<EffectiveRunSettings, 'maxGateFailures' | 'policy'> & { sandbox?: SandboxSwitch }): ConfigOverrides | undefined {
  const policy = e.policy && (e.policy.deny.length || e.policy.allowAttended.length) ? { deny: e.policy.deny, allow_attended: e.policy.allowAttended } : undefined;
  if (e.maxGateFailures === undefined && !policy && e.sandbox === undefined) return undefined;
  return {
    ...(e.maxGateFailures !== undefined ? { max_gate_failures: e.maxGateFailures } : {}),
    ...(policy ? { policy } : {}),
    // The user's switch replaces the workspace file's "off" (config.ts applyOverrides).
    ...(e.sandbox !== undefined ? { sandbox: e.sandbox } : {}),
  };
}

// The competing keys, checked by the real schema; the rest of the file is the run's business.
const ConfigViewSchema = z.looseObject(KiteConfigFileSchema.pick({ model: true, budget: true, max_gate_failures: true }).shape);

/** The competing keys of <root>/.kite/config.json. A missing or broken file is null here: the run
 *  itself reports a broken file, with its line and JSON path. */
export function readConfigView(root: string): ConfigFileView | null {
  const file = join(root, CONFIG_FILE);
  let text: string;
  try {
    if (!existsSync(file)) return null;
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const json = parseJsonWithComments(text);
  if (!json.ok) return null;
  const r = ConfigViewSchema.safeParse(json.value);
  return r.success ? r.data : null;
}

export interface LayeredSettings extends EffectiveRunSettings, Omit<ResolvedSettings, 'model' | 'problems'> {
  overrides: ConfigOverrides | undefined;
}

/** The raw kite.* settings laid over <root>/.kite/config.json: what a run started with them gets.
 *  root null (a resumed log that no workspace holds): the settings alone. */
export function layerSettings(raw: RawSettings, root: string | null): LayeredSettings {
  const e = effectiveRunSettings(kiteSettingsOf(raw), root === null ? null : readConfigView(root), root ?? process.cwd());
  const summary =
    `${e.model} (model from ${e.modelSource}; limits ${JSON.stringify(e.limits)}; max gate failures from ${e.maxGateFailuresSource}` +
    (e.policy ? `; settings add ${e.policy.deny.length} deny and ${e.policy.allowAttended.length} allow pattern(s)` : '') +
    `; sandbox ${e.sandbox})`;
  const warnings = [e.sandboxIgnored, e.sandbox === 'off' ? 'kite.sandbox is "off" in your user settings: commands run WITHOUT a sandbox' : null].filter((w): w is string => w !== null);
  return { ...e, summary, warnings, overrides: overridesOf(e) };
}
