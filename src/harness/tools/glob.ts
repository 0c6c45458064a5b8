// Minimal glob → regular expression for tool arguments and policy rules (Node 20 has no
// path.matchesGlob). Supports **, *, ?, [...] and {a,b}. A pattern without "/" matches the base
// name at any depth; a leading "/" anchors it at the root. Globs come from the model, so they run
// on the linear-time RE2 engine: "*a*a*a…b" cannot backtrack for minutes (picomatch compiles to
// backtracking JavaScript regexes with lookarounds, which RE2 cannot run).
import { RE2JS } from 're2js';

/** Longer globs, or ones that do not compile, match nothing (tools report them: globProblem). */
export const GLOB_LIMITS = { maxChars: 1000, cacheSize: 500 };

interface Matcher {
  test(s: string): boolean;
}
const NOTHING: Matcher = { test: () => false };
const cache = new Map<string, Matcher>();

/** The regular expression source (RE2 and JavaScript syntax) a glob stands for. */
export function globSource(glob: string): string {
  let re = '';
  let inBraces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // "**/" matches zero or more directories; a trailing "**" matches everything below.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      inBraces++;
      re += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      re += ')';
    } else if (c === ',' && inBraces > 0) re += '|';
    else re += c.replace(/[.+^$()|\\{}]/g, '\\$&');
  }
  return `^${re}$`;
}

function compileGlob(glob: string): Matcher | string {
  if (glob.length > GLOB_LIMITS.maxChars) return `the glob is ${glob.length} characters long, over the limit of ${GLOB_LIMITS.maxChars}`;
  try {
    const re = RE2JS.compile(globSource(glob));
    return { test: (s) => re.test(s) };
  } catch (e) {
    return `the glob "${glob}" is not valid (${(e as Error).message})`;
  }
}

function matcher(glob: string): Matcher {
  const hit = cache.get(glob);
  if (hit) return hit;
  const m = compileGlob(glob);
  const out = typeof m === 'string' ? NOTHING : m;
  if (cache.size >= GLOB_LIMITS.cacheSize) cache.clear();
  cache.set(glob, out);
  return out;
}

/** Why a glob from a tool call cannot be used, or null when it can. */
export function globProblem(glob: string): string | null {
  const m = compileGlob(glob.replace(/^\.?\//, ''));
  return typeof m === 'string' ? m : null;
}

/** Does a slash-separated relative path match the glob? */
export function matchGlob(glob: string, relPath: string): boolean {
  // "/x" and "./x" are anchored at the root, like a leading "/" in .gitignore.
  if (glob.startsWith('/') || glob.startsWith('./')) return matcher(glob.replace(/^\.?\//, '')).test(relPath);
  const g = glob;
  if (!g.includes('/')) {
    const base = relPath.slice(relPath.lastIndexOf('/') + 1);
    return matcher(g).test(base);
  }
  return matcher(g).test(relPath);
}
