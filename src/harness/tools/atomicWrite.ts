// How a tool writes a workspace file so that the path check and the write act on the same object:
// confinement resolves the real path; right before writing, the parent folder's real path is
// checked to be that same folder; the content goes to a new temp file in it (O_EXCL|O_NOFOLLOW:
// never through a planted link) and is renamed over the target. rename replaces the directory
// entry (a new inode), so a hard link to an outside file or a symlink swapped in at the last
// component is never written through. The file mode of a replaced file is kept.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fail, ok } from './defineTool';
import { sha256 } from './hash';
import { GUARD_RULES, readGuarded } from './openGuarded';
import { resolveInWorkspace } from './paths';
import type { PreviewContext, ToolOutcome } from './types';

const lineCount = (s: string): number => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return `${err.code ?? 'error'}: ${err.message ?? String(e)}`;
}

/** Null when `dir` is still the real folder confinement approved, else why not. */
function folderMoved(dir: string): string | null {
  try {
    const real = fs.realpathSync(dir);
    return real === dir ? null : `its folder now leads to ${real}`;
  } catch (e) {
    return `its folder is gone (${errText(e)})`;
  }
}

const changed = (rel: string, why: string): ToolOutcome =>
  fail('failed', `"${rel}" changed while Kite was writing it (${why}; rule ${GUARD_RULES.changed}). Nothing was written; look at the path again before retrying.`, { path: rel });

export function atomicWrite(ctx: PreviewContext, relPath: string, content: string): ToolOutcome {
  const r = resolveInWorkspace(ctx.root, ctx.logDir, relPath, { forWrite: true });
  if (!r.ok) return fail(r.code, `${r.message} Nothing was written.`);
  if (r.rel === '') return fail('is_directory', 'The workspace root is a directory; give a file path. Nothing was written.');
  const dir = path.dirname(r.abs);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOTDIR' || err.code === 'EEXIST' ? 'a parent of it is a file, not a directory' : errText(e);
    return fail('failed', `Could not create the folder for "${r.rel}" (${why}). Nothing was written.`, { path: r.rel });
  }
  const moved = folderMoved(dir);
  if (moved) return changed(r.rel, moved);

  // What is there now, looked at without following a link at the last component.
  let mode: number | null = null;
  let previous: string | null = null;
  let existed = false;
  try {
    const st = fs.lstatSync(r.abs);
    existed = true;
    if (st.isSymbolicLink()) return changed(r.rel, 'it is now a symlink');
    if (st.isDirectory()) return fail('is_directory', `"${r.rel}" is a directory; it cannot be written as a file. Nothing was written.`, { path: r.rel });
    if (!st.isFile()) return fail('special_file', `"${r.rel}" is not a regular file (a FIFO, socket or device); Kite's file tools do not write to it (rule ${GUARD_RULES.special}). Nothing was written.`, { path: r.rel });
    mode = st.mode & 0o7777;
    const g = readGuarded(r.abs, r.rel, Number.MAX_SAFE_INTEGER);
    if (g.ok) previous = g.buf.toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return fail('failed', `"${r.rel}" could not be examined (${errText(e)}). Nothing was written.`, { path: r.rel });
  }

  const tmp = path.join(dir, `.${path.basename(r.abs).slice(0, 100)}.kite-${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode ?? 0o666);
  } catch (e) {
    return fail('failed', `Could not create a temporary file next to "${r.rel}" (${errText(e)}). Nothing was written.`, { path: r.rel });
  }
  try {
    if (mode !== null) fs.fchmodSync(fd, mode); // the umask must not change a replaced file's mode
    const data = Buffer.from(content, 'utf8');
    let n = 0;
    while (n < data.length) n += fs.writeSync(fd, data, n, data.length - n);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    return fail('failed', `Writing "${r.rel}" failed (${errText(e)}). The file was not modified.`, { path: r.rel });
  }
  fs.closeSync(fd);
  // Last look right before the rename: the folder must still be the real one.
  const movedLate = folderMoved(dir);
  if (movedLate) {
    fs.rmSync(tmp, { force: true });
    return changed(r.rel, movedLate);
  }
  try {
    fs.renameSync(tmp, r.abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    return fail('failed', `Writing "${r.rel}" failed (${errText(e)}). The file was not modified.`, { path: r.rel });
  }
  const lines = lineCount(content);
  const what = `${lines} line${lines === 1 ? '' : 's'}, ${Buffer.byteLength(content)} bytes`;
  const verb = !existed ? 'Created' : previous === content ? 'Rewrote (content unchanged)' : 'Overwrote';
  return ok(`${verb} ${r.rel} (${what}).`, { path: r.rel, post_hash: sha256(content) });
}
