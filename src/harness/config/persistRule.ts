// "Always allow": the one writer of a policy rule to .kite/config.json. The rule is appended to
// policy.rules (created when missing) as an edit of the person's text, so their comments,
// indentation and key order stay as they were. A file Kite would refuse to load is never written
// (the person's text would be lost, or the next run would not start); the error names the file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PolicyRule } from '../policy/config';
import { CONFIG_FILE, ConfigError, parseConfig, type KiteConfig } from './config';
import { insertKeepingLayout } from './jsoncInsert';
import { parseJsonWithComments } from './jsonText';

const NOT_SAVED = 'the rule was not saved';

/** parseConfig, with an error that also says nothing was written. */
function checked(text: string, file: string): KiteConfig {
  try {
    return parseConfig(text, file);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.code, `${e.message}; ${NOT_SAVED}`);
    throw e;
  }
}

/** Whether the text already has a policy.rules list (the parsed config always has one, by default). */
function hasRulesList(text: string): boolean {
  const json = parseJsonWithComments(text);
  const policy = json.ok ? (json.value as { policy?: { rules?: unknown } }).policy : undefined;
  return Array.isArray(policy?.rules);
}

/** Appends `rule` to <root>/.kite/config.json (idempotent by rule id); returns the config as saved. */
export function appendPolicyRule(root: string, rule: PolicyRule): KiteConfig {
  const file = join(root, CONFIG_FILE);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (before !== null) {
    const json = parseJsonWithComments(before);
    if (json.ok && (typeof json.value !== 'object' || json.value === null || Array.isArray(json.value))) {
      throw new ConfigError('invalid_config', `${file}: $: expected an object; ${NOT_SAVED}`);
    }
  }
  const current = before === null ? null : checked(before, file);
  if (rule.id !== undefined && current?.policy?.rules.some((r) => r.id === rule.id)) return current;
  const text = before ?? '{}';
  const edited = hasRulesList(text) ? insertKeepingLayout(text, ['policy', 'rules', -1], rule) : insertKeepingLayout(text, ['policy', 'rules'], [rule]);
  const after = before === null ? `${edited}\n` : edited;
  const saved = checked(after, file); // never write a file we would refuse to load
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, after);
  renameSync(tmp, file);
  return saved;
}
