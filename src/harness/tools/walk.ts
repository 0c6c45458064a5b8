// Walks the workspace the way git sees it: honours .gitignore files at every level (and
// .git/info/exclude), never enters .git/, and stops after a bounded number of entries.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readGuarded } from './openGuarded';

const IGNORE_FILE_MAX_BYTES = 1024 * 1024;

export interface WalkEntry {
  rel: string; // workspace-relative, forward slashes
  abs: string;
  dir: boolean;
  link: boolean; // a symlink: check confinement before reading through it
  special: boolean; // not a regular file or directory (FIFO, socket, device): never read
}

interface Level {
  base: string; // workspace-relative dir holding the .gitignore ('' for root)
  ig: Ignore;
}

function loadIgnore(absDir: string, extra?: string): Ignore | null {
  // Guarded: a FIFO (or a link) named .gitignore is never opened; it then just ignores nothing.
  const g = readGuarded(path.join(absDir, '.gitignore'), '.gitignore', IGNORE_FILE_MAX_BYTES);
  let text = g.ok ? g.buf.toString('utf8') : '';
  if (extra) text += '\n' + extra;
  return text.trim() === '' ? null : ignore().add(text);
}

function relTo(base: string, rel: string): string {
  return base === '' ? rel : rel.slice(base.length + 1);
}

/** True when git would ignore `rel` (a directory when dir is true) given the levels above it. */
function ignoredBy(levels: Level[], rel: string, dir: boolean): boolean {
  let ignored = false;
  for (const l of levels) {
    const r = l.ig.test(relTo(l.base, rel) + (dir ? '/' : ''));
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

export interface WalkOptions {
  recursive: boolean;
  maxEntries: number; // hard stop on entries visited, so a huge tree cannot stall the harness
  logDir?: string; // absolute: Kite's log folder, never listed or entered
}

export interface WalkResult {
  entries: WalkEntry[];
  truncated: boolean; // stopped at maxEntries
}

/** Lists `startRel` (a directory inside root), sorted, ignored entries left out. */
export function walk(root: string, startRel: string, opts: WalkOptions): WalkResult {
  const entries: WalkEntry[] = [];
  let truncated = false;
  // Collect the .gitignore levels from the root down to the start directory.
  const levels: Level[] = [];
  let exclude = '';
  const ex = readGuarded(path.join(root, '.git', 'info', 'exclude'), '.git/info/exclude', IGNORE_FILE_MAX_BYTES);
  if (ex.ok) exclude = ex.buf.toString('utf8');
  const rootIg = loadIgnore(root, exclude);
  if (rootIg) levels.push({ base: '', ig: rootIg });
  const parts = startRel === '' ? [] : startRel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const ig = loadIgnore(path.join(root, base));
    if (ig) levels.push({ base, ig });
  }

  const logAbs = opts.logDir === undefined ? null : path.resolve(root, opts.logDir);
  const visit = (rel: string, lv: Level[]): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (entries.length >= opts.maxEntries) {
        truncated = true;
        return;
      }
      if (d.name === '.git') continue;
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      const abs = path.join(root, childRel);
      if (logAbs !== null && abs === logAbs) continue;
      let dir = d.isDirectory();
      if (d.isSymbolicLink()) {
        // Links are listed as what they point to, but never followed while walking.
        try {
          dir = fs.statSync(abs).isDirectory();
        } catch {
          dir = false;
        }
      }
      if (ignoredBy(lv, childRel, dir)) continue;
      const special = !dir && !d.isFile() && !d.isSymbolicLink();
      entries.push({ rel: childRel, abs, dir, link: d.isSymbolicLink(), special });
      if (dir && opts.recursive && !d.isSymbolicLink()) {
        const ig = loadIgnore(abs);
        visit(childRel, ig ? [...lv, { base: childRel, ig }] : lv);
        if (truncated) return;
      }
    }
  };
  visit(startRel, levels);
  return { entries, truncated };
}
