// Which changed files a run's commit may hold: those its own log accounts for. A file is the run's
// work when a tool write recorded its current content (path + post_hash), or when a command of the
// run (an exec call that ran) could have made it. A file changed after the run wrote it (the person
// editing it, a check rewriting it) or changed with no record at all is left out and named. A file
// the person saved in the editor during the run (a `person_edit` event, reported by VS Code) is
// theirs unless its current content is exactly what the run's last write of it left: a command that
// ran after the save cannot tell whose work it is, and when in doubt the file stays out.
import { join } from 'node:path';
import type { RunState } from '../protocol/reducer';
import { fileSha256 } from '../tools/hash';

export interface RunRecord {
  /** Workspace-relative path → the hash the run's last write left (null: removed) and its seq. */
  files: Readonly<Record<string, { post_hash: string | null; seq: number }>>;
  /** Seq of the run's last command that ran (null: none ran). */
  lastCommandSeq: number | null;
  /** Files only a recorded write may account for (protected files: commands see them read-only). */
  writeOnly?: (wsPath: string) => boolean;
  /** Files Kite itself writes during the run (the progress file, .kite/config.json on "Always allow"). */
  kiteOwn?: readonly string[];
  /** Files the person saved in the editor during the run, with the seq of the save. */
  personEdits?: Readonly<Record<string, { seq: number }>>;
}

/** The record of a run from its folded log. */
export function runRecordOf(s: RunState, writeOnly?: (wsPath: string) => boolean, kiteOwn?: readonly string[]): RunRecord {
  let last: number | null = null;
  for (const c of Object.values(s.calls)) {
    const ran = c.effect === 'exec' && c.resultSeq !== null && c.decision !== 'deny' && c.approval !== 'deny' && (c.decision === 'allow' || c.approval !== null);
    if (ran && (last === null || (c.resultSeq ?? 0) > last)) last = c.resultSeq;
  }
  return { files: s.files, lastCommandSeq: last, writeOnly, kiteOwn, personEdits: s.personEdits };
}

/** Why a changed file (workspace-relative) is not the run's work, or null when it is. */
export function notTheRunsWork(root: string, wsPath: string, rec: RunRecord): string | null {
  if (rec.kiteOwn?.includes(wsPath)) return null;
  const writeOnly = rec.writeOnly?.(wsPath) ?? false;
  const w = rec.files[wsPath];
  const saved = rec.personEdits?.[wsPath];
  if (saved && (!w || w.post_hash !== fileSha256(join(root, wsPath)))) return 'you saved it in the editor during the run';
  if (w) {
    if (w.post_hash === fileSha256(join(root, wsPath))) return null;
    if (rec.lastCommandSeq !== null && rec.lastCommandSeq > w.seq && !writeOnly) return null;
    return 'changed after the run wrote it';
  }
  if (rec.lastCommandSeq !== null && !writeOnly) return null;
  return writeOnly && rec.lastCommandSeq !== null ? 'a protected file that no write of the run recorded' : 'no write or command of the run recorded it';
}
