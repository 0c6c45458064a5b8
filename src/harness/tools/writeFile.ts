// write_file: create or replace a whole file.
import { z } from 'zod';
import { defineTool } from './defineTool';
import { commitWrite, isOutcome, previewFile } from './preview';
import type { PreviewContext, ToolOutcome, WritePreview } from './types';

const Input = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to create or replace.'),
  content: z.string().describe('The complete new content of the file.'),
});

const preview = (args: z.infer<typeof Input>, ctx: PreviewContext): WritePreview | ToolOutcome => previewFile(ctx, args.path, () => ({ proposed: args.content }));

export const writeFileTool = defineTool({
  name: 'write_file',
  effect: 'write',
  description: [
    'Create a file, or replace the entire content of an existing one, inside the workspace. Parent directories are created as needed.',
    'Give the complete file content: nothing is merged with what was there. To change part of an existing file, prefer edit_file.',
    'Paths are workspace-relative. Writes outside the workspace (including through symlinks), inside .git/ and inside Kite\'s log folder are refused. Binary files and directories cannot be written.',
    'Depending on the policy, a person may review the change as a diff before it is applied; they can reject it (you get their reason) or edit it (you get a diff of what they changed). The result says exactly what was written.',
  ].join('\n'),
  input: Input,
  target: (args) => ({ path: args.path }),
  preview,
  run: async (args, ctx) => {
    const p = preview(args, ctx);
    if (isOutcome(p)) return p;
    return commitWrite(ctx, p.path, p.proposed);
  },
});
