// `hooks` in .kite/config.json, in the shape of Claude Code's settings, so a team's existing hooks
// work: {"PreToolUse": [{"matcher": "write_file|edit_file", "hooks": [{"type": "command",
// "command": "…", "timeout": 10}]}]}. Matchers are regexes (the whole value must match): over
// Kite's tool names for the tool events, over the source ("startup" / "resume") for SessionStart;
// the other events have no matcher. A matcher that can never select anything is a config error,
// never a hook skipped in silence. UserPromptSubmit (Claude Code's name) is PromptSubmit.
import { z } from 'zod';

export const RUN_HOOK_EVENTS = ['SessionStart', 'PromptSubmit', 'PreToolUse', 'PostToolUse', 'PostModelReply', 'Stop', 'SessionEnd'] as const;
export type HookEventName = (typeof RUN_HOOK_EVENTS)[number];
/** Claude Code's names Kite accepts as the same event (their groups run as that event's). */
export const HOOK_EVENT_ALIASES = { UserPromptSubmit: 'PromptSubmit' } as const satisfies Record<string, HookEventName>;
export type HookEventAlias = keyof typeof HOOK_EVENT_ALIASES;
/** Where SessionStart hooks run: a new run, or `kite resume` continuing one. */
export const SESSION_START_SOURCES = ['startup', 'resume'] as const;
export type SessionStartSource = (typeof SESSION_START_SOURCES)[number];

const HookCommandSchema = z.strictObject({
  type: z.literal('command'),
  command: z.string().min(1),
  timeout: z.number().positive().optional(), // seconds (default 60)
});

const isEvery = (m: string | undefined): boolean => m === undefined || m === '' || m === '*';

function validRegex(v: string, ctx: z.RefinementCtx): boolean {
  try {
    new RegExp(v);
    return true;
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(e as Error).message}` });
    return false;
  }
}

/** A group of the tool events: the matcher is a regex over tool names (absent, "" or "*": every tool). */
const ToolGroupSchema = z.strictObject({
  matcher: z
    .string()
    .superRefine((v, ctx) => void validRegex(v, ctx))
    .optional(),
  hooks: z.array(HookCommandSchema).min(1),
});

/** SessionStart: the matcher selects the source; one that selects neither would never run. */
const SessionStartGroupSchema = z.strictObject({
  matcher: z
    .string()
    .superRefine((v, ctx) => {
      if (!validRegex(v, ctx) || isEvery(v)) return;
      if (!SESSION_START_SOURCES.some((s) => matcherSelects(v, s))) ctx.addIssue({ code: 'custom', message: `matches none of Kite's SessionStart sources (${SESSION_START_SOURCES.join(', ')}), so these hooks would never run` });
    })
    .optional(),
  hooks: z.array(HookCommandSchema).min(1),
});

/** Events without a matcher (Claude Code ignores one there; Kite says so instead). */
const PlainGroupSchema = z.strictObject({
  matcher: z
    .string()
    .refine((v) => isEvery(v), { message: 'this event has no matcher (its hooks run every time); remove it, or leave it "" or "*"' })
    .optional(),
  hooks: z.array(HookCommandSchema).min(1),
});
export type HookGroup = z.infer<typeof ToolGroupSchema>;

export const HooksConfigSchema = z.strictObject({
  SessionStart: z.array(SessionStartGroupSchema).optional(),
  PromptSubmit: z.array(PlainGroupSchema).optional(),
  UserPromptSubmit: z.array(PlainGroupSchema).optional(),
  PreToolUse: z.array(ToolGroupSchema).optional(),
  PostToolUse: z.array(ToolGroupSchema).optional(),
  PostModelReply: z.array(PlainGroupSchema).optional(),
  Stop: z.array(PlainGroupSchema).optional(),
  SessionEnd: z.array(PlainGroupSchema).optional(),
});
export type HooksConfig = Partial<Record<HookEventName | HookEventAlias, HookGroup[]>>;

/** The groups that run for an event, under the name they were configured with (an alias too). */
export function groupsOf(hooks: HooksConfig, event: HookEventName): { configured: HookEventName | HookEventAlias; group: HookGroup }[] {
  const names: (HookEventName | HookEventAlias)[] = [event, ...(Object.keys(HOOK_EVENT_ALIASES) as HookEventAlias[]).filter((a) => HOOK_EVENT_ALIASES[a] === event)];
  return names.flatMap((configured) => (hooks[configured] ?? []).map((group) => ({ configured, group })));
}

/** How many hook commands an event runs when nothing blocks (events without a matcher). */
export function hookCount(hooks: HooksConfig, event: HookEventName): number {
  return groupsOf(hooks, event).reduce((n, g) => n + g.group.hooks.length, 0);
}

export function hasHooks(h: HooksConfig | undefined): h is HooksConfig {
  return !!h && RUN_HOOK_EVENTS.some((e) => hookCount(h, e) > 0);
}

/** Does a group's matcher select this value (a tool name, a SessionStart source)? Empty or "*": every one. */
export function matcherSelects(matcher: string | undefined, value: string | null): boolean {
  if (isEvery(matcher)) return true;
  return value !== null && new RegExp(`^(?:${matcher})$`).test(value);
}
