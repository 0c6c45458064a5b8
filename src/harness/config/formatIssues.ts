// One wording for every zod failure on a file a person edits: the file, the JSON path, the problem.
import type { z } from 'zod';
import { issueLocation } from './issueLocation';

/** "$.budget.turns" style path of one zod issue. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

export interface IssueOptions {
  /** The parsed data: lets a missing field say "missing" rather than "received undefined". */
  raw?: unknown;
  /** Keys allowed at the top level: an unknown one gets a "did you mean" when one is close. */
  knownKeys?: readonly string[];
  /** How a path is shown (default: jsonPath). */
  label?: (path: readonly PropertyKey[]) => string;
  /** The file's text: the message then starts "file:line:column:" at the first problem. */
  text?: string;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let cur: unknown = raw;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || !(String(p) in (cur as object))) return { found: false };
    cur = (cur as Record<string, unknown>)[String(p)];
  }
  return { found: cur !== undefined, value: cur };
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const t = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return d[b.length];
}

/** The known key closest to `key`, when it is a plausible typo. */
export function closestKey(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const dd = distance(key.toLowerCase(), k.toLowerCase());
    if (dd < bestD) [best, bestD] = [k, dd];
  }
  return best !== null && bestD <= Math.max(1, Math.floor(best.length / 3)) ? best : null;
}

function describeIssue(i: z.core.$ZodIssue, opts: IssueOptions): string {
  if (i.code === 'unrecognized_keys') {
    const atRoot = i.path.length === 0 && opts.knownKeys;
    return i.keys
      .map((k) => {
        const hint = atRoot ? closestKey(k, opts.knownKeys ?? []) : null;
        return `unknown key "${k}"${hint ? ` (did you mean "${hint}"?)` : atRoot ? ` (known keys: ${(opts.knownKeys ?? []).join(', ')})` : ''}`;
      })
      .join('; ');
  }
  // zod says "expected X, received undefined" (or only "expected one of …") for an absent field.
  if ((i.code === 'invalid_type' || i.code === 'invalid_value') && opts.raw !== undefined && i.path.length > 0) {
    const at = valueAt(opts.raw, i.path);
    if (!at.found) return `missing (${i.message.replace(/^Invalid (input|option): /, '').replace(/, received undefined$/, '')})`;
    if (i.code === 'invalid_value') {
      const got = JSON.stringify(at.value) ?? String(at.value);
      return `${i.message.replace(/^Invalid option: /, '')}, got ${got.length > 40 ? `${got.slice(0, 39)}…` : got}`;
    }
  }
  return i.message;
}

/**
 * A union ("off" or an object) that matched no branch says only "Invalid input": report the
 * problems of the branch whose type fits the value instead (an object with a bad key gets that
 * key named). When no branch fits, say which forms are allowed.
 */
function expandUnion(i: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (i.code !== 'invalid_union' || i.errors.length === 0) return [i];
  const branches = i.errors.map((b) => b.map((x) => ({ ...x, path: [...i.path, ...x.path] }) as z.core.$ZodIssue));
  const wrongHere = (x: z.core.$ZodIssue) => x.path.length === i.path.length && (x.code === 'invalid_type' || x.code === 'invalid_value');
  const fits = branches.filter((b) => !b.some(wrongHere));
  if (fits.length === 0) {
    const forms = branches.flatMap((b) => b.filter(wrongHere).map((x) => (x.code === 'invalid_value' ? x.values.map((v) => JSON.stringify(v)).join(' or ') : x.code === 'invalid_type' ? `a${/^[aeiou]/.test(x.expected) ? 'n' : ''} ${x.expected}` : '')));
    return [{ ...i, message: `expected ${forms.filter(Boolean).join(', or ')}` }];
  }
  return fits.sort((a, b) => a.length - b.length)[0].flatMap(expandUnion);
}

/** "<file>: $.a.b: expected number, received string; $.c: …" (at most 5 issues, then a count). */
export function formatIssues(file: string, error: z.ZodError, opts: IssueOptions = {}): string {
  const label = opts.label ?? jsonPath;
  const issues = error.issues.flatMap(expandUnion);
  const parts = issues.slice(0, 5).map((i) => `${label(i.path)}: ${describeIssue(i, opts)}`);
  if (issues.length > 5) parts.push(`and ${issues.length - 5} more problem(s)`);
  const at = opts.text !== undefined && issues[0] ? firstIssueAt(opts.text, issues[0]) : null;
  return `${file}${at ? `:${at.line}:${at.column}` : ''}: ${parts.join('; ')}`;
}

/** Where the first problem is in the text (null when the text does not locate it). */
export function firstIssueAt(text: string, issue: z.core.$ZodIssue): { line: number; column: number } | null {
  return issueLocation(text, issue.path, issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined);
}
