// "Always allow" on a command approval: append the policy rule from allowRuleForCommand to
// <root>/.kite/config.json (policy.rules), keeping every other key. Idempotent by rule id.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allowRuleForCommand } from '../policy/policy';

export type AlwaysAllowResult = { added: boolean; file: string; ruleId: string } | { added: false; file: string; error: string };

export function addAlwaysAllowRule(root: string, command: string): AlwaysAllowResult {
  const file = join(root, '.kite', 'config.json');
  const rule = allowRuleForCommand(command);
  const ruleId = rule.id ?? `allow:always:${command}`;
  let config: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { added: false, file, error: `${file}: $: expected an object` };
      config = raw as Record<string, unknown>;
    } catch (e) {
      // Never rewrite a file we could not read: the person's text would be lost.
      return { added: false, file, error: `${file}: not valid JSON (${(e as Error).message}); the rule was not added` };
    }
  }
  const policy = (typeof config.policy === 'object' && config.policy !== null ? config.policy : {}) as Record<string, unknown>;
  const rules = Array.isArray(policy.rules) ? (policy.rules as unknown[]) : [];
  if (rules.some((r) => typeof r === 'object' && r !== null && (r as { id?: unknown }).id === ruleId)) return { added: false, file, ruleId };
  config.policy = { ...policy, rules: [...rules, rule] };
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n');
  renameSync(tmp, file);
  return { added: true, file, ruleId };
}
