// Which scope of a kite.* setting counts (user, workspace, folder). A workspace's
// .vscode/settings.json travels with the repository, so it may tighten the person's choices but
// never loosen them:
//   - kite.policy.denyCommands: every scope adds; none replaces another (a workspace [] cannot
//     drop the user's list);
//   - kite.policy.allowCommands and kite.sandbox: the user's own (global) value only;
//   - everything else: the most specific scope that sets it, as VS Code's get() answers.
// Values are unchecked on the wire; a value of the wrong type counts as not set.
import type { RawSettings, SettingScopes } from '../protocol/rpc';

export type SandboxSwitch = 'on' | 'off';

/** kite.sandbox from the user's own settings, and the scopes whose value was ignored. */
export interface UserSandbox {
  value: SandboxSwitch;
  ignored: ('workspace' | 'workspaceFolder')[];
}

/** The kite.* settings of a run once the scope rules above are applied. */
export interface KiteSettings {
  model: string; // '' = not set
  budget: { turns: number | null; tokens: number | null; usd: number | null; wallSeconds: number | null; observationTokens?: number | null };
  maxGateFailures?: number | null;
  /** Regex patterns; deny is the union of every scope (user, workspace, folder). */
  policy?: { allowCommands: string[]; denyCommands: string[] };
  /** kite.sandbox as read by userSandbox() (absent: "on"). */
  sandbox?: UserSandbox;
}

/** Like kite.policy.allowCommands: an application-scope setting, only the global value counts. */
export function userSandbox(inspected: SettingScopes | undefined): UserSandbox {
  const ignored: UserSandbox['ignored'] = [];
  if (inspected?.workspaceValue !== undefined) ignored.push('workspace');
  if (inspected?.workspaceFolderValue !== undefined) ignored.push('workspaceFolder');
  return { value: inspected?.globalValue === 'off' ? 'off' : 'on', ignored };
}

/**
 * Every scope of an array setting, merged. VS Code's get() hands back only the most specific
 * scope, so a workspace's `"kite.policy.denyCommands": []` would otherwise silently drop the
 * user's deny list. Non-string entries are skipped (VS Code already flags them).
 */
export function mergedLevels(inspected: SettingScopes | undefined): string[] {
  const levels = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
  return [...new Set(levels.flatMap((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])))];
}

/** The user's own list; a list with a non-string entry counts as not set. */
function userList(inspected: SettingScopes | undefined): string[] {
  const v = inspected?.globalValue;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : [];
}

function mostSpecific(inspected: SettingScopes | undefined): unknown {
  if (inspected?.workspaceFolderValue !== undefined) return inspected.workspaceFolderValue;
  if (inspected?.workspaceValue !== undefined) return inspected.workspaceValue;
  return inspected?.globalValue;
}

function positive(inspected: SettingScopes | undefined): number | null {
  const v = mostSpecific(inspected);
  return typeof v === 'number' && v > 0 ? v : null;
}

export function kiteSettingsOf(raw: RawSettings): KiteSettings {
  const model = mostSpecific(raw.model);
  return {
    model: typeof model === 'string' ? model : '',
    budget: {
      turns: positive(raw['budget.turns']),
      tokens: positive(raw['budget.tokens']),
      usd: positive(raw['budget.usd']),
      wallSeconds: positive(raw['budget.wallSeconds']),
      observationTokens: positive(raw['budget.observationTokens']),
    },
    maxGateFailures: positive(raw.maxGateFailures),
    policy: { denyCommands: mergedLevels(raw['policy.denyCommands']), allowCommands: userList(raw['policy.allowCommands']) },
    sandbox: userSandbox(raw.sandbox),
  };
}
