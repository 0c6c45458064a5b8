// "Always allow": append a policy rule to .kite/config.json (policy.rules), keeping every other
// key of the file as the person wrote it. Atomic write; the result is re-validated.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PolicyRule } from '../policy/config';
import { CONFIG_FILE, ConfigError, parseConfig, type KiteConfig } from './config';

export function appendPolicyRule(root: string, rule: PolicyRule): KiteConfig {
  const file = join(root, CONFIG_FILE);
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new ConfigError('invalid_json', `${file}: not valid JSON (${(e as Error).message}); the rule was not saved`);
    }
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
