// search: a regular expression over the text files of the workspace, results "path:line: text".
import * as fs from 'node:fs';
import { z } from 'zod';
import { looksBinary } from './binary';
import { defineTool, fail, ok } from './defineTool';
import { matchGlob } from './glob';
import { resolveInWorkspace } from './paths';
import { walk } from './walk';

export const SEARCH_LIMITS = { maxMatches: 200, lineChars: 300, maxFileBytes: 2 * 1024 * 1024, maxVisited: 50_000, maxMs: 10_000 };

function clip(line: string): string {
  const t = line.endsWith('\r') ? line.slice(0, -1) : line;
  return t.length > SEARCH_LIMITS.lineChars ? `${t.slice(0, SEARCH_LIMITS.lineChars)}… [line cut]` : t;
}

export const searchTool = defineTool({
  name: 'search',
  effect: 'none',
  description: [
    'Search the workspace\'s text files for a regular expression (JavaScript syntax, matched line by line). Each match is one line "path:line: text" with a workspace-relative path and a 1-based line number.',
    'Optional: path (a directory or a single file to search; default the whole workspace), glob (only files whose name or path matches, e.g. "*.ts" or "src/**/*.js"), ignore_case, context (lines around each match, shown as "path-line- text", groups separated by "--").',
    'Files ignored by .gitignore, .git/, binary files and files over 2 MB are skipped. At most 200 matches are shown; the result says how many more there were. An invalid regular expression gives a bad_regex error with the engine\'s message. Escape regex characters such as ( ) [ ] . * + ? to search for them literally.',
  ].join('\n'),
  input: z.strictObject({
    pattern: z.string().min(1).describe('Regular expression, JavaScript syntax, e.g. "addFee\\\\(" or "TODO|FIXME".'),
    path: z.string().optional().describe('Workspace-relative directory or file to search. Default: the whole workspace.'),
    glob: z.string().min(1).optional().describe('Only search files matching this glob (e.g. "*.test.ts").'),
    ignore_case: z.boolean().optional().describe('Match without regard to letter case. Default: false.'),
    context: z.number().int().min(0).max(10).optional().describe('Lines of context to show before and after each match (0–10). Default: 0.'),
  }),
  target: (args) => ({ path: args.path ?? '.' }),
  run: async (args, ctx) => {
    let re: RegExp;
    try {
      re = new RegExp(args.pattern, args.ignore_case ? 'i' : '');
    } catch (e) {
      return fail('bad_regex', `The pattern is not a valid regular expression: ${(e as Error).message}. Nothing was searched.`);
    }
    const r = resolveInWorkspace(ctx.root, ctx.logDir, args.path ?? '.', { forWrite: false });
    if (!r.ok) return fail(r.code, `${r.message} Nothing was searched.`);
    let st: fs.Stats;
    try {
      st = fs.statSync(r.abs);
    } catch {
      return fail('not_found', `Nothing at "${r.rel}". Nothing was searched.`, { path: r.rel });
    }
    const base = r.rel === '' ? '' : r.rel + '/';
    const w = st.isDirectory()
      ? walk(ctx.root, r.rel, { recursive: true, maxEntries: SEARCH_LIMITS.maxVisited })
      : { entries: [{ rel: r.rel, abs: r.abs, dir: false, link: false, special: !st.isFile() }], truncated: false };
    const hits: string[] = [];
    let shown = 0;
    let total = 0;
    let files = 0;
    let filesWithHits = 0;
    let skipped = 0;
    let outOfTime = false;
    const deadline = Date.now() + SEARCH_LIMITS.maxMs;
    for (const e of w.entries) {
      if (e.dir || e.special) continue;
      // A link may point outside the workspace: search only what confinement allows.
      if (e.link && !resolveInWorkspace(ctx.root, ctx.logDir, e.rel, { forWrite: false }).ok) continue;
      if (Date.now() > deadline) {
        outOfTime = true;
        break;
      }
      if (args.glob !== undefined && st.isDirectory() && !matchGlob(args.glob, e.rel.slice(base.length))) continue;
      let buf: Buffer;
      try {
        const fst = fs.statSync(e.abs);
        if (!fst.isFile()) continue;
        if (fst.size > SEARCH_LIMITS.maxFileBytes) {
          skipped++;
          continue;
        }
        buf = fs.readFileSync(e.abs);
      } catch {
        continue;
      }
      if (looksBinary(buf)) continue;
      files++;
      const lines = buf.toString('utf8').split('\n');
      const found: number[] = [];
      let any = false;
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i])) continue;
        any = true;
        total++;
        if (shown < SEARCH_LIMITS.maxMatches) {
          found.push(i);
          shown++;
        }
      }
      if (any) filesWithHits++;
      if (found.length) {
        if (args.context && hits.length) hits.push('--');
        hits.push(...formatMatches(e.rel, lines, found, args.context ?? 0));
      }
    }
    const notes: string[] = [];
    if (total > shown) notes.push(`[… ${total - shown} more matches not shown (${total} in ${filesWithHits} file${filesWithHits === 1 ? '' : 's'}). Narrow the pattern, path or glob.]`);
    if (skipped > 0) notes.push(`[${skipped} files over 2 MB were not searched]`);
    if (outOfTime) notes.push(`[search stopped after ${SEARCH_LIMITS.maxMs / 1000} s; results are incomplete. Narrow the path or glob, or simplify the pattern.]`);
    if (w.truncated) notes.push(`[stopped after visiting ${SEARCH_LIMITS.maxVisited} entries; results are incomplete]`);
    if (total === 0) return ok([`No matches for /${args.pattern}/ in ${files} file${files === 1 ? '' : 's'}.`, ...notes].join('\n'), { path: r.rel });
    return ok([...hits, ...notes].join('\n'), { path: r.rel });
  },
});

/** Match lines "path:n: text", with context lines "path-n- text" and "--" between separate groups. */
function formatMatches(rel: string, lines: string[], found: number[], context: number): string[] {
  if (context === 0) return found.map((i) => `${rel}:${i + 1}: ${clip(lines[i])}`);
  const isMatch = new Set(found);
  const out: string[] = [];
  let last = -1; // last line index written
  for (const i of found) {
    const from = Math.max(0, i - context, last + 1);
    const to = Math.min(lines.length - 1, i + context);
    if (last >= 0 && from > last + 1) out.push('--');
    for (let n = from; n <= to; n++) out.push(isMatch.has(n) ? `${rel}:${n + 1}: ${clip(lines[n])}` : `${rel}-${n + 1}- ${clip(lines[n])}`);
    last = Math.max(last, to);
  }
  return out;
}
