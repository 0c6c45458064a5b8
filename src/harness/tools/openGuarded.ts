// The one way a tool reads a workspace file. The checks and the read act on the same object: the
// file is lstat'ed first (special files are never opened: a FIFO would block the event loop),
// opened without following a symlink at its last component and without blocking, then fstat'ed
// on the descriptor, and on Linux the descriptor's real path is checked to still be the file
// confinement approved. Files with more than one hard link are refused (the other link may be a
// file outside the workspace) unless a person approved that read (policy rule confine:hardlink).
import * as fs from 'node:fs';
import type { ToolErrorCode } from './types';

export const GUARD_RULES = {
  special: 'confine:special-file',
  hardlink: 'confine:hardlink',
  changed: 'confine:changed-during-access',
} as const;

export type GuardedRead =
  | { ok: true; buf: Buffer; size: number; mode: number }
  | { ok: false; code: ToolErrorCode; rule: string | null; message: string };

const refuse = (code: ToolErrorCode, rule: string | null, message: string): GuardedRead => ({ ok: false, code, rule, message });

export interface GuardOptions {
  /** Read a file with several hard links: only after a person approved it (policy rule confine:hardlink). */
  allowHardLink?: boolean;
}

/** Why a file's stat rules it out for a tool, or null when it is a plain, singly linked file. */
export function statRefusal(st: fs.Stats, rel: string, maxBytes: number, opts: GuardOptions = {}): GuardedRead | null {
  if (st.isDirectory()) return refuse('is_directory', null, `"${rel || '.'}" is a directory, not a file.`);
  if (st.isSymbolicLink()) return refuse('failed', GUARD_RULES.changed, `"${rel}" changed into a symlink while Kite was checking it (rule ${GUARD_RULES.changed}).`);
  if (!st.isFile()) return refuse('special_file', GUARD_RULES.special, `"${rel}" is not a regular file (a FIFO, socket or device); Kite's tools never open such files (rule ${GUARD_RULES.special}).`);
  if (st.nlink > 1 && !opts.allowHardLink) {
    return refuse('hardlink', GUARD_RULES.hardlink, `"${rel}" has ${st.nlink} hard links; another link may be a file outside the workspace, so Kite's tools neither read nor change it (rule ${GUARD_RULES.hardlink}). Copy it to a new file with run if you need its content.`);
  }
  if (st.size > maxBytes) return refuse('too_large', null, `"${rel}" is ${st.size} bytes, over the ${maxBytes}-byte limit.`);
  return null;
}

/** On Linux, where the descriptor really points (null elsewhere: the lstat/O_NOFOLLOW checks stand alone). */
function fdPath(fd: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** Reads `abs` (a real path confinement approved) if it is a regular, singly linked file within `maxBytes`. Never throws. */
export function readGuarded(abs: string, rel: string, maxBytes: number, opts: GuardOptions = {}): GuardedRead {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('not_found', null, `No file at "${rel}".`);
    return refuse('failed', null, `"${rel}" could not be examined (${code ?? 'error'}).`);
  }
  const before = statRefusal(st, rel, maxBytes, opts);
  if (before) return before;
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return refuse('failed', GUARD_RULES.changed, `"${rel}" changed into a symlink while Kite was opening it (rule ${GUARD_RULES.changed}).`);
    if (code === 'ENOENT') return refuse('not_found', null, `"${rel}" disappeared while Kite was opening it.`);
    return refuse('failed', null, `"${rel}" could not be opened (${code ?? 'error'}).`);
  }
  try {
    const fst = fs.fstatSync(fd);
    const after = statRefusal(fst, rel, maxBytes, opts);
    if (after) return after;
    const real = fdPath(fd);
    if (real !== null && real !== abs) return refuse('failed', GUARD_RULES.changed, `"${rel}" was moved or replaced while Kite was opening it (rule ${GUARD_RULES.changed}).`);
    const buf = Buffer.alloc(fst.size);
    let n = 0;
    while (n < fst.size) {
      const got = fs.readSync(fd, buf, n, fst.size - n, n);
      if (got === 0) break;
      n += got;
    }
    return { ok: true, buf: buf.subarray(0, n), size: fst.size, mode: fst.mode & 0o7777 };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return refuse('failed', null, `"${rel}" could not be read (${code ?? 'error'}).`);
  } finally {
    fs.closeSync(fd);
  }
}
