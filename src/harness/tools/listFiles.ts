// list_files: what is in a workspace directory, as git sees it (.gitignore honoured, .git hidden).
import * as fs from 'node:fs';
import { z } from 'zod';
import { defineTool, fail, ok } from './defineTool';
import { globProblem, matchGlob } from './glob';
import { resolveInWorkspace } from './paths';
import { walk } from './walk';

export const LIST_LIMITS = { maxShown: 1000, maxVisited: 50_000 };

export const listFilesTool = defineTool({
  name: 'list_files',
  effect: 'none',
  description: [
    'List files and directories in the workspace. Paths in the result are workspace-relative (directories end with "/"), ready to pass to read_file.',
    'By default lists one directory level of `path` (default: the workspace root). With recursive=true, lists every file below it. With glob, lists files below `path` whose path matches (recursive implied); a glob without "/" matches file names at any depth ("*.ts"), one with "/" matches the path relative to `path` ("src/**/*.test.ts").',
    'Entries ignored by .gitignore files (at any level) are left out; .git/ and Kite\'s log folder are never shown. Only names are listed, never contents (files that usually hold secrets, such as .env, are listed by name). At most 1000 entries are returned; the result says how many more exist.',
  ].join('\n'),
  input: z.strictObject({
    path: z.string().optional().describe('Workspace-relative directory to list. Default: "." (the workspace root).'),
    glob: z.string().min(1).optional().describe('Only files matching this glob (supports *, **, ?, [abc], {a,b}).'),
    recursive: z.boolean().optional().describe('List all files below path, not just its direct entries. Default: false.'),
  }),
  target: (args) => ({ path: args.path ?? '.' }),
  run: async (args, ctx) => {
    const bad = args.glob === undefined ? null : globProblem(args.glob);
    if (bad) return fail('invalid_args', `Cannot use the glob: ${bad}. Nothing was listed.`);
    const r = resolveInWorkspace(ctx.root, ctx.logDir, args.path ?? '.', { forWrite: false });
    if (!r.ok) return fail(r.code, `${r.message} Nothing was listed.`);
    let st: fs.Stats;
    try {
      st = fs.statSync(r.abs);
    } catch {
      return fail('not_found', `No directory at "${r.rel}". Nothing was listed.`, { path: r.rel });
    }
    if (!st.isDirectory()) return ok(`${r.rel} (a file, ${st.size} bytes; not a directory)`, { path: r.rel });
    const recursive = args.recursive === true || args.glob !== undefined;
    const w = walk(ctx.root, r.rel, { recursive, maxEntries: LIST_LIMITS.maxVisited, logDir: ctx.logDir });
    const base = r.rel === '' ? '' : r.rel + '/';
    const shown = w.entries
      .filter((e) => (recursive ? !e.dir : true))
      .filter((e) => args.glob === undefined || matchGlob(args.glob, e.rel.slice(base.length)))
      .map((e) => (e.dir ? e.rel + '/' : e.rel));
    const where = r.rel === '' ? 'the workspace root' : `"${r.rel}"`;
    if (shown.length === 0) {
      return ok(args.glob ? `No files matching "${args.glob}" under ${where} (ignored files are not listed).` : `${where} is empty (ignored files are not listed).`, { path: r.rel });
    }
    const lines = shown.slice(0, LIST_LIMITS.maxShown);
    if (shown.length > LIST_LIMITS.maxShown) lines.push(`[… ${shown.length - LIST_LIMITS.maxShown} more entries not shown; narrow with path or glob]`);
    if (w.truncated) lines.push(`[… stopped after visiting ${LIST_LIMITS.maxVisited} entries; the listing is incomplete. Narrow with path or glob.]`);
    return ok(lines.join('\n'), { path: r.rel });
  },
});
