// Carries out a RestorePlan the person confirmed: under the log's lock (one writer per log; a run
// still writing it keeps it), checks that the log did not grow and that no file changed since the
// plan, writes and removes through the tools' guards (confined, never through a link), then
// appends one `restore` event to the run's log, continuing its hash chain.
import { lstatSync, unlinkSync } from 'node:fs';
import { acquireLogLock, LogLockError } from '../events/logLock';
import { readLog } from '../events/reader';
import { EventWriter } from '../events/writer';
import type { EventOf } from '../protocol/events';
import { atomicWrite } from '../tools/atomicWrite';
import { sha256 } from '../tools/hash';
import { readGuarded } from '../tools/openGuarded';
import { resolveInWorkspace } from '../tools/paths';
import type { Refused } from './fileTimeline';
import { RestoreError, type RestoreChange, type RestorePlan } from './restorePlan';

export interface RestoreOptions {
  /** Also overwrite the files a person changed since the run (RestoreChange.changedByPerson). */
  overwriteChanged: boolean;
}

export interface RestoreResult {
  restored: RestoreChange[];
  kept: Refused[];
  event: EventOf<'restore'> | null; // null when no file changed (nothing is logged)
}

export async function applyRestore(plan: RestorePlan, opts: RestoreOptions): Promise<RestoreResult> {
  let lock;
  try {
    lock = acquireLogLock(plan.log);
  } catch (e) {
    if (e instanceof LogLockError) throw new RestoreError('locked', `${e.message}. A restore appends to the run's log, so it waits until the run has ended`);
    throw e;
  }
  try {
    const now = await readLog(plan.log);
    const last = now.events.at(-1)?.seq ?? 0;
    if (last !== plan.lastSeq) throw new RestoreError('log_changed', `${plan.log} grew since the restore was planned (last event ${plan.lastSeq}, now ${last}); nothing was restored, plan again`);
    const restored: RestoreChange[] = [];
    const kept: Refused[] = [...plan.kept];
    const files: EventOf<'restore'>['files'] = [];
    for (const c of plan.changes) {
      if (c.changedByPerson && !opts.overwriteChanged) {
        kept.push({ path: c.path, reason: 'changed since the run last wrote it; left as it is (overwriting it was not asked for)' });
        continue;
      }
      const problem = c.action === 'write' ? writeBack(plan, c) : removeFile(plan, c);
      if (problem) {
        kept.push({ path: c.path, reason: problem });
        continue;
      }
      restored.push(c);
      files.push({ path: c.path, before: c.currentHash, after: c.content === null ? null : sha256(c.content), changed_by_person: c.changedByPerson });
    }
    if (!files.length) return { restored, kept, event: null };
    const writer = EventWriter.reopen(plan.log);
    const event = writer.append({ kind: 'restore', to_seq: plan.toSeq, restored_at: new Date().toISOString(), files, kept }) as EventOf<'restore'>;
    return { restored, kept, event };
  } finally {
    lock.release();
  }
}

/** The file's hash now (of its text, as the plan hashed it), null when absent, or why it cannot be read. */
function hashNow(abs: string, rel: string): { hash: string | null } | { problem: string } {
  try {
    lstatSync(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { hash: null };
  }
  const g = readGuarded(abs, rel, Number.MAX_SAFE_INTEGER);
  return g.ok ? { hash: sha256(g.buf.toString('utf8')) } : { problem: g.message };
}

/** Null when the file still is what the plan saw, else why it is left alone. */
function movedOn(plan: RestorePlan, c: RestoreChange): { abs: string } | { problem: string } {
  const r = resolveInWorkspace(plan.root, plan.logDir, c.path, { forWrite: true });
  if (!r.ok) return { problem: `${r.message} (rule ${r.rule})` };
  const h = hashNow(r.abs, r.rel);
  if ('problem' in h) return h;
  if (h.hash !== c.currentHash) return { problem: 'changed after the list was shown; left as it is' };
  return { abs: r.abs };
}

function writeBack(plan: RestorePlan, c: RestoreChange): string | null {
  const m = movedOn(plan, c);
  if ('problem' in m) return m.problem;
  const out = atomicWrite({ root: plan.root, logDir: plan.logDir }, c.path, c.content ?? '');
  return out.is_error ? out.output : null;
}

function removeFile(plan: RestorePlan, c: RestoreChange): string | null {
  const m = movedOn(plan, c);
  if ('problem' in m) return m.problem;
  try {
    const st = lstatSync(m.abs);
    if (!st.isFile()) return `"${c.path}" is no longer a regular file; left as it is`;
    unlinkSync(m.abs); // removes the directory entry only: never reaches through a link
    return null;
  } catch (e) {
    return `"${c.path}" could not be removed (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
}
