// Minimal glob → RegExp for tool arguments and policy rules (Node 20 has no path.matchesGlob).
// Supports **, *, ?, [...] and {a,b}. A pattern without "/" matches the base name at any depth;
// a leading "/" anchors it at the root.

const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
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
  const out = new RegExp(`^${re}$`);
  cache.set(glob, out);
  return out;
}

/** Does a slash-separated relative path match the glob? */
export function matchGlob(glob: string, relPath: string): boolean {
  // "/x" and "./x" are anchored at the root, like a leading "/" in .gitignore.
  if (glob.startsWith('/') || glob.startsWith('./')) return globToRegExp(glob.replace(/^\.?\//, '')).test(relPath);
  const g = glob;
  if (!g.includes('/')) {
    const base = relPath.slice(relPath.lastIndexOf('/') + 1);
    return globToRegExp(g).test(base);
  }
  return globToRegExp(g).test(relPath);
}
