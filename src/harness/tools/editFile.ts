// edit_file: exact-match replacement inside one existing file.
import { z } from 'zod';
import { defineTool } from './defineTool';
import { commitWrite, isOutcome, previewWrite } from './preview';

export const editFileTool = defineTool({
  name: 'edit_file',
  effect: 'write',
  description: [
    'Replace text in an existing workspace file. old_string must match the file exactly — every character, space, tab and line break — and must be unique in the file unless replace_all is true.',
    'Copy old_string from read_file output WITHOUT the line-number prefix (the number and tab before each line). Include enough surrounding lines to make it unique.',
    'Errors (the file is then left unchanged): no_match when old_string is not in the file (the error points at a near match that differs only in whitespace, if any); not_unique when it occurs more than once and replace_all is false (the error lists the lines); invalid_args when old_string equals new_string; not_found when the file does not exist (use write_file to create files).',
    'Paths are workspace-relative; writes outside the workspace, in .git/ or in Kite\'s log folder are refused. A person may review the change as a diff before it is applied.',
  ].join('\n'),
  input: z.strictObject({
    path: z.string().describe('Workspace-relative path of the file to edit.'),
    old_string: z.string().min(1).describe('The exact text to replace (must be unique unless replace_all is true).'),
    new_string: z.string().describe('The text to put in its place (may be empty to delete old_string).'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string instead of requiring exactly one. Default: false.'),
  }),
  run: async (args, ctx) => {
    const p = previewWrite(ctx, 'edit_file', args);
    if (isOutcome(p)) return p;
    const done = commitWrite(ctx, p.path, p.proposed);
    if (done.is_error) return done;
    const count = p.count ?? 1;
    const where = (p.lines ?? []).slice(0, 10).join(', ');
    return { ...done, output: `Edited ${p.path}: replaced ${count} occurrence${count === 1 ? '' : 's'} (starting at line${count === 1 ? '' : 's'} ${where}).` };
  },
});
