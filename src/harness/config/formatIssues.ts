// One wording for every zod failure on a file a person edits: the file, the JSON path, the problem.
import type { z } from 'zod';

/** "$.budget.turns" style path of one zod issue. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** "<file>: $.a.b: expected number, received string; $.c: …" (at most 5 issues, then a count). */
export function formatIssues(file: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => `${jsonPath(i.path)}: ${i.message}`);
  if (error.issues.length > 5) parts.push(`and ${error.issues.length - 5} more problem(s)`);
  return `${file}: ${parts.join('; ')}`;
}
