// What a write WOULD do, computed without touching disk: approvals show it as a diff, intent
// records hash it. write_file and edit_file use the same functions, so preview == effect.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { looksBinary } from './binary';
import { fail, ok } from './defineTool';
import { applyEdit } from './editText';
import { sha256 } from './hash';
import { resolveInWorkspace } from './paths';
import type { ToolContext, ToolOutcome } from './types';

export interface WritePreview {
  path: string; // workspace-relative
  abs: string;
  before: string | null; // null: the file does not exist yet
  proposed: string;
  count?: number; // edit_file: occurrences replaced
  lines?: number[]; // edit_file: lines where the replaced text started
}

type Ctx = Pick<ToolContext, 'root' | 'logDir'>;

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Current text of a file, null when absent, or an error outcome (directory, binary). */
function readCurrent(abs: string, rel: string): string | null | ToolOutcome {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    return null;
  }
  if (st.isDirectory()) return fail('is_directory', `"${rel || '.'}" is a directory; it cannot be written as a file. Nothing was written.`, { path: rel });
  if (!st.isFile()) return fail('failed', `"${rel}" is not a regular file (a FIFO, socket or device); Kite's file tools do not write to it. Nothing was written.`, { path: rel });
  const buf = fs.readFileSync(abs);
  if (looksBinary(buf)) return fail('binary_file', `"${rel}" is a binary file; Kite's file tools only change text files. It was not modified.`, { path: rel });
  return buf.toString('utf8');
}

/**
 * The proposed full content of a write_file / edit_file call (args already validated), or the
 * error outcome the tool would return. Never writes.
 */
export function previewWrite(ctx: Ctx, name: string, args: unknown): WritePreview | ToolOutcome {
  if (!isRecord(args) || typeof args.path !== 'string') return fail('invalid_args', `${name} needs a "path" string. Nothing was written.`);
  const r = resolveInWorkspace(ctx.root, ctx.logDir, args.path, { forWrite: true });
  if (!r.ok) return fail(r.code, `${r.message} Nothing was written.`);
  if (r.rel === '') return fail('is_directory', 'The workspace root is a directory; give a file path. Nothing was written.');
  const before = readCurrent(r.abs, r.rel);
  if (isOutcome(before)) return before;
  if (name === 'write_file') {
    if (typeof args.content !== 'string') return fail('invalid_args', 'write_file needs a "content" string. Nothing was written.');
    return { path: r.rel, abs: r.abs, before, proposed: args.content };
  }
  if (name === 'edit_file') {
    if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') return fail('invalid_args', 'edit_file needs "old_string" and "new_string" strings. The file was not modified.');
    if (before === null) return fail('not_found', `No file at "${r.rel}". edit_file only changes existing files; use write_file to create one. Nothing was written.`, { path: r.rel });
    const e = applyEdit(before, { old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all === true }, r.rel);
    if (!e.ok) return fail(e.code, e.message, { path: r.rel });
    return { path: r.rel, abs: r.abs, before, proposed: e.content, count: e.count, lines: e.lines };
  }
  return fail('invalid_args', `${name} does not write files; previewWrite applies to write_file and edit_file only.`);
}

export function isOutcome(x: unknown): x is ToolOutcome {
  return isRecord(x) && typeof x.is_error === 'boolean' && 'output' in x;
}

const lineCount = (s: string): number => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));

/**
 * Writes `content` to a workspace file (parents created). Used by write_file, edit_file and by
 * the loop when a person approved an edited version. Re-checks confinement at write time.
 */
export function commitWrite(ctx: Ctx, relPath: string, content: string): ToolOutcome {
  const r = resolveInWorkspace(ctx.root, ctx.logDir, relPath, { forWrite: true });
  if (!r.ok) return fail(r.code, `${r.message} Nothing was written.`);
  let previous: string | null = null;
  try {
    previous = fs.readFileSync(r.abs, 'utf8');
  } catch {
    previous = null;
  }
  try {
    fs.mkdirSync(path.dirname(r.abs), { recursive: true });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOTDIR' || err.code === 'EEXIST' ? 'a parent of it is a file, not a directory' : `${err.code ?? 'error'}: ${err.message}`;
    return fail('failed', `Could not create the folder for "${r.rel}" (${why}). Nothing was written.`, { path: r.rel });
  }
  try {
    fs.writeFileSync(r.abs, content);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const state = previous === null ? 'The file may exist now with partial content.' : 'The file may now hold partial content; read it before retrying.';
    return fail('failed', `Writing "${r.rel}" failed (${err.code ?? 'error'}: ${err.message}). ${state}`, { path: r.rel });
  }
  const n = lineCount(content);
  const what = `${n} line${n === 1 ? '' : 's'}, ${Buffer.byteLength(content)} bytes`;
  const verb = previous === null ? 'Created' : previous === content ? 'Rewrote (content unchanged)' : 'Overwrote';
  return ok(`${verb} ${r.rel} (${what}).`, { path: r.rel, post_hash: sha256(content) });
}
