// What "restore the workspace to right after event SEQ" would do, without doing it: for every file
// the run touched, its content then (files created later: removed), compared with the file now.
// A file whose content now differs from what the run (or the last restore) left there was changed
// by a person since: it is marked, and only overwritten when asked explicitly (applyRestore).
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { KiteEvent, SessionStart } from '../protocol/events';
import { readLog } from '../events/reader';
import { sha256 } from '../tools/hash';
import { fileTimelines, type FileTimeline, type Refused } from './fileTimeline';
import { currentContent, FileStates } from './fileStates';

export type RestoreErrorCode = 'bad_seq' | 'not_restorable' | 'log_problem' | 'locked' | 'log_changed';

export class RestoreError extends Error {
  constructor(
    readonly code: RestoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RestoreError';
  }
}

export interface RestoreChange {
  path: string; // workspace-relative
  action: 'write' | 'remove';
  content: string | null; // what it gets (null: removed)
  currentHash: string | null; // sha256 now (null: absent)
  /** Its content now is not what the run (or the last restore) left there: a person changed it. */
  changedByPerson: boolean;
  why: string; // e.g. "as after event 12", "as before the run", "created by the run at event 14"
}

export interface RestorePlan {
  log: string;
  root: string;
  logDir: string;
  toSeq: number;
  lastSeq: number; // the log's last event when planned: applyRestore refuses a log that grew since
  changes: RestoreChange[];
  unchanged: string[]; // already as they were then
  kept: Refused[]; // touched files a restore cannot (or will not) put back, and why
}

const hashOf = (text: string | null): string | null => (text === null ? null : sha256(text));

function inside(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** Reads the log (full validation) and plans; throws RestoreError with what is wrong. */
export async function planRestoreOfLog(log: string, toSeq: number): Promise<RestorePlan> {
  const abs = resolve(log);
  const r = await readLog(abs);
  const broken = r.problems.find((p) => p.chain);
  if (broken) throw new RestoreError('log_problem', `${abs} line ${broken.line}: ${broken.message}; a restore acts on the files a log names, so it does not act on a log that was changed`);
  if (r.format !== 'kite') throw new RestoreError('not_restorable', `${abs} is a log of the original Kite (no event numbers, no hashes); it cannot be restored from`);
  return planRestore(abs, r.events, toSeq);
}

export function planRestore(log: string, events: readonly KiteEvent[], toSeq: number): RestorePlan {
  const start = events.find((e): e is SessionStart => e.kind === 'session_start');
  if (!start) throw new RestoreError('not_restorable', `${log} has no session_start event, so its workspace is unknown`);
  const lastSeq = events.at(-1)?.seq ?? 0;
  if (!events.some((e) => e.seq === toSeq)) throw new RestoreError('bad_seq', `${log} has no event ${toSeq} (its events are 0 to ${lastSeq})`);
  const root = realOrSelf(start.root);
  const logDir = dirname(realOrSelf(log));
  // The log folder is always inside the workspace (config/logDir.ts): a log naming another root is not this workspace's.
  if (!inside(root, logDir)) throw new RestoreError('not_restorable', `${log} is not inside the workspace it names (${start.root}); a restore only acts on the workspace that holds the log`);
  const { files, refused } = fileTimelines(events, root, logDir);
  const states = new FileStates(root, start.git_head);
  const plan: RestorePlan = { log, root, logDir, toSeq, lastSeq, changes: [], unchanged: [], kept: [...refused] };
  for (const f of files) {
    const now = currentContent(f);
    if (!now.known) {
      plan.kept.push({ path: f.rel, reason: now.reason });
      continue;
    }
    const then = states.at(f, toSeq, now);
    if (!then.known) {
      plan.kept.push({ path: f.rel, reason: then.reason });
      continue;
    }
    if (then.text === now.text) {
      plan.unchanged.push(f.rel);
      continue;
    }
    const last = states.lastHash(f, now);
    plan.changes.push({
      path: f.rel,
      action: then.text === null ? 'remove' : 'write',
      content: then.text,
      currentHash: hashOf(now.text),
      changedByPerson: last === undefined || last !== hashOf(now.text),
      why: whyText(f, toSeq),
    });
  }
  return plan;
}

function whyText(f: FileTimeline, toSeq: number): string {
  const before = f.touches.filter((t) => t.seq <= toSeq);
  const first = f.touches[0];
  if (!before.length) return first.kind === 'write' && first.preHash === null ? `created by the run at event ${first.seq}: removed` : 'as before the run';
  return `as after event ${before[before.length - 1].seq}`;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
