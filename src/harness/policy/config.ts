// The `policy` key of .kite/config.json. Every key optional. Patterns are JavaScript regular
// expressions; a bad one is reported with its JSON path when the config is loaded. The
// descriptions end up in the JSON Schema VS Code uses to validate and explain config.json.
import { z } from 'zod';
import { DecisionSchema } from '../protocol/events';

function compiles(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

const Pattern = z.string().min(1).refine(compiles, { message: 'not a valid regular expression (JavaScript syntax)' });

/** One explicit rule. All given conditions must hold; the first matching rule decides. */
export const PolicyRuleSchema = z
  .strictObject({
    id: z.string().min(1).optional().describe('Name recorded in the log when this rule decides. Default: "rule:<index>".'),
    decision: DecisionSchema.describe('allow: run without asking; ask: a person approves; deny: refused, the model is told the reason.'),
    tool: z.union([z.string(), z.array(z.string())]).optional().describe('Tool name(s) this rule applies to: read_file, list_files, search, write_file, edit_file, run.'),
    command: z.string().optional().describe('run only: the exact command (compared after trimming).'),
    command_pattern: Pattern.optional().describe('run only: a regex matching the whole trimmed command. Commands with ; & | ` < > or $( match only if the pattern spells that operator out.'),
    server: z.string().min(1).optional().describe('MCP tools only: the server name (as configured) whose tools this rule applies to.'),
    path: z.string().optional().describe('File tools: a glob on the workspace-relative path ("test/**", "*.lock"; a leading "/" anchors at the root).'),
    reason: z.string().optional().describe('Told to the model when this rule denies.'),
  })
  .describe('An explicit policy rule; rules are checked first, in order, and the first match decides.');
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

/** A deny-list entry: a regex searched anywhere in the command, or an object naming it. */
export const DenyEntrySchema = z.union([
  Pattern.describe('A regex searched anywhere in the command; the rule id is "deny:config:<index>".'),
  z.strictObject({ id: z.string().min(1), pattern: Pattern, reason: z.string().optional() }).describe('A named deny pattern with the reason the model is told.'),
]);
export type DenyEntry = z.infer<typeof DenyEntrySchema>;

export const PolicyConfigSchema = z
  .strictObject({
    rules: z.array(PolicyRuleSchema).default([]).describe('Explicit rules, checked before the defaults, in order. "Always allow" appends here.'),
    deny: z.array(DenyEntrySchema).default([]).describe('Commands to refuse, added to the default deny list (sudo, rm -rf /, curl | sh, git push, git reset --hard, …).'),
    disable: z.array(z.string()).default([]).describe('Ids of default deny rules to switch off, e.g. "deny:git-push".'),
    protect: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Globs of files added to the protected list (default: .kite/**, kite-progress.json, AGENTS.md, CLAUDE.md, CI files, lockfiles, package.json, Makefile, test runner configs, the verify test files). Writes to them ask (refused unattended, rule "protect:<glob>"); commands see them read-only. A feature lifts protection with may_change.',
      ),
    allow: z
      .array(Pattern)
      .default([])
      .describe('Commands that run without asking, also unattended: regexes matching the whole trimmed command. Commands with ; & | ` < > or $( match only patterns that spell that operator out.'),
  })
  .describe('Which tool calls are allowed, asked or denied (first matching rule wins; the log records its id).');
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
export type PolicyConfigInput = z.input<typeof PolicyConfigSchema>;

/**
 * Policy a host lays over the workspace's for one run (the VS Code `kite.policy.*` settings). It
 * can only add: its deny patterns are checked before the workspace's own rules, and its allow
 * patterns apply in attended runs only (unattended, the workspace's policy alone decides what runs
 * without a person). Not part of .kite/config.json.
 */
export const HostPolicySchema = z.strictObject({
  deny: z.array(Pattern).default([]).describe('Regexes searched anywhere in the command; a match is refused (rule "deny:setting:<index>").'),
  allow_attended: z.array(Pattern).default([]).describe('Regexes matching the whole trimmed command; in attended runs a match runs without asking (rule "allow:setting:<index>").'),
});
export type HostPolicy = z.infer<typeof HostPolicySchema>;
export type HostPolicyInput = z.input<typeof HostPolicySchema>;
