// kite-progress.json — the format of the original Kite: {goal, log: [], features: [{id, title,
// status, verify, notes}]}. Unknown keys are kept (loose objects) so a hand-edited file loses
// nothing when Kite rewrites it. Writes are atomic (temp file + rename).
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { FeatureStatusSchema, OutcomeSchema } from '../protocol/events';
import { ContractsSchema } from '../policy/contracts';
import { firstIssueAt, formatIssues, jsonPath } from '../config/formatIssues';
import { describeJsonProblem, parseJsonText } from '../config/jsonText';
import { kiteFileError } from './kiteFileError';
import { JudgeCheckSchema } from '../gate/judgeCheck';

export const PROGRESS_FILE = 'kite-progress.json';

export const FeatureSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().min(1),
  status: FeatureStatusSchema,
  // Shell command the gate runs for this feature; "none": no command can check it, a person confirms done (attended runs).
  verify: z
    .string()
    .nullable()
    .optional()
    .describe('Shell command the gate runs for this feature (exit 0 = verified). "none": no command can check it; a person confirms done in an attended run, an unattended run ends unverified. With no verify and no checks, a run ends unverified, never done.'),
  notes: z.string().optional(), // closing summaries of earlier sessions
  tools: z.array(z.string()).optional(), // restricts the tools this feature may use
  may_change: z.array(z.string()).optional(), // protected files (globs) this feature is meant to change
  contracts: ContractsSchema.optional(), // trajectory contracts of this feature, on top of the config's
  // Judged checks of this feature (gate/judgeCheck.ts), run by the gate after its commands.
  judges: z.array(JudgeCheckSchema).optional().describe('Judged checks: rubrics a separate model call answers yes or no about this run\'s diff, e.g. [{"judge": "The README documents the new --since flag with an example"}].'),
  // The feature is done without changing any file (e.g. "confirm the tests pass"); otherwise a run that changed nothing is not done.
  expects_no_change: z.boolean().optional().describe('true: this feature may be done without changing any file. Otherwise a run that changed no file does not pass the gate.'),
});
export type Feature = z.infer<typeof FeatureSchema>;

/** The feature's verify command; `"none"` is not a command (it says a person confirms done). */
export function verifyOf(feature: Feature): string | null {
  const v = feature.verify?.trim();
  return v && !isVerifyNone(feature) ? v : null;
}

export function isVerifyNone(feature: Feature): boolean {
  return feature.verify?.trim().toLowerCase() === 'none';
}

export const LogEntrySchema = z.looseObject({
  date: z.string(),
  feature: z.string(),
  outcome: z.union([OutcomeSchema, z.string()]),
  turns: z.number().optional(),
  tokens: z.number().optional(),
  cost: z.number().optional(),
  commit: z.string().nullable().optional(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

export const ProgressFileSchema = z
  .looseObject({
    goal: z.string(),
    log: z.array(LogEntrySchema).default([]),
    features: z.array(FeatureSchema),
  })
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.features.forEach((f, i) => {
      if (seen.has(f.id)) ctx.addIssue({ code: 'custom', path: ['features', i, 'id'], message: `duplicate feature id "${f.id}"` });
      seen.add(f.id);
    });
  });
export type ProgressFile = z.infer<typeof ProgressFileSchema>;

export type ProgressErrorCode = 'not_found' | 'invalid_json' | 'invalid_progress' | 'no_feature' | 'unknown_feature';

export class ProgressError extends Error {
  constructor(
    readonly code: ProgressErrorCode,
    message: string,
    /** Where in the file the problem is, when it is a schema problem the text locates. */
    readonly at?: { line: number; column: number },
  ) {
    super(message);
    this.name = 'ProgressError';
  }
}

/** "$.features[2].status (feature F3)": the id tells which feature, the path where. */
function progressLabel(raw: unknown): (path: readonly PropertyKey[]) => string {
  return (path) => {
    const base = jsonPath(path);
    if (path[0] !== 'features' || typeof path[1] !== 'number' || path.length < 3) return base;
    const features = (raw as { features?: unknown } | null)?.features;
    const f: unknown = Array.isArray(features) ? features[path[1]] : undefined;
    const id = f && typeof f === 'object' ? (f as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id ? `${base} (feature ${id})` : base;
  };
}

export function parseProgress(text: string, file = PROGRESS_FILE): ProgressFile {
  const json = parseJsonText(text);
  if (!json.ok) throw new ProgressError('invalid_json', describeJsonProblem(file, json.problem));
  const raw = json.value;
  const parsed = ProgressFileSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ProgressError('invalid_progress', formatIssues(file, parsed.error, { raw, label: progressLabel(raw), text }), first ? (firstIssueAt(text, first) ?? undefined) : undefined);
  }
  return parsed.data;
}

/** The nearest folder above `dir` that holds a progress file, or null. */
function progressAbove(dir: string): string | null {
  for (let d = dirname(dir); d !== dirname(d); d = dirname(d)) if (existsSync(join(d, PROGRESS_FILE))) return d;
  return null;
}

export function loadProgress(path: string): ProgressFile {
  if (!existsSync(path)) {
    // Started from a subfolder of the project: say where the project is.
    const above = basename(path) === PROGRESS_FILE ? progressAbove(dirname(path)) : null;
    const hint = above ? `; the project seems to be ${above} (run kite there, or give it as DIR)` : ' (run `kite init` to create one)';
    throw new ProgressError('not_found', `${path}: no progress file${hint}`);
  }
  return parseProgress(readFileSync(path, 'utf8'), path);
}

/** Atomic: a crash or a failed write (ENOSPC, EROFS…) leaves the old file, never half of one, and
 *  no temp file; the error (KiteFileError) names the file and the errno. */
export function saveProgress(path: string, data: ProgressFile): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    rmSync(tmp, { force: true }); // a stale one from a killed process with the same pid
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { flag: 'wx' }); // wx: never through a planted file or link
    renameSync(tmp, path);
  } catch (e) {
    try {
      rmSync(tmp, { force: true }); // a folder at that name is not ours: left alone (rmSync refuses it)
    } catch {
      // nothing of ours to remove
    }
    throw kiteFileError('write', path, e);
  }
}

/** --feature ID, else the first in_progress, else the first todo. */
export function currentFeature(data: ProgressFile, id?: string): Feature {
  if (id !== undefined) {
    const f = data.features.find((x) => x.id === id);
    if (!f) throw new ProgressError('unknown_feature', `no feature "${id}" in the progress file (features: ${data.features.map((x) => x.id).join(', ') || 'none'})`);
    return f;
  }
  const f = data.features.find((x) => x.status === 'in_progress') ?? data.features.find((x) => x.status === 'todo');
  if (!f) {
    const shown = data.features.slice(0, 8).map((x) => `${x.id} ${x.status}`);
    if (data.features.length > 8) shown.push(`and ${data.features.length - 8} more`);
    const what = shown.length ? `: ${shown.join(', ')}` : ': the progress file lists no features';
    throw new ProgressError(
      'no_feature',
      `no feature left to work on — none is todo or in_progress${what}. Put one back to todo with \`kite reset ID\` (a proposed one, for instance), add a "todo" feature to ${PROGRESS_FILE}, or choose one with --feature ID`,
    );
  }
  return f;
}

/** A fresh id not used by any feature: Q1, Q2, … (proposals), or the given prefix. */
export function nextFeatureId(data: ProgressFile, prefix = 'Q'): string {
  const used = new Set(data.features.map((f) => f.id));
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
