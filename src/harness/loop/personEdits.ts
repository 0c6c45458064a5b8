// Files the person saves in the editor while a run is going (VS Code reports them through the
// host) are recorded in the run's log as `person_edit` events, so the commit can leave the
// person's work out (progress/commitScope.ts) and a resume still knows about it.
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { EventSink } from '../events/sink';
import type { Host } from '../host';
import { sha256 } from '../tools/hash';

export interface PersonEditWatch {
  host: Host;
  root: string;
  /** The run's log folder: saves there are not work (and the log is Kite's own). */
  logDir: string;
  log: EventSink;
}

/** Starts recording the host's reports of saved files; returns the function that stops it. */
export function watchPersonEdits(w: PersonEditWatch): () => void {
  if (!w.host.onPersonEdit) return () => undefined;
  const root = real(w.root);
  const logDir = real(w.logDir);
  return w.host.onPersonEdit((paths) => {
    for (const abs of paths) {
      const rel = insideWorkspace(root, logDir, abs);
      if (rel !== null) w.log.append({ kind: 'person_edit', path: rel, hash: hashOf(join(root, rel)), via: 'editor' });
    }
  });
}

/** Workspace-relative '/'-path of a saved file, or null when it is not the run's business. */
function insideWorkspace(root: string, logDir: string, abs: string): string | null {
  if (!isAbsolute(abs)) return null;
  const p = real(abs);
  const rel = relative(root, p);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
  const inLog = relative(logDir, p);
  if (!inLog.startsWith('..') && !isAbsolute(inLog)) return null;
  const posix = rel.split('\\').join('/');
  return posix === '.git' || posix.startsWith('.git/') ? null : posix;
}

/** The real path of a file, or of its folder when the file is gone (a delete or rename). */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    try {
      return join(realpathSync(dirname(p)), basename(p));
    } catch {
      return p;
    }
  }
}

function hashOf(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null; // removed (or a folder)
  }
}
