// "Always allow": append a policy rule to .kite/config.json (policy.rules), keeping every other
// key of the file as the person wrote it. Atomic write; the result is re-validated.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PolicyRule } from '../policy/config';
import { CONFIG_FILE, ConfigError, parseConfig, type KiteConfig } from './config';
import { describeJsonProblem, parseJsonText } from './jsonText';

export function appendPolicyRule(root: string, rule: PolicyRule): KiteConfig {
  const file = join(root, CONFIG_FILE);
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    const json = parseJsonText(readFileSync(file, 'utf8'));
    if (!json.ok) throw new ConfigError('invalid_json', `${describeJsonProblem(file, json.problem)}; the rule was not saved`);
    if (!json.value || typeof json.value !== 'object' || Array.isArray(json.value)) throw new ConfigError('invalid_config', `${file}: $: expected an object; the rule was not saved`);
    raw = json.value as Record<string, unknown>;
  }
  const policy = (raw.policy && typeof raw.policy === 'object' ? raw.policy : {}) as Record<string, unknown>;
  const rules = Array.isArray(policy.rules) ? (policy.rules as unknown[]) : [];
  if (!rules.some((r) => r && typeof r === 'object' && (r as { id?: unknown }).id === rule.id)) rules.push(rule);
  raw.policy = { ...policy, rules };
  const text = JSON.stringify(raw, null, 2) + '\n';
  const config = parseConfig(text, file); // never write a file we would refuse to load
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  return config;
}
