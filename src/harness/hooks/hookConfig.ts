// `hooks` in .kite/config.json, in the shape of Claude Code's settings, so a team's existing hooks
// work: {"PreToolUse": [{"matcher": "write_file|edit_file", "hooks": [{"type": "command",
// "command": "…", "timeout": 10}]}]}. Matchers are regexes over Kite's tool names (the whole name).
// An event this Kite does not run is a config error, never a hook skipped in silence.
import { z } from 'zod';

export const RUN_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'Stop'] as const;
export type HookEventName = (typeof RUN_HOOK_EVENTS)[number];
const NOT_YET = ['SessionStart', 'PromptSubmit', 'PostModelReply', 'SessionEnd'] as const;

const HookCommandSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1),
  timeout: z.number().positive().optional(), // seconds (default 60)
});

const MatcherGroupSchema = z.strictObject({
  matcher: z
    .string()
    .superRefine((v, ctx) => {
      try {
        new RegExp(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(e as Error).message}` });
      }
    })
    .optional(), // absent or "" or "*": every tool
  hooks: z.array(HookCommandSchema).min(1),
});
export type HookGroup = z.infer<typeof MatcherGroupSchema>;

const notRun = z.unknown().superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message: `this Kite runs only ${RUN_HOOK_EVENTS.join(', ')} hooks; remove these rather than have them skipped` }));

export const HooksConfigSchema = z.strictObject({
  PreToolUse: z.array(MatcherGroupSchema).optional(),
  PostToolUse: z.array(MatcherGroupSchema).optional(),
  Stop: z.array(MatcherGroupSchema).optional(),
  ...Object.fromEntries(NOT_YET.map((n) => [n, notRun.optional()])),
});
export type HooksConfig = Partial<Record<HookEventName, HookGroup[]>>;

export function hasHooks(h: HooksConfig | undefined): h is HooksConfig {
  return !!h && RUN_HOOK_EVENTS.some((e) => (h[e]?.length ?? 0) > 0);
}

/** Does a group's matcher select this tool? (Claude Code: empty or "*" matches every tool.) */
export function matcherSelects(matcher: string | undefined, tool: string | null): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  return tool !== null && new RegExp(`^(?:${matcher})$`).test(tool);
}
