// What happened to each file a run touched, in log order: its writes (write_file / edit_file, with
// the person's edited args when there were some) and the restores that put it back. The paths are
// confined to the workspace here, once, so nothing downstream acts on a path the log merely names.
import type { EventOf, KiteEvent } from '../protocol/events';
import { EventIndex } from '../replay/eventIndex';
import { resolveInWorkspace } from '../tools/paths';

export type Touch =
  | { seq: number; kind: 'write'; name: string; args: unknown; preHash: string | null | undefined; postHash: string | null | undefined }
  | { seq: number; kind: 'restore'; toSeq: number; after: string | null };

export interface FileTimeline {
  rel: string; // workspace-relative, forward slashes, symlinks inside the workspace resolved
  abs: string;
  touches: Touch[]; // in log order
}

export interface Refused {
  path: string; // as the log names it
  reason: string;
}

/** Kite's own files: a restore never changes them, whatever the log says was written there. */
function kiteOwn(rel: string): boolean {
  return rel === 'kite-progress.json' || rel === '.kite' || rel.startsWith('.kite/');
}

export function fileTimelines(events: readonly KiteEvent[], root: string, logDir: string): { files: FileTimeline[]; refused: Refused[] } {
  const index = new EventIndex(events);
  const raw: { path: string; touch: Touch }[] = [];
  for (const writes of index.writesByPath.values()) {
    for (const w of writes) {
      const tool = events[w.index] as EventOf<'tool'>;
      const call = index.callAt(w.index);
      const intent = call && call.intent >= 0 ? (events[call.intent] as EventOf<'intent'>) : null;
      raw.push({ path: w.path, touch: { seq: tool.seq, kind: 'write', name: tool.name, args: (events[w.argsAt] as { args?: unknown }).args, preHash: intent?.pre_hash, postHash: tool.post_hash ?? intent?.post_hash } });
    }
  }
  for (const e of events) {
    if (e.kind !== 'restore') continue;
    for (const f of e.files) raw.push({ path: f.path, touch: { seq: e.seq, kind: 'restore', toSeq: e.to_seq, after: f.after } });
  }
  raw.sort((a, b) => a.touch.seq - b.touch.seq);
  const byRel = new Map<string, FileTimeline>();
  const refused = new Map<string, Refused>();
  for (const { path, touch } of raw) {
    const r = resolveInWorkspace(root, logDir, path, { forWrite: true });
    if (!r.ok) {
      if (!refused.has(path)) refused.set(path, { path, reason: `${r.message} (rule ${r.rule}); a restore never touches it` });
      continue;
    }
    if (r.rel === '' || kiteOwn(r.rel)) {
      if (!refused.has(path)) refused.set(path, { path, reason: `"${path}" is ${r.rel === '' ? 'the workspace root' : "one of Kite's own files"}; a restore never touches it` });
      continue;
    }
    const f = byRel.get(r.rel) ?? { rel: r.rel, abs: r.abs, touches: [] };
    f.touches.push(touch);
    byRel.set(r.rel, f);
  }
  return { files: [...byRel.values()], refused: [...refused.values()] };
}
