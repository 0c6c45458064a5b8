// Workspace confinement: every path a tool touches resolves inside the workspace root, with
// symlinks followed (also for files that do not exist yet), and .git/ and the log folder refused
// for reads and writes alike (a past run's log may hold a secret a person let through once). Each refusal carries a typed code and the id of the rule that refused it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolErrorCode } from './types';

export type Resolved = { ok: true; abs: string; rel: string } | { ok: false; code: ToolErrorCode; message: string; rule: string };

export const CONFINE_RULES = {
  emptyPath: 'confine:empty-path',
  nul: 'confine:nul-byte',
  outside: 'confine:outside-workspace',
  symlink: 'confine:symlink-escape',
  loop: 'confine:symlink-loop',
  gitDir: 'confine:git-dir',
  logDir: 'confine:log-dir',
} as const;

/**
 * The real path `p` has or would have once created: the realpath of its deepest existing
 * ancestor plus the missing tail. Dangling symlinks are followed by hand, because writing through
 * one would create its target. Returns null on a symlink loop.
 */
export function realPathOf(p: string, depth = 0): string | null {
  if (depth > 40) return null;
  // lstat first, without throwing for a missing path: a file about to be written does not exist
  // yet, and two ENOENT exceptions per lookup were a good part of a tool call's overhead (issue 17).
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(p, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') return null;
    st = undefined;
  }
  if (st) {
    try {
      // The kernel's realpath(3): one system call, where fs.realpathSync lstats every component in
      // JavaScript (three resolutions per tool call).
      return fs.realpathSync.native(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') return null;
      // a dangling symlink (followed by hand below), or the path went away while we looked
    }
  }
  if (st?.isSymbolicLink()) {
    let link: string;
    try {
      link = fs.readlinkSync(p);
    } catch {
      return realPathOf(p, depth + 1); // swapped back from a link while we looked: look again
    }
    const parent = realPathOf(path.dirname(p), depth + 1);
    if (parent === null) return null;
    // A relative link is relative to the (real) directory holding it.
    const viaParent = path.isAbsolute(link) ? link : path.resolve(parent, link);
    return realPathOf(viaParent, depth + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p; // filesystem root
  const realParent = realPathOf(parent, depth + 1);
  return realParent === null ? null : path.join(realParent, path.basename(p));
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

const toPosix = (rel: string): string => rel.split(path.sep).join('/');

/**
 * Resolve a path given by the model (workspace-relative, or absolute inside the workspace).
 * `rel` is workspace-relative with forward slashes ('' for the root itself).
 */
export function resolveInWorkspace(root: string, logDir: string, p: string, opts: { forWrite: boolean }): Resolved {
  if (typeof p !== 'string' || p.trim() === '') {
    return { ok: false, code: 'bad_path', message: 'The path is empty. Give a workspace-relative path such as "src/index.ts".', rule: CONFINE_RULES.emptyPath };
  }
  if (p.includes('\0')) {
    return { ok: false, code: 'bad_path', message: 'The path contains a NUL byte, which no file name can contain.', rule: CONFINE_RULES.nul };
  }
  const realRoot = realPathOf(path.resolve(root)) ?? path.resolve(root);
  const lexical = path.resolve(realRoot, p);
  if (!isInside(realRoot, lexical) && !isInside(path.resolve(root), path.resolve(root, p))) {
    return {
      ok: false,
      code: 'outside_workspace',
      message: `"${p}" is outside the workspace. Tools only reach files inside the workspace root; use a workspace-relative path.`,
      rule: CONFINE_RULES.outside,
    };
  }
  const real = realPathOf(isInside(realRoot, lexical) ? lexical : path.resolve(root, p));
  if (real === null) {
    return { ok: false, code: 'bad_path', message: `"${p}" goes through a symlink loop.`, rule: CONFINE_RULES.loop };
  }
  if (!isInside(realRoot, real)) {
    return {
      ok: false,
      code: 'outside_workspace',
      message: `"${p}" goes through a symlink that points outside the workspace (to ${real}). Tools do not follow links out of the workspace.`,
      rule: CONFINE_RULES.symlink,
    };
  }
  const rel = toPosix(path.relative(realRoot, real));
  const act = opts.forWrite ? 'written' : 'read';
  if (rel.split('/').some((part) => part.toLowerCase() === '.git')) {
    return { ok: false, code: 'protected_path', message: `"${p}" is inside a .git directory. Git's own files (config with credentials, hooks) are never ${act} by tools; use git commands through run if you must.`, rule: CONFINE_RULES.gitDir };
  }
  if (isInLogDir(realRoot, logDir, real)) {
    const shown = toPosix(path.relative(realRoot, realPathOf(path.resolve(realRoot, logDir)) ?? logDir));
    return { ok: false, code: 'protected_path', message: `"${p}" is inside Kite's log folder (${shown}), which tools never ${opts.forWrite ? 'write' : 'read'}: it is append-only and may hold what earlier runs were allowed to see.`, rule: CONFINE_RULES.logDir };
  }
  return { ok: true, abs: real, rel };
}

/** Is the real path `real` inside (or is it) the run's log folder? */
export function isInLogDir(realRoot: string, logDir: string, real: string): boolean {
  const realLog = realPathOf(path.resolve(realRoot, logDir));
  return realLog !== null && isInside(realLog, real);
}
