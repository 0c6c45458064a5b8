// What a write WOULD do, computed without touching disk: approvals show it as a diff, intent
// records hash it. Each write tool previews through previewFile and commits with commitWrite, so
// preview == effect; the loop reaches any tool's preview through previewWrite.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { looksBinary } from './binary';
import { fail, ok } from './defineTool';
import { sha256 } from './hash';
import { resolveInWorkspace } from './paths';
import type { AnyTool, PreviewContext, ToolOutcome, WritePreview } from './types';

export type { WritePreview } from './types';

/** What a write tool computes from the file's current text: the new content (and its own details). */
export type Proposal = Omit<WritePreview, 'path' | 'abs' | 'before'>;

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
 * The preview of a write to one workspace file: confinement, the file's current text, then the
 * tool's `propose` (given that text, null when the file does not exist yet). Never writes.
 */
export function previewFile(ctx: PreviewContext, rawPath: string, propose: (before: string | null, rel: string) => Proposal | ToolOutcome): WritePreview | ToolOutcome {
  const r = resolveInWorkspace(ctx.root, ctx.logDir, rawPath, { forWrite: true });
  if (!r.ok) return fail(r.code, `${r.message} Nothing was written.`);
  if (r.rel === '') return fail('is_directory', 'The workspace root is a directory; give a file path. Nothing was written.');
  const before = readCurrent(r.abs, r.rel);
  if (isOutcome(before)) return before;
  const p = propose(before, r.rel);
  return isOutcome(p) ? p : { ...p, path: r.rel, abs: r.abs, before };
}

/**
 * What a call of `tool` (args validated by its schema) would write, or the error outcome the tool
 * would return. Never writes and never throws: a failing preview is an is_error result.
 */
export function previewWrite(ctx: PreviewContext, tool: AnyTool, args: unknown): WritePreview | ToolOutcome {
  if (tool.effect !== 'write') return fail('invalid_args', `${tool.name} does not write files, so there is nothing to preview.`);
  try {
    return tool.preview(args, ctx);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return fail('failed', `${tool.name} could not work out its change${err.code ? ` (${err.code})` : ''}: ${err.message ?? String(e)}. Nothing was written.`);
  }
}

export function isOutcome(x: unknown): x is ToolOutcome {
  return isRecord(x) && typeof x.is_error === 'boolean' && 'output' in x;
}

const lineCount = (s: string): number => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));

/**
 * Writes `content` to a workspace file (parents created). Used by write_file, edit_file and by
 * the loop when a person approved an edited version. Re-checks confinement at write time.
 */
export function commitWrite(ctx: PreviewContext, relPath: string, content: string): ToolOutcome {
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
