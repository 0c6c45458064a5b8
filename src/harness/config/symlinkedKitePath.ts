// Kite's own files in a workspace — `.kite`, every folder down to the log folder, and
// kite-progress.json — must be real files and folders: a symlink shipped in a repository would
// send Kite's logs and progress writes wherever it points (outside the workspace, or into a
// folder that gets committed), where the sandbox does not guard them.
import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PROGRESS_FILE } from '../progress/progressFile';

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false; // absent: Kite creates it as a real file or folder
  }
}

/** The first of Kite's paths under `root` that is a symlink (absolute), or null. */
export function symlinkedKitePath(root: string, logDir: string): string | null {
  const candidates = [join(root, '.kite')];
  const rel = relative(root, resolve(root, logDir));
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) {
    let dir = root;
    for (const part of rel.split(/[\\/]+/)) candidates.push((dir = join(dir, part)));
  }
  candidates.push(join(root, PROGRESS_FILE));
  return candidates.find(isSymlink) ?? null;
}

export function symlinkProblem(path: string): string {
  return `${path} is a symlink; Kite writes its logs and progress only to real files and folders inside the workspace, so it stopped before writing anything (replace the symlink with a folder or file of its own)`;
}
