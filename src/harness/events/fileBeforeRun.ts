// The content a file had before a run touched it, for rebuilding later versions from the log:
// the run's starting commit (git show, with Kite's neutral git: no hooks, no fsmonitor), else the
// file on disk; either only when it matches the hash the log recorded. No 'vscode' here.
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { SessionStart } from '../protocol/events';
import { runGit } from '../progress/runGit';
import { sha256 } from '../tools/hash';

/**
 * `preHash`: the sha256 the log recorded for the file before the run (null: it did not exist, so
 * the content was empty; undefined: the log does not say, the first candidate found is used).
 * null when nothing matches.
 */
export async function fileBeforeRun(start: SessionStart | null, path: string, preHash: string | null | undefined): Promise<string | null> {
  if (preHash === null) return '';
  const root = start?.root;
  if (!root) return null;
  const rel = isAbsolute(path) ? relative(root, path) : path;
  const candidates: (() => Promise<string | null>)[] = [];
  const head = start?.git_head;
  if (head) candidates.push(async () => gitShow(root, head, rel));
  candidates.push(() => readFile(join(root, rel), 'utf8').catch(() => null));
  for (const get of candidates) {
    const text = await get();
    if (text !== null && (preHash === undefined || sha256(text) === preHash)) return text;
  }
  return null;
}

function gitShow(root: string, commit: string, rel: string): string | null {
  try {
    return runGit(root, ['show', `${commit}:${rel.split('\\').join('/')}`]);
  } catch {
    return null; // not in that commit (or not a repository any more)
  }
}
