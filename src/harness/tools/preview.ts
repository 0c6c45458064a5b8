// What a write WOULD do, computed without touching disk: approvals show it as a diff, intent
// records hash it. Each write tool previews through previewFile and commits with commitWrite, so
// preview == effect; the loop reaches any tool's preview through previewWrite.
import { atomicWrite } from './atomicWrite';
import { looksBinary } from './binary';
import { fail } from './defineTool';
import { readGuarded } from './openGuarded';
import { resolveInWorkspace } from './paths';
import type { AnyTool, PreviewContext, ToolOutcome, WritePreview } from './types';

export type { WritePreview } from './types';

/** What a write tool computes from the file's current text: the new content (and its own details). */
export type Proposal = Omit<WritePreview, 'path' | 'abs' | 'before'>;

export const WRITE_LIMITS = { maxFileBytes: 10 * 1024 * 1024 };

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Current text of a file, null when absent, or an error outcome (directory, special file, hard link, binary, not UTF-8). */
function readCurrent(abs: string, rel: string): string | null | ToolOutcome {
  const g = readGuarded(abs, rel, WRITE_LIMITS.maxFileBytes);
  if (!g.ok) {
    if (g.code === 'not_found') return null;
    if (g.code === 'is_directory') return fail('is_directory', `"${rel || '.'}" is a directory; it cannot be written as a file. Nothing was written.`, { path: rel });
    return fail(g.code, `${g.message} Nothing was written.`, { path: rel });
  }
  if (looksBinary(g.buf)) return fail('binary_file', `"${rel}" is a binary file; Kite's file tools only change text files. It was not modified.`, { path: rel });
  const text = decodeUtf8(g.buf);
  // Decoding and re-encoding would replace every invalid byte with U+FFFD: refuse instead.
  if (text === null) {
    return fail('not_utf8', `"${rel}" is not valid UTF-8 text (perhaps Latin-1 or another legacy encoding). Kite's file tools never re-encode a file, so it was not modified. Convert it to UTF-8 with run (e.g. iconv) if that is intended.`, { path: rel });
  }
  return text;
}

/** The text of a valid UTF-8 buffer (a BOM kept as U+FEFF), or null when it is not valid UTF-8. */
export function decodeUtf8(buf: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buf);
  } catch {
    return null;
  }
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

/**
 * Writes `content` to a workspace file (parents created). Used by write_file, edit_file and by
 * the loop when a person approved an edited version. Never throws: every failure is an is_error
 * outcome the model is told about. See atomicWrite for how the write stays in the workspace.
 */
export function commitWrite(ctx: PreviewContext, relPath: string, content: string): ToolOutcome {
  try {
    return atomicWrite(ctx, relPath, content);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return fail('failed', `Writing "${relPath}" failed (${err.code ?? 'error'}: ${err.message ?? String(e)}). The file was not modified.`, { path: relPath });
  }
}
