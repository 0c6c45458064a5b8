// The end of a run, in the progress file and git: status, notes (the agent's closing summary),
// a log entry, QUEUE proposals as new `proposed` features, and — on done only — one commit of
// the work with message `<id>: <title>` (the log folder never included).
import { assertNever, type FeatureStatus, type Outcome } from '../protocol/events';
import { commitAll } from './git';
import { loadProgress, nextFeatureId, saveProgress, type ProgressFile } from './progressFile';
import { redactSecrets, secretValues } from './secretScan';

export const MAX_NOTES_CHARS = 4_000;

/** Lines `QUEUE: <title>` of the closing message, in order, without duplicates. */
export function parseQueue(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^[ \t>*-]*QUEUE:[ \t]*(.+?)[ \t]*$/gm)) {
    const title = m[1].trim();
    if (title && !out.includes(title)) out.push(title);
  }
  return out;
}

/** The closing summary without its QUEUE lines (those become features, not notes). */
export function stripQueue(text: string): string {
  return text
    .replace(/^[ \t>*-]*QUEUE:.*$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function statusFor(outcome: Outcome): FeatureStatus {
  switch (outcome) {
    case 'done':
    case 'gate_failed':
    case 'budget_exceeded':
    case 'stuck':
    case 'error':
      return outcome;
    case 'refused':
    case 'context_exceeded':
      return 'error';
    case 'cancelled':
      return 'in_progress'; // picked up again by the next run (or resumed)
    default:
      return assertNever(outcome, 'outcome');
  }
}

export interface FinishInput {
  root: string; // work tree root (the worktree with --worktree)
  progressPath: string;
  fallback: ProgressFile; // used when the agent left the file unreadable
  featureId: string;
  outcome: Outcome;
  summary: string;
  turns: number;
  tokens: number;
  costUsd: number;
  logDir: string; // excluded from the commit
  commit: boolean; // false for replays and dry runs
  now?: Date;
  /** Whose secret values must stay out of the notes and the commit (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Changes the person had before the run (--allow-dirty): left out of the commit if untouched. */
  keep?: ReadonlyMap<string, string | null>;
  /** The model could not be used (key, network): keep the feature in_progress, not error. */
  modelUnavailable?: boolean;
}

export interface FinishResult {
  outcome: Outcome; // 'error' when the commit failed
  commit: string | null;
  proposals: string[]; // ids of the new proposed features
  progress: ProgressFile;
  error: string | null;
}

export function finishFeature(input: FinishInput): FinishResult {
  let data: ProgressFile;
  try {
    // Re-read: the agent may legitimately have edited the file (e.g. notes on other features).
    data = loadProgress(input.progressPath);
  } catch {
    data = structuredClone(input.fallback);
  }
  let feature = data.features.find((f) => f.id === input.featureId);
  if (!feature) {
    // The agent removed it; restore it from the copy taken at the start.
    const orig = input.fallback.features.find((f) => f.id === input.featureId);
    if (!orig) throw new Error(`feature ${input.featureId} vanished from the progress file`);
    feature = structuredClone(orig);
    data.features.push(feature);
  }
  const now = input.now ?? new Date();
  const date = now.toISOString().slice(0, 16).replace('T', ' ');
  let outcome = input.outcome;

  feature.status = input.modelUnavailable && outcome === 'error' ? 'in_progress' : statusFor(outcome);
  // The closing words are the model's: it may have read a key and repeated it.
  const secrets = secretValues(input.env ?? process.env);
  const summary = redactSecrets(input.summary, secrets);
  const closing = stripQueue(summary);
  if (closing) {
    const entry = `[${date} ${outcome}] ${closing}`;
    const notes = feature.notes?.trim() ? `${feature.notes.trim()}\n\n${entry}` : entry;
    feature.notes = notes.length > MAX_NOTES_CHARS ? `…${notes.slice(notes.length - MAX_NOTES_CHARS)}` : notes;
  }

  const proposals: string[] = [];
  for (const title of parseQueue(summary)) {
    if (data.features.some((f) => f.title.toLowerCase() === title.toLowerCase())) continue;
    const id = nextFeatureId(data, 'Q');
    data.features.push({ id, title, status: 'proposed', verify: null, notes: `Proposed by the agent during ${input.featureId} on ${date}.` });
    proposals.push(id);
  }

  const entry = { date, feature: input.featureId, outcome, turns: input.turns, tokens: input.tokens, cost: Math.round(input.costUsd * 10_000) / 10_000, commit: null as string | null };
  data.log.push(entry);
  saveProgress(input.progressPath, data);

  let commit: string | null = null;
  let error: string | null = null;
  if (outcome === 'done' && input.commit) {
    try {
      commit = commitAll(input.root, `${feature.id}: ${feature.title}`, [input.logDir], secrets, input.keep);
      // The sha can only be known after the commit; recording it leaves the progress file
      // modified, which the next run's dirty check tolerates (Kite owns that file).
      entry.commit = commit;
      saveProgress(input.progressPath, data);
    } catch (e) {
      outcome = 'error';
      error = `the gate passed but the commit failed: ${(e as Error).message}`;
      feature.status = 'error';
      entry.outcome = outcome;
      saveProgress(input.progressPath, data);
    }
  }
  return { outcome, commit, proposals, progress: data, error };
}
