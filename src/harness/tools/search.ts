// search: a regular expression over the text files of the workspace, results "path:line: text".
import * as fs from 'node:fs';
import { z } from 'zod';
import { looksBinary } from './binary';
import { defineTool, fail, ok } from './defineTool';
import { globProblem, matchGlob } from './glob';
import { GUARD_RULES, readGuarded } from './openGuarded';
import { resolveInWorkspace } from './paths';
import { compilePattern } from './searchPattern';
import { walk } from './walk';
import { isSecretFile } from '../policy/policy';

export const SEARCH_LIMITS = { maxMatches: 200, lineChars: 300, maxFileBytes: 2 * 1024 * 1024, maxVisited: 50_000, maxMs: 10_000 };

function clip(line: string): string {
  const t = line.endsWith('\r') ? line.slice(0, -1) : line;
  return t.length > SEARCH_LIMITS.lineChars ? `${t.slice(0, SEARCH_LIMITS.lineChars)}… [line cut]` : t;
}

export const searchTool = defineTool({
  name: 'search',
  effect: 'none',
  description: [
    'Search the workspace\'s text files for a regular expression (RE2 syntax, a linear-time engine: JavaScript syntax without backreferences or lookaround; matched line by line). Each match is one line "path:line: text" with a workspace-relative path and a 1-based line number.',
    'Optional: path (a directory or a single file to search; default the whole workspace), glob (only files whose name or path matches, e.g. "*.ts" or "src/**/*.js"), ignore_case, context (lines around each match, shown as "path-line- text", groups separated by "--").',
    'Files ignored by .gitignore, .git/, Kite\'s log folder, files that usually hold secrets (.env, keys, .npmrc; read_file asks a person for them), binary files, special files, files with more than one hard link and files over 2 MB are skipped. At most 200 matches are shown; the result says how many more there were. An invalid regular expression gives a bad_regex error with the engine\'s message. Escape regex characters such as ( ) [ ] . * + ? to search for them literally.',
  ].join('\n'),
  input: z.strictObject({
    pattern: z.string().min(1).describe('Regular expression, RE2 syntax (JavaScript without backreferences or lookaround), e.g. "addFee\\\\(" or "TODO|FIXME".'),
    path: z.string().optional().describe('Workspace-relative directory or file to search. Default: the whole workspace.'),
    glob: z.string().min(1).optional().describe('Only search files matching this glob (e.g. "*.test.ts").'),
    ignore_case: z.boolean().optional().describe('Match without regard to letter case. Default: false.'),
    context: z.number().int().min(0).max(10).optional().describe('Lines of context to show before and after each match (0–10). Default: 0.'),
  }),
  target: (args) => ({ path: args.path ?? '.' }),
  run: async (args, ctx) => {
    const compiled = compilePattern(args.pattern, args.ignore_case === true);
    if (!compiled.ok) return fail('bad_regex', `${compiled.message} Nothing was searched.`);
    const re = compiled.re;
    const bad = args.glob === undefined ? null : globProblem(args.glob);
    if (bad) return fail('invalid_args', `Cannot use the glob: ${bad}. Nothing was searched.`);
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
      ? walk(ctx.root, r.rel, { recursive: true, maxEntries: SEARCH_LIMITS.maxVisited, logDir: ctx.logDir })
      : { entries: [{ rel: r.rel, abs: r.abs, dir: false, link: false, special: !st.isFile() }], truncated: false };
    const hits: string[] = [];
    let shown = 0;
    let total = 0;
    let files = 0;
    let filesWithHits = 0;
    let skipped = 0;
    const secret: string[] = [];
    const hardlinked: string[] = [];
    let outOfTime = false;
    const deadline = Date.now() + SEARCH_LIMITS.maxMs;
    let lastYield = Date.now();
    for (const e of w.entries) {
      if (e.dir || e.special) continue;
      // Give the event loop a turn now and then, so Ctrl-C / SIGTERM are handled mid-search.
      if (Date.now() - lastYield > 50) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = Date.now();
        if (ctx.signal?.aborted) return fail('failed', 'The search was cancelled before it finished; its partial results were dropped.', { path: r.rel });
      }
      if (Date.now() > deadline) {
        outOfTime = true;
        break;
      }
      if (args.glob !== undefined && st.isDirectory() && !matchGlob(args.glob, e.rel.slice(base.length))) continue;
      // The same confinement as read_file for every file (links may lead out, into .git/ or the logs).
      const fr = resolveInWorkspace(ctx.root, ctx.logDir, e.rel, { forWrite: false });
      if (!fr.ok) continue;
      // Secret files are read only with a person's approval, one by one (read_file): never in bulk.
      if (st.isDirectory() && (isSecretFile(e.rel) || isSecretFile(fr.rel))) {
        secret.push(e.rel);
        continue;
      }
      const g = readGuarded(fr.abs, e.rel, SEARCH_LIMITS.maxFileBytes);
      if (!g.ok) {
        if (g.code === 'too_large') skipped++;
        if (g.code === 'hardlink') hardlinked.push(e.rel);
        continue;
      }
      const buf = g.buf;
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
    if (secret.length > 0) notes.push(`[${secret.length} file${secret.length === 1 ? '' : 's'} that usually hold secrets ${secret.length === 1 ? 'was' : 'were'} not searched (${listSome(secret)}); read_file can read one with a person's approval]`);
    if (hardlinked.length > 0) notes.push(`[${hardlinked.length} file${hardlinked.length === 1 ? '' : 's'} with more than one hard link ${hardlinked.length === 1 ? 'was' : 'were'} not searched (${listSome(hardlinked)}; rule ${GUARD_RULES.hardlink})]`);
    if (outOfTime) notes.push(`[search stopped after ${SEARCH_LIMITS.maxMs / 1000} s; results are incomplete. Narrow the path or glob, or simplify the pattern.]`);
    if (w.truncated) notes.push(`[stopped after visiting ${SEARCH_LIMITS.maxVisited} entries; results are incomplete]`);
    if (total === 0) return ok([`No matches for /${args.pattern}/ in ${files} file${files === 1 ? '' : 's'}.`, ...notes].join('\n'), { path: r.rel });
    return ok([...hits, ...notes].join('\n'), { path: r.rel });
  },
});

const listSome = (names: string[]): string => names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');

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
