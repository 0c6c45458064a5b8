// The end of a run, in the progress file and git: status, notes (the agent's closing summary),
// a log entry, QUEUE proposals as new `proposed` features, and — on done only — one commit of
// the work with message `<id>: <title>` (the log folder never included).
import { assertNever, type FeatureStatus, type Outcome } from '../protocol/events';
import { commitAll, type CommitScope } from './git';
import type { RunRecord } from './commitScope';
import { loadProgress, nextFeatureId, saveProgress, type LogEntry, type ProgressFile } from './progressFile';
import { SecretGuard } from '../secrets/secretGuard';

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
    case 'unverified': // left for a person: not picked up again by the next run
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
  /** The run's secret guard (default: the one registered for root, else a fresh one from env). */
  secrets?: SecretGuard;
  /** Changes the person had before the run (--allow-dirty): left out of the commit if untouched. */
  keep?: ReadonlyMap<string, string | null>;
  /** What the run's log records (writes, commands): changed files it does not account for stay out of the commit. */
  record?: RunRecord;
  /** The model could not be used (key, network): keep the feature in_progress, not error. */
  modelUnavailable?: boolean;
}

export interface FinishResult {
  outcome: Outcome; // 'error' when the commit failed
  commit: string | null;
  proposals: string[]; // ids of the new proposed features
  progress: ProgressFile;
  error: string | null;
  /** Changed files the commit left out, and why (none: []). */
  leftOut: { path: string; why: string }[];
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
  // The closing words are the model's: it may have read a key and repeated it. The same detectors
  // as its tool results (known values, key shapes, high entropy) guard the notes, the QUEUE titles
  // and whatever the agent itself wrote into the progress file during the run.
  const guard = input.secrets ?? new SecretGuard({ root: input.root, env: input.env ?? process.env });
  const summary = guard.redactText(input.summary);
  for (const f of data.features) {
    f.title = guard.redactText(f.title);
    if (f.notes) f.notes = guard.redactText(f.notes);
  }
  data.goal = guard.redactText(data.goal);
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

  // After a done run the tree must be clean, so this entry goes into the feature's own commit
  // (one commit, nothing rewritten; amending instead would change the very sha it records). A commit
  // cannot contain its own sha: a done entry has no `commit` field; the sha is the event log's
  // session_end.commit and git's (the commit `<id>: <title>` that added this entry).
  const willCommit = outcome === 'done' && input.commit;
  const entry: LogEntry = { date, feature: input.featureId, outcome, turns: input.turns, tokens: input.tokens, cost: Math.round(input.costUsd * 10_000) / 10_000, ...(willCommit ? {} : { commit: null }) };
  data.log.push(entry);
  // The progress file cannot be written (ENOSPC, read-only…): it stays as it was (the save is
  // atomic), nothing is committed, and the run ends error naming the file and the errno.
  try {
    saveProgress(input.progressPath, data);
  } catch (e) {
    return { outcome: 'error', commit: null, proposals, progress: data, error: `${(e as Error).message}; nothing was committed`, leftOut: [] };
  }

  let commit: string | null = null;
  let error: string | null = null;
  const scope: CommitScope | undefined = input.record ? { record: input.record, leftOut: [] } : undefined;
  if (willCommit) {
    try {
      commit = commitAll(input.root, `${feature.id}: ${feature.title}`, [input.logDir], guard.commitSecrets(), input.keep, scope);
    } catch (e) {
      outcome = 'error';
      error = `the gate passed but the commit failed: ${(e as Error).message}`;
      feature.status = 'error';
      entry.outcome = outcome;
      entry.commit = null;
      try {
        saveProgress(input.progressPath, data);
      } catch (e2) {
        error = `${error}; ${(e2 as Error).message}`; // the file keeps its last complete version
      }
    }
  }
  return { outcome, commit, proposals, progress: data, error, leftOut: scope?.leftOut ?? [] };
}
