// The pure part of edit_file: exact-match replacement with distinct errors for "not found" and
// "ambiguous". No I/O, so approvals and intent records can compute the result ahead of time.
import type { ToolErrorCode } from './types';

export interface EditArgs {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditResult =
  | { ok: true; content: string; count: number; lines: number[] }
  | { ok: false; code: ToolErrorCode; message: string };

/** 1-based line number of a character offset. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function offsetsOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Line of a match that only differs in whitespace, to point the model at its mistake. */
function nearMiss(text: string, needle: string): number | null {
  const want = squash(needle);
  if (want === '') return null;
  const lines = text.split('\n');
  const span = needle.split('\n').length;
  for (let i = 0; i + span <= lines.length; i++) {
    if (squash(lines.slice(i, i + span).join('\n')) === want) return i + 1;
  }
  return null;
}

export function applyEdit(before: string, args: EditArgs, file: string): EditResult {
  if (args.old_string === args.new_string) {
    return { ok: false, code: 'invalid_args', message: `old_string and new_string are identical, so there is nothing to change. "${file}" was not modified.` };
  }
  let { old_string: oldS, new_string: newS } = args;
  let found = offsetsOf(before, oldS);
  // Files with CRLF line ends: the model sees lines without \r, so try the CRLF form of its text.
  if (found.length === 0 && before.includes('\r\n') && oldS.includes('\n') && !oldS.includes('\r')) {
    const crlf = oldS.replace(/\n/g, '\r\n');
    const again = offsetsOf(before, crlf);
    if (again.length > 0) {
      oldS = crlf;
      newS = newS.replace(/\r?\n/g, '\r\n');
      found = again;
    }
  }
  if (found.length === 0) {
    const near = nearMiss(before, args.old_string);
    const hint = near
      ? ` Text that differs only in whitespace starts at line ${near}; copy old_string exactly from read_file output (without the line numbers).`
      : ' Read the file again and copy old_string exactly, including indentation.';
    return { ok: false, code: 'no_match', message: `old_string was not found in "${file}". The file was not modified.${hint}` };
  }
  const lines = found.map((o) => lineAt(before, o));
  if (found.length > 1 && !args.replace_all) {
    const where = lines.slice(0, 20).join(', ') + (lines.length > 20 ? ', …' : '');
    return {
      ok: false,
      code: 'not_unique',
      message: `old_string matches ${found.length} times in "${file}" (at lines ${where}). The file was not modified. Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
    };
  }
  const content = args.replace_all ? before.split(oldS).join(newS) : before.slice(0, found[0]) + newS + before.slice(found[0] + oldS.length);
  return { ok: true, content, count: args.replace_all ? found.length : 1, lines };
}
