// package.json as VS Code shows it in English: every "%key%" replaced by its text in
// package.nls.json (VS Code does the same wherever a %key% sits). A key without a text throws.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..');

function resolve(value: unknown, nls: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const m = /^%([^%\s]+)%$/.exec(value);
    if (!m) return value;
    const text = nls[m[1]!];
    if (text === undefined) throw new Error(`package.json uses %${m[1]}% but package.nls.json has no "${m[1]}"`);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, nls));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, nls)]));
  return value;
}

export function localizedManifest(): unknown {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as unknown;
  const nls = JSON.parse(readFileSync(join(repo, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return resolve(pkg, nls);
}
