// A judged check: a rubric a separate model call answers yes or no about the run's work, for
// what no command can check ("the README documents --since with an example"). Declared next to
// the command checks: an entry of .kite/config.json `checks`, or of a feature's `judges`.
import { z } from 'zod';

export const VerdictSchema = z.enum(['yes', 'no']);
export type Verdict = z.infer<typeof VerdictSchema>;

export const JudgeCheckSchema = z
  .strictObject({
    /** The rubric, a statement the judge answers yes or no about the evidence. */
    judge: z.string().trim().min(1, 'the rubric is empty: say what the judge must find, e.g. "The README documents the new --since flag with an example"'),
    /** A model spec (anthropic:<id>, openai:<id>, script:<file>…); default: the run's model. */
    model: z.string().min(1).optional(),
    /** The answer that passes the check (default "yes"). */
    pass: VerdictSchema.optional(),
  })
  .describe('A judged check: {"judge": "<rubric>", "model": "<spec, default the run\'s>", "pass": "yes" | "no"}');
export type JudgeCheck = z.infer<typeof JudgeCheckSchema>;

/** One entry of `checks`: a shell command, or a rubric for a judge. */
export const CheckEntrySchema = z.union([z.string().min(1), JudgeCheckSchema]);
export type CheckEntry = z.infer<typeof CheckEntrySchema>;

export function isJudgeCheck(c: CheckEntry): c is JudgeCheck {
  return typeof c !== 'string';
}

/** The commands and the judges of a `checks` list, each in its declared order. */
export function splitChecks(entries: readonly CheckEntry[] | undefined): { commands: string[]; judges: JudgeCheck[] } {
  const list = entries ?? [];
  return { commands: list.filter((c): c is string => typeof c === 'string'), judges: list.filter(isJudgeCheck) };
}
