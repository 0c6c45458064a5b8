// One eval case: `<suite>/<name>/case.json`. The starting state of the project (a bundled folder,
// a commit of a repository, or a git bundle), the feature, the checks, the model, the limits and
// what must hold at the end. A malformed case is a SuiteError naming the file and the field.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../config/formatIssues';
import { describeJsonProblem, parseJsonText } from '../config/jsonText';
import { KiteConfigFileSchema } from '../config/config';
import { OutcomeSchema } from '../protocol/events';
import { ContractsSchema } from '../policy/contracts';
import { CheckEntrySchema, JudgeCheckSchema } from '../gate/judgeCheck';
import { caseJudges, exampleJudge, JudgeExampleSchema } from './judgeAgreement';

export const CASE_FILE = 'case.json';

const StartSchema = z.union([
  z.strictObject({ folder: z.string().min(1) }), // relative to the case folder
  z.strictObject({ commit: z.string().min(4), repo: z.string().min(1).optional() }), // repo: default the one holding the case
  z.strictObject({ bundle: z.string().min(1), ref: z.string().min(1).optional() }),
]);

const regex = z.string().superRefine((v, ctx) => {
  try {
    new RegExp(v);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(e as Error).message}` });
  }
});

const FileExpectationSchema = z.strictObject({
  path: z.string().min(1),
  changed: z.boolean().optional(), // true: must change; false: must not
  contains: z.string().optional(),
  matches: regex.optional(), // over the file's content at the end
});

export const ExpectSchema = z.strictObject({
  outcome: OutcomeSchema.optional(),
  gates: z.array(z.enum(['passed', 'failed'])).optional(), // the gate verdicts in order
  files: z.array(FileExpectationSchema).optional(),
  diagnosis: regex.optional(), // a finding of `kite diagnose` (message or cause) must match
  max_turns: z.number().int().positive().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_usd: z.number().positive().optional(),
  contracts: z.array(z.string().min(1)).optional(), // ids of the run's contracts (config + feature) that must hold
});
export type Expect = z.infer<typeof ExpectSchema>;

const CaseObjectSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  goal: z.string().optional(), // the progress file's goal when the start has none
  start: StartSchema,
  feature: z.strictObject({
    id: z.string().min(1),
    title: z.string().min(1),
    verify: z.string().nullable().optional(),
    notes: z.string().optional(),
    tools: z.array(z.string()).optional(),
    may_change: z.array(z.string()).optional(),
    contracts: ContractsSchema.optional(),
    judges: z.array(JudgeCheckSchema).optional(),
  }),
  checks: z.array(CheckEntrySchema).optional(),
  /** Laid over the start's .kite/config.json (policy, sandbox, max_gate_failures…). */
  config: KiteConfigFileSchema.omit({ checks: true, log_dir: true }).partial().optional(),
  model: z.string().min(1).optional(), // a spec; script:<file> is relative to the case folder
  limits: z.strictObject({ turns: z.number().int().positive().optional(), tokens: z.number().int().positive().optional(), usd: z.number().positive().optional(), wall_s: z.number().positive().optional() }).optional(),
  expect: ExpectSchema,
  /** What the recorded run did (written by `kite eval add`; informational). */
  recorded: z.looseObject({}).optional(),
  /** Labelled examples for the case's judged checks: `kite eval` reports each judge's agreement. */
  judge_examples: z.array(JudgeExampleSchema).optional(),
});

export const CaseSchema = CaseObjectSchema.superRefine((c, ctx) => {
  const judges = caseJudges(c);
  (c.judge_examples ?? []).forEach((e, i) => {
    if (exampleJudge(judges, e)) return;
    const which = e.judge !== undefined ? `names the rubric "${e.judge}", which is not one of the case's judged checks` : judges.length ? 'names no rubric ("judge") and the case has several judged checks' : 'is for a judge, but the case has no judged check (in checks or feature.judges)';
    ctx.addIssue({ code: 'custom', path: ['judge_examples', i, 'judge'], message: `this example ${which}` });
  });
});
export type CaseFile = z.infer<typeof CaseSchema>;

export interface EvalCase {
  name: string; // the case folder's name
  dir: string; // absolute case folder
  file: string; // absolute case.json
  spec: CaseFile;
}

export type SuiteErrorCode = 'no_suite' | 'no_cases' | 'bad_case';

export class SuiteError extends Error {
  constructor(
    readonly code: SuiteErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SuiteError';
  }
}

/** One case from its case.json; a bad file names itself and the field. */
export function loadCase(dir: string): EvalCase {
  const file = join(resolve(dir), CASE_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new SuiteError('bad_case', `${file}: cannot read the case: ${(e as Error).message}`);
  }
  const json = parseJsonText(text);
  if (!json.ok) throw new SuiteError('bad_case', describeJsonProblem(file, json.problem));
  const parsed = CaseSchema.safeParse(json.value);
  if (!parsed.success) throw new SuiteError('bad_case', formatIssues(file, parsed.error, { raw: json.value, knownKeys: Object.keys(CaseObjectSchema.shape), text }));
  return { name: basename(resolve(dir)), dir: resolve(dir), file, spec: parsed.data };
}

/** Every case of a suite: each sub-folder holding a case.json, by name (or the folder itself, when it is one case). */
export function loadSuite(dir: string): EvalCase[] {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new SuiteError('no_suite', `${root}: no such suite folder (a suite is a folder of cases, each <name>/case.json)`);
  if (existsSync(join(root, CASE_FILE))) return [loadCase(root)];
  const names = readdirSync(root)
    .filter((n) => existsSync(join(root, n, CASE_FILE)))
    .sort();
  if (!names.length) throw new SuiteError('no_cases', `${root}: no cases (a case is a folder holding ${CASE_FILE}; \`kite eval add LOG\` writes one from a run)`);
  return names.map((n) => loadCase(join(root, n)));
}
