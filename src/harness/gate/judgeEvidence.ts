// What a judge sees: the run's diff from its starting commit (untracked files as new files), and
// the files its rubric names by path ("README.md", "docs/cli.md"), each as it is now. Bounded in
// size, with a note saying what was cut. Kite's own files (.kite/, the progress file, the log
// folder), .git and secret files (.env…) never go in; the caller redacts secrets from the text.
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isSecretFile } from '../policy/policy';
import { PROGRESS_FILE } from '../progress/progressFile';
import { runGit } from '../progress/runGit';
import { readGuarded, statRefusal } from '../tools/openGuarded';
import { resolveInWorkspace } from '../tools/paths';

export const DEFAULT_EVIDENCE_CHARS = 40_000;
/** Bigger files are not read at all (the evidence is bounded far below this anyway). */
const MAX_FILE_BYTES = 4 << 20;
/** Of the bound, at most this share goes to the named files; the diff gets the rest (and what they leave). */
const FILES_SHARE = 0.5;

export interface EvidenceInput {
  root: string;
  logDir: string; // absolute
  base: string | null; // the run's starting commit (null: no diff can be made)
  rubric: string;
  maxChars?: number;
}

export interface Evidence {
  text: string;
  truncated: boolean;
  files: string[]; // the named files sent
}

/** Workspace-relative paths the rubric names: words with a slash or an extension that are files now. */
export function namedFiles(root: string, logDir: string, rubric: string): string[] {
  return namedFileTargets(root, logDir, rubric).map((f) => f.rel);
}

function namedFileTargets(root: string, logDir: string, rubric: string): { rel: string; abs: string }[] {
  const out: { rel: string; abs: string }[] = [];
  for (const m of rubric.matchAll(/[\w.-]*[\w-](?:\/[\w.-]+)*\.[A-Za-z0-9]+|[\w.-]+(?:\/[\w.-]+)+/g)) {
    const word = m[0].replace(/^\.\//, '');
    const r = resolveInWorkspace(root, logDir, word, { forWrite: false });
    // The tools' own read rules: no directory, no file with another hard link (it may be one outside).
    if (!r.ok || out.some((f) => f.rel === r.rel) || !kitePathAllowed(r.rel) || !existsSync(r.abs) || statRefusal(lstatSync(r.abs), r.rel, MAX_FILE_BYTES) !== null) continue;
    out.push({ rel: r.rel, abs: r.abs });
  }
  return out;
}

/** Not Kite's own state, not a secret file. */
function kitePathAllowed(rel: string): boolean {
  return rel !== PROGRESS_FILE && !rel.startsWith('.kite/') && rel !== '.kite' && !isSecretFile(rel);
}

export function buildEvidence(i: EvidenceInput): Evidence {
  const max = i.maxChars ?? DEFAULT_EVIDENCE_CHARS;
  const files = namedFileTargets(i.root, i.logDir, i.rubric);
  let truncated = false;
  const parts: string[] = [];
  let fileBudget = Math.floor(max * FILES_SHARE);
  for (const { rel, abs } of files) {
    const content = readText(abs, rel);
    const cut = clip(content, Math.max(0, fileBudget));
    truncated ||= cut.truncated;
    fileBudget -= cut.text.length;
    parts.push(`<file path="${rel}">\n${cut.text}\n</file>`);
  }
  const used = parts.reduce((n, p) => n + p.length, 0);
  const diff = clip(runDiff(i), Math.max(0, max - used));
  truncated ||= diff.truncated;
  parts.unshift(`<diff base="${i.base ?? 'none'}">\n${diff.text || (i.base ? '(the run changed no file)' : '(no starting commit: no diff)')}\n</diff>`);
  return { text: parts.join('\n\n'), truncated, files: files.map((f) => f.rel) };
}

/** The text cut to `max` characters with a note of how much was left out. */
function clip(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max)}\n[… Kite cut ${text.length - max} of ${text.length} characters here: the evidence is bounded …]`, truncated: true };
}

/** The work tree against the starting commit, Kite's files and secret files left out. */
function runDiff(i: EvidenceInput): string {
  if (!i.base) return '';
  const logRel = i.logDir.startsWith(`${i.root}/`) ? i.logDir.slice(i.root.length + 1) : null;
  const allowed = (f: string) => kitePathAllowed(f) && !(logRel && (f === logRel || f.startsWith(`${logRel}/`)));
  try {
    const changed = runGit(i.root, ['diff', '--name-only', '-z', '--no-renames', '--relative', i.base, '--']).split('\0').filter(Boolean).filter(allowed);
    // git reads a tracked file's content through any hard link: one that now shares its inode with
    // another file (perhaps outside the workspace) is named, not shown.
    const linked = changed.filter((f) => hardLinked(join(i.root, f)));
    const tracked = changed.filter((f) => !linked.includes(f));
    const diff = tracked.length ? runGit(i.root, ['diff', '--no-ext-diff', '--no-color', '--no-renames', '--relative', i.base, '--', ...tracked]) : '';
    const hidden = linked.map((f) => `changed ${f}: (not shown: it has another hard link, which may be a file outside the workspace)`);
    const untracked = runGit(i.root, ['ls-files', '-z', '--others', '--exclude-standard']).split('\0').filter(Boolean).filter(allowed);
    const added = untracked.map((f) => {
      const r = resolveInWorkspace(i.root, i.logDir, f, { forWrite: false }); // a link out of the workspace is not followed
      return `new file ${f}:\n${r.ok ? readText(r.abs, r.rel) : '(not shown: outside the workspace)'}`;
    });
    return [diff.trimEnd(), ...hidden, ...added].filter(Boolean).join('\n\n');
  } catch (e) {
    return `(Kite could not make the diff: ${(e as Error).message.split('\n')[0]})`;
  }
}

/** A regular file in the work tree that shares its inode with another name. */
function hardLinked(abs: string): boolean {
  try {
    const st = lstatSync(abs);
    return st.isFile() && st.nlink > 1;
  } catch {
    return false; // deleted by the run: git shows the removal from its own objects
  }
}

/** A file as the tools read it (readGuarded: no link out, hard links included); a refusal says why. */
function readText(abs: string, rel: string): string {
  const r = readGuarded(abs, rel, MAX_FILE_BYTES);
  if (!r.ok) return `(not shown: ${r.message})`;
  return r.buf.includes(0) ? `(binary, ${r.buf.length} bytes)` : r.buf.toString('utf8');
}
