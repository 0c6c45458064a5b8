// Which model and budgets a run started from VS Code gets. Pure (no 'vscode'): unit-tested.
//
// Precedence (also in the setting descriptions and the README):
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
//              always sent, so a `"sandbox": "off"` in .kite/config.json or a workspace/folder
//              kite.sandbox value cannot turn the sandbox off by itself (those are ignored, and logged).
import { isAbsolute, resolve } from 'node:path';
import type { Limits } from '../../harness/protocol/events';

export const DEFAULT_MODEL_SPEC = 'anthropic:claude-sonnet-5-5';

export interface KiteSettings {
  model: string; // '' = not set
  budget: { turns: number | null; tokens: number | null; usd: number | null; wallSeconds: number | null };
  maxGateFailures?: number | null;
  /** Regex patterns; deny is the union of every settings level (user, workspace, folder). */
  policy?: { allowCommands: string[]; denyCommands: string[] };
  /** kite.sandbox as read by userSandbox() (absent: "on"). */
  sandbox?: UserSandbox;
}

export type SandboxSwitch = 'on' | 'off';

/** kite.sandbox from the user's own settings, and the levels whose value was ignored. */
export interface UserSandbox {
  value: SandboxSwitch;
  ignored: ('workspace' | 'workspaceFolder')[];
}

/** Like kite.policy.allowCommands: an application-scope setting, only the global value counts. */
export function userSandbox(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): UserSandbox {
  const ignored: UserSandbox['ignored'] = [];
  if (inspected?.workspaceValue !== undefined) ignored.push('workspace');
  if (inspected?.workspaceFolderValue !== undefined) ignored.push('workspaceFolder');
  return { value: inspected?.globalValue === 'off' ? 'off' : 'on', ignored };
}

/** A setting the harness could not use, named for the person (e.g. kite.policy.denyCommands[2]). */
export interface SettingProblem {
  setting: string;
  message: string;
}

/** The parts of .kite/config.json that compete with settings (null: no file or key absent). */
export interface ConfigFileView {
  model?: string;
  budget?: { turns?: number; tokens?: number; usd?: number; wall_s?: number };
  max_gate_failures?: number;
}

export interface EffectiveRunSettings {
  model: string; // a spec the harness accepts; script paths absolute
  modelSource: 'setting' | 'config' | 'default';
  /** Only the limits the config does not set (the harness applies the config's own). */
  limits: Partial<Limits>;
  limitSources: Record<keyof Limits, 'config' | 'setting' | 'default'>;
  /** Only when the config does not set max_gate_failures. */
  maxGateFailures?: number;
  maxGateFailuresSource: 'config' | 'setting' | 'default';
  /** Additions to the workspace policy (see the header); absent when the settings add nothing. */
  policy?: { deny: string[]; allowAttended: string[] };
  /** Patterns that are not valid regular expressions: the run must not start (a dropped deny would loosen the policy). */
  problems: SettingProblem[];
  /** Always sent to the harness (see the header). */
  sandbox: SandboxSwitch;
  /** For the log: kite.sandbox values outside the user settings that were ignored (null: none). */
  sandboxIgnored: string | null;
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
  return { model: normalizeModelSpec(model, root), modelSource, limits, limitSources, maxGateFailures, maxGateFailuresSource, policy, problems, sandbox: sb.value, sandboxIgnored };
}

/**
 * Every level of an array setting (user, workspace, folder), merged. VS Code hands back only the
 * most specific level, so a workspace's `"kite.policy.denyCommands": []` would otherwise silently
 * drop the user's deny list. Non-string entries are skipped (VS Code already flags them).
 */
export function mergedLevels(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): string[] {
  const levels = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
  return [...new Set(levels.flatMap((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])))];
}

export function needsApiKey(modelSpec: string): boolean {
  return modelSpec.startsWith('anthropic:');
}
