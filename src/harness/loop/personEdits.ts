// Files the person saves in the editor while a run is going (VS Code reports them through the
// host) are recorded in the run's log as `person_edit` events, so the commit can leave the
// person's work out (progress/commitScope.ts) and a resume still knows about it.
import { isAbsolute } from 'node:path';
import type { EventSink } from '../events/sink';
import type { Host } from '../host';
import { fileSha256 } from '../tools/hash';
import { resolveInWorkspace } from '../tools/paths';

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
  return w.host.onPersonEdit((paths) => {
    for (const abs of paths) {
      // The tools' own confinement: inside the workspace (real paths), never .git/ or the log folder.
      const r = isAbsolute(abs) ? resolveInWorkspace(w.root, w.logDir, abs, { forWrite: false }) : null;
      if (r?.ok && r.rel !== '') w.log.append({ kind: 'person_edit', path: r.rel, hash: fileSha256(r.abs), via: 'editor' });
    }
  });
}
