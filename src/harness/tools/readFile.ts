// read_file: numbered lines of a text file inside the workspace, optionally a line range.
import { z } from 'zod';
import { looksBinary } from './binary';
import { defineTool, fail, ok } from './defineTool';
import { readGuarded } from './openGuarded';
import { resolveInWorkspace } from './paths';

export const READ_LIMITS = {
  maxFileBytes: 10 * 1024 * 1024, // refuse outright above this
  shownBytes: 256 * 1024, // at most this much text shown per call
  shownLines: 2000, // at most this many lines shown per call
  lineChars: 2000, // a longer line is cut
};

const Input = z
  .strictObject({
    path: z.string().describe('Workspace-relative path of the file, e.g. "src/ledger.js".'),
    start_line: z.number().int().min(1).optional().describe('First line to show (1-based, inclusive). Default: 1.'),
    end_line: z.number().int().min(1).optional().describe('Last line to show (1-based, inclusive). Default: the end of the file, within the display limit.'),
  })
  .refine((a) => a.start_line === undefined || a.end_line === undefined || a.start_line <= a.end_line, {
    message: 'start_line must not be greater than end_line',
    path: ['end_line'],
  });

export function numberLine(n: number, text: string): string {
  const shown = text.length > READ_LIMITS.lineChars ? `${text.slice(0, READ_LIMITS.lineChars)}… [line cut: ${text.length - READ_LIMITS.lineChars} more characters]` : text;
  return `${String(n).padStart(5)}\t${shown}`;
}

/** Splits file text into lines without the trailing empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export const readFileTool = defineTool({
  name: 'read_file',
  effect: 'none',
  description: [
    'Read a text file from the workspace. Returns its lines numbered like `   12\\tcode` (the number and a tab are not part of the file; never copy them into edit_file).',
    'Use start_line/end_line (1-based, inclusive) to read part of a large file. At most 2000 lines or 256 KB are shown per call; when more exists, the result ends with a note giving the next start_line to use. Lines longer than 2000 characters are cut.',
    'Paths are relative to the workspace root; paths outside it (including through symlinks) are refused. Binary files (a NUL byte in the first 8 KB) are refused, as are files over 10 MB, special files (FIFOs, sockets, devices), and anything in .git/ or Kite\'s log folder. A directory gives an is_directory error: use list_files for directories. Files that usually hold secrets (.env, private keys) and files with more than one hard link need a person\'s approval (refused in unattended runs).',
  ].join('\n'),
  input: Input,
  target: (args) => ({ path: args.path }),
  run: async (args, ctx) => {
    const r = resolveInWorkspace(ctx.root, ctx.logDir, args.path, { forWrite: false });
    if (!r.ok) return fail(r.code, `${r.message} Nothing was read.`);
    // One guarded open: no special files, no hard links, no symlink swapped in since the check.
    const g = readGuarded(r.abs, r.rel, READ_LIMITS.maxFileBytes, { allowHardLink: ctx.hardLinkApproved === true });
    if (!g.ok) {
      if (g.code === 'not_found') return fail('not_found', `No file at "${r.rel}". Nothing was read. Use list_files to see what exists.`, { path: r.rel });
      if (g.code === 'is_directory') return fail('is_directory', `"${r.rel || '.'}" is a directory, not a file. Use list_files to see its contents.`, { path: r.rel });
      if (g.code === 'too_large') return fail('too_large', `${g.message} Nothing was read. Use search to find the part you need.`, { path: r.rel });
      return fail(g.code, `${g.message} Nothing was read.`, { path: r.rel });
    }
    const buf = g.buf;
    if (looksBinary(buf)) {
      return fail('binary_file', `"${r.rel}" is a binary file (${g.size} bytes; it has NUL bytes), so it cannot be shown as text. Nothing was read.`, { path: r.rel });
    }
    const lines = splitLines(buf.toString('utf8'));
    if (lines.length === 0) return ok(`(${r.rel} is empty)`, { path: r.rel });
    const start = args.start_line ?? 1;
    if (start > lines.length) {
      return fail('invalid_args', `start_line ${start} is past the end of "${r.rel}", which has ${lines.length} lines. Nothing was read.`, { path: r.rel });
    }
    const last = Math.min(args.end_line ?? lines.length, lines.length);
    const out: string[] = [];
    let bytes = 0;
    let n = start;
    for (; n <= last; n++) {
      const line = numberLine(n, lines[n - 1]);
      if (out.length >= READ_LIMITS.shownLines || bytes + line.length > READ_LIMITS.shownBytes) break;
      out.push(line);
      bytes += line.length + 1;
    }
    if (n <= last) {
      const why = out.length >= READ_LIMITS.shownLines ? `${READ_LIMITS.shownLines}-line` : `${READ_LIMITS.shownBytes / 1024} KB`;
      out.push(`[… lines ${n}–${last} not shown (${last - n + 1} lines, display limit of ${why} per call). Call read_file with start_line=${n} to continue.]`);
    } else if (last < lines.length && args.end_line === undefined) {
      out.push(`[… file continues: ${lines.length} lines in all]`);
    } else if (last < lines.length || start > 1) {
      out.push(`[showing lines ${start}–${last} of ${lines.length}]`);
    }
    return ok(out.join('\n'), { path: r.rel });
  },
});
