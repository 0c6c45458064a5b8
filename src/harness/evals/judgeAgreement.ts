// How far a judge can be trusted: an eval case may hold labelled examples (`judge_examples`:
// evidence + the verdict a person gave), and `kite eval` asks the case's judge about each one and
// reports how often it agreed (matches/total). A judge that answers garbage disagrees.
import { z } from 'zod';
import { createModel } from '../model/index';
import type { Model } from '../model/model';
import { SecretGuard } from '../secrets/secretGuard';
import { Judge } from '../gate/judge';
import { VerdictSchema, type JudgeCheck } from '../gate/judgeCheck';
import type { EvalCase } from './evalCase';

export const JudgeExampleSchema = z.strictObject({
  /** The rubric of the case's judged check this example is for (default: the case's only one). */
  judge: z.string().min(1).optional(),
  /** What the judge is shown (a diff, a file), as text. */
  evidence: z.string(),
  /** The verdict a person gave. */
  verdict: VerdictSchema,
  note: z.string().optional(),
});
export type JudgeExample = z.infer<typeof JudgeExampleSchema>;

export interface JudgeAgreement {
  judge: string; // the rubric
  model: string; // the judge's model spec
  matches: number;
  total: number;
  /** The examples it disagreed on (1-based), with what it said. */
  misses: string[];
}

/** The judged checks a case declares: its `checks` rubrics, then its feature's `judges`. */
export function caseJudges(c: EvalCase['spec']): JudgeCheck[] {
  return [...(c.checks ?? []).filter((x): x is JudgeCheck => typeof x !== 'string'), ...(c.feature.judges ?? [])];
}

/** Which judged check an example is for; null when it names none of them (or the case has several and it names none). */
export function exampleJudge(judges: readonly JudgeCheck[], e: JudgeExample): JudgeCheck | null {
  if (e.judge !== undefined) return judges.find((j) => j.judge === e.judge) ?? null;
  return judges.length === 1 ? judges[0] : null;
}

/** A relative script: judge is the case's own file (like the case's model). */
export function caseJudgeSpec(c: EvalCase, j: JudgeCheck): string {
  return j.model ?? c.spec.model ?? '';
}

export async function judgeAgreement(c: EvalCase, signal?: AbortSignal): Promise<JudgeAgreement[]> {
  const examples = c.spec.judge_examples ?? [];
  if (!examples.length) return [];
  const judges = caseJudges(c.spec);
  const models = new Map<string, Model>();
  const guard = new SecretGuard({ root: c.dir, env: process.env });
  const out = new Map<JudgeCheck, JudgeAgreement>();
  for (const [i, e] of examples.entries()) {
    const j = exampleJudge(judges, e);
    if (!j) continue; // loadCase refuses such a case
    const spec = caseJudgeSpec(c, j);
    // Made here, so a judge model that cannot be made (a missing script) is the case's error, not a disagreement.
    const model = models.get(spec) ?? createModel(spec, { cwd: c.dir });
    models.set(spec, model);
    const judge = new Judge({
      modelFor: () => model,
      defaultSpec: spec,
      evidence: () => ({ text: e.evidence, truncated: false, files: [] }),
      redact: (t) => guard.redactText(t),
      price: () => null,
      maxTokens: 1024,
      nowMs: () => performance.now(),
    });
    const r = await judge.run({ ...j, model: spec }, signal);
    const a = out.get(j) ?? { judge: j.judge, model: spec, matches: 0, total: 0, misses: [] };
    a.total++;
    if (r.judge?.verdict === e.verdict) a.matches++;
    else a.misses.push(`example ${i + 1}: labelled "${e.verdict}", the judge said ${r.judge?.verdict ? `"${r.judge.verdict}"` : `nothing valid (${r.judge?.reasons ?? r.output_tail})`}`);
    out.set(j, a);
  }
  return [...out.values()];
}

export function agreementText(a: JudgeAgreement): string {
  return `${a.matches}/${a.total} (${a.total ? Math.round((a.matches / a.total) * 100) : 0}%)`;
}
