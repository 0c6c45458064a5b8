// One writer per log: `<log>.lock` next to the log, holding who writes it (pid, host, since).
// Two writers would interleave seq numbers and both commit and close the run. The lock is made
// whole then linked into place (link fails if the name exists: as exclusive as O_EXCL, and a
// reader never sees a half-written holder). A lock of a dead process on this host is stale and
// taken over; one held by a live process (or on another host, which cannot be checked) is not.
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { LockHolderSchema as HolderSchema, type LockHolder } from '../protocol/rpc';

export type { LockHolder };

export class LogLockError extends Error {
  readonly code = 'locked';
  constructor(
    readonly holder: LockHolder | null,
    readonly lockPath: string,
  ) {
    const who = holder ? `another Kite (pid ${holder.pid} on ${holder.host}, since ${holder.started_at})` : 'another Kite';
    super(`${lockPath.slice(0, -'.lock'.length)} is being written by ${who}; a log has one writer at a time, so this one did not start (if no Kite is running it, delete ${lockPath})`);
    this.name = 'LogLockError';
  }
}

export interface LogLock {
  readonly path: string;
  /** The dead holder whose stale lock was taken over (log it), or null. */
  readonly tookOverFrom: LockHolder | null;
  release(): void;
}

export const lockPathOf = (log: string): string => `${log}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

function readHolder(path: string): LockHolder | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw e;
  }
  try {
    const r = HolderSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Takes the lock of `log` for this process, or throws LogLockError naming the live holder. */
export function acquireLogLock(log: string): LogLock {
  const path = lockPathOf(log);
  const me: LockHolder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, JSON.stringify(me) + '\n');
  let tookOverFrom: LockHolder | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = readHolder(path);
      if (holder === 'gone') continue; // released meanwhile: try again
      // A holder that is unreadable (not ours to judge), alive or on another host keeps the lock.
      const stale = holder !== null && holder.host === me.host && !alive(holder.pid);
      if (!stale || attempt > 2) throw new LogLockError(holder, path);
      // Two processes taking over the same stale lock at once is not guarded against: both would
      // have to start within the same instant on a log whose writer just died.
      removeIfThere(path);
      tookOverFrom = holder;
    }
  } finally {
    unlinkSync(tmp);
  }
  const onExit = (): void => release();
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', onExit);
    const holder = readHolder(path);
    // Only our own lock: a person may have deleted it and another Kite taken it since.
    if (holder !== 'gone' && holder?.pid === me.pid && holder.started_at === me.started_at) removeIfThere(path);
  };
  process.on('exit', onExit); // a crash or process.exit still frees the log
  return { path, tookOverFrom, release };
}

/**
 * Is a Kite writing `log` right now? Its lock is held by a live process (on another host, which
 * cannot be checked, or unreadable: assumed so). A crashed or killed run leaves a stale lock or
 * none, so its log is not "live" however recently it was written (issue 18 item 7).
 */
export function logIsBeingWritten(log: string): boolean {
  let holder: LockHolder | null | 'gone';
  try {
    holder = readHolder(lockPathOf(log));
  } catch {
    return false; // the folder cannot be read: no writer we could know of
  }
  if (holder === 'gone') return false;
  return holder === null || holder.host !== hostname() || alive(holder.pid);
}
