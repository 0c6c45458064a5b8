// edit_file: exact-match replacement inside one existing file.
import { z } from 'zod';
import { defineTool, fail } from './defineTool';
import { applyEdit } from './editText';
import { commitWrite, isOutcome, previewFile } from './preview';
import { numberLine, splitLines } from './readFile';
import type { PreviewContext, ToolOutcome, WritePreview } from './types';

const Input = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to edit.'),
  old_string: z.string().min(1).describe('The exact text to replace (must be unique unless replace_all is true).'),
  new_string: z.string().describe('The text to put in its place (may be empty to delete old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string instead of requiring exactly one. Default: false.'),
});

function preview(args: z.infer<typeof Input>, ctx: PreviewContext): WritePreview | ToolOutcome {
  return previewFile(ctx, args.path, (before, rel) => {
    if (before === null) return fail('not_found', `No file at "${rel}". edit_file only changes existing files; use write_file to create one. Nothing was written.`, { path: rel });
    const e = applyEdit(before, { old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all === true }, rel);
    if (!e.ok) return fail(e.code, e.message, { path: rel });
    return { proposed: e.content, count: e.count, lines: e.lines };
  });
}

export const editFileTool = defineTool({
  name: 'edit_file',
  effect: 'write',
  description: [
    'Replace text in an existing workspace file. old_string must match the file exactly — every character, space, tab and line break — and must be unique in the file unless replace_all is true.',
    'Copy old_string from read_file output WITHOUT the line-number prefix (the number and tab before each line). Include enough surrounding lines to make it unique.',
    'Errors (the file is then left unchanged): no_match when old_string is not in the file (the error points at a near match that differs only in whitespace, if any); not_unique when it occurs more than once and replace_all is false (the error lists the lines); invalid_args when old_string equals new_string; not_found when the file does not exist (use write_file to create files).',
    'Paths are workspace-relative; writes outside the workspace, in .git/ or in Kite\'s log folder are refused. A person may review the change as a diff before it is applied.',
  ].join('\n'),
  input: Input,
  target: (args) => ({ path: args.path }),
  preview,
  run: async (args, ctx) => {
    const p = preview(args, ctx);
    if (isOutcome(p)) return p;
    const done = commitWrite(ctx, p.path, p.proposed);
    if (done.is_error) return done;
    const count = p.count ?? 1;
    const where = (p.lines ?? []).slice(0, 10).join(', ') + ((p.lines ?? []).length > 10 ? ', …' : '');
    const head = `Edited ${p.path}: replaced ${count} occurrence${count === 1 ? '' : 's'} (starting at line${count === 1 ? '' : 's'} ${where}).`;
    return { ...done, output: count === 1 ? `${head}\n${snippet(p.proposed, p.lines?.[0] ?? 1, args.new_string)}` : head };
  },
});

/** The edited region with a little context, numbered like read_file, so the model sees the result. */
function snippet(content: string, firstLine: number, inserted: string): string {
  const lines = splitLines(content);
  const span = Math.max(1, inserted.split('\n').length);
  const from = Math.max(1, firstLine - 2);
  const to = Math.min(lines.length, firstLine + span + 1, from + 29);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(numberLine(n, lines[n - 1]));
  return out.length ? `Lines ${from}–${to} now read:\n${out.join('\n')}` : '(the file is now empty)';
}
