// `context` in .kite/config.json: when and how far the conversation is compacted before a model
// call. All in tokens of the request, as fractions of the model's context window.
import { z } from 'zod';

export const ContextConfigSchema = z
  .strictObject({
    /** false: never compact (a run that outgrows the window ends context_exceeded). */
    compact: z.boolean().optional(),
    /** The model's window in tokens; overrides the table in model/contextWindows.ts (a local model, a test). */
    window: z.number().int().positive().optional(),
    /** Compact when the next request is estimated above this share of the window (default 0.7). */
    compact_at: z.number().gt(0).max(1).optional(),
    /** …down to below this share (default 0.4). */
    compact_to: z.number().gt(0).max(1).optional(),
    /** The last N turns are never stubbed or summarized (default 6). */
    keep_turns: z.number().int().nonnegative().optional(),
  })
  .refine((c) => (c.compact_to ?? DEFAULT_CONTEXT.compact_to) < (c.compact_at ?? DEFAULT_CONTEXT.compact_at), {
    message: 'compact_to must be smaller than compact_at (compaction compacts below the point that triggered it)',
    path: ['compact_to'],
  });
export type ContextConfig = z.infer<typeof ContextConfigSchema>;

export interface ContextSettings {
  compact: boolean;
  window: number | null; // null: the model's own (contextWindows.ts)
  compact_at: number;
  compact_to: number;
  keep_turns: number;
}

export const DEFAULT_CONTEXT = { compact_at: 0.7, compact_to: 0.4, keep_turns: 6 } as const;

export function resolveContextSettings(c: ContextConfig | undefined): ContextSettings {
  return {
    compact: c?.compact ?? true,
    window: c?.window ?? null,
    compact_at: c?.compact_at ?? DEFAULT_CONTEXT.compact_at,
    compact_to: c?.compact_to ?? DEFAULT_CONTEXT.compact_to,
    keep_turns: c?.keep_turns ?? DEFAULT_CONTEXT.keep_turns,
  };
}
