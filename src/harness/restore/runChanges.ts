// Every file a run changed, with its content at the run's starting commit: what "Review Changes"
// shows as one multi-file diff (starting commit ↔ the file now). The same confinement and
// before-the-run rule as a restore (fileTimeline.ts, fileStates.ts), so both agree on the files.
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readLog } from '../events/reader';
import type { SessionStart } from '../protocol/events';
import { fileTimelines } from './fileTimeline';
import { currentContent, FileStates } from './fileStates';
import { RestoreError } from './restorePlan';

export interface ChangedFile {
  path: string; // workspace-relative
  abs: string;
  /** At the starting commit: the text, null when the run created it, undefined when not known. */
  original: string | null | undefined;
  /** Now: null when the file is gone. */
  exists: boolean;
}

export interface RunChanges {
  root: string;
  startCommit: string | null;
  files: ChangedFile[];
  /** Touched files left out, and why (outside the workspace, Kite's own files, unreadable). */
  skipped: { path: string; reason: string }[];
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

export async function runChanges(log: string): Promise<RunChanges> {
  const { events } = await readLog(log, { validation: 'structural' });
  const start = events.find((e): e is SessionStart => e.kind === 'session_start');
  if (!start) throw new RestoreError('not_restorable', `${log} has no session_start event, so its workspace is unknown`);
  const root = real(start.root);
  const { files, refused } = fileTimelines(events, root, dirname(real(log)));
  const states = new FileStates(root, start.git_head);
  const out: RunChanges = { root, startCommit: start.git_head, files: [], skipped: [...refused] };
  for (const f of files) {
    const now = currentContent(f);
    if (!now.known) {
      out.skipped.push({ path: f.rel, reason: now.reason });
      continue;
    }
    const before = states.before(f, now);
    if (before.known && before.text === now.text) continue; // back as it was: nothing to review
    out.files.push({ path: f.rel, abs: f.abs, original: before.known ? before.text : undefined, exists: now.text !== null });
  }
  return out;
}
