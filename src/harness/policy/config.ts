// The `policy` key of .kite/config.json. Every key optional. Patterns are JavaScript regular
// expressions; a bad one is reported with its JSON path when the config is loaded.
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
export const PolicyRuleSchema = z.strictObject({
  id: z.string().min(1).optional(), // recorded in the log; default "rule:<index>"
  decision: DecisionSchema,
  tool: z.union([z.string(), z.array(z.string())]).optional(), // tool name(s)
  command: z.string().optional(), // exact command (compared after trimming)
  command_pattern: Pattern.optional(), // regex matching the whole trimmed command (operators as for `allow`)
  path: z.string().optional(), // glob on the workspace-relative path (file tools)
  reason: z.string().optional(), // told to the model on deny
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

/** A deny-list entry: a regex searched anywhere in the command, or an object naming it. */
export const DenyEntrySchema = z.union([Pattern, z.strictObject({ id: z.string().min(1), pattern: Pattern, reason: z.string().optional() })]);
export type DenyEntry = z.infer<typeof DenyEntrySchema>;

export const PolicyConfigSchema = z.strictObject({
  /** Explicit rules, checked first, in order ("Always allow" appends here). */
  rules: z.array(PolicyRuleSchema).default([]),
  /** Extra deny-list entries added to the defaults. */
  deny: z.array(DenyEntrySchema).default([]),
  /** Ids of default deny rules to switch off, e.g. "deny:git-push". */
  disable: z.array(z.string()).default([]),
  /**
   * Commands allowed without asking (also in unattended mode): regexes matching the whole trimmed
   * command. A command with ; & | ` < > or $( matches only a pattern that writes that operator out.
   */
  allow: z.array(Pattern).default([]),
});
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;
export type PolicyConfigInput = z.input<typeof PolicyConfigSchema>;
