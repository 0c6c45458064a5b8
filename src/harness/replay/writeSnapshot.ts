// The content of the file a write event is about, at that event: what the debugger's write frame
// shows instead of the live workspace file. Rebuilt by the same rule as the timeline's diffs
// (writeResolver: the log, plus the file before the run from git); the extension's `kite-file:`
// documents and the adapter's `source` request both call this. No 'vscode' here.
import type { KiteEvent } from '../protocol/events';
import { fileBeforeRun } from '../events/fileBeforeRun';
import { WriteIndex, resolveWrite } from '../events/writeResolver';

export type WriteSnapshot = { path: string; known: true; content: string; stage: 'applied' | 'proposed' } | { path: string | null; known: false; message: string };

/** The file written by the call event `seq` belongs to: as applied (else as proposed) by that call. */
export async function writeSnapshot(events: readonly KiteEvent[], seq: number): Promise<WriteSnapshot> {
  const index = new WriteIndex();
  for (const e of events) index.add(e);
  const at = events.find((e) => e.seq === seq);
  const call = at ? index.callOf(at) : null;
  if (!call) return { path: null, known: false, message: `event ${seq} of this log is not part of a file write` };
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const start = events[0]?.kind === 'session_start' ? events[0] : null;
  const v = await resolveWrite(index, call, { event: async (s) => bySeq.get(s) ?? null, base: (p, h) => fileBeforeRun(start, p, h) });
  if (v.applied !== null) return { path: call.path, known: true, content: v.applied, stage: 'applied' };
  if (v.proposed !== null) return { path: call.path, known: true, content: v.proposed, stage: 'proposed' };
  const why = v.notes.find((n) => n !== 'the write was not applied') ?? 'the log does not hold enough to rebuild it';
  return { path: call.path, known: false, message: `Kite cannot rebuild ${call.path} at event ${seq}: ${why}.` };
}

/** `kite-file:` location of a write's content: `<log>.kite-at/<seq>/<path>` (the tab shows the file's name). */
export const WRITE_DOC_SCHEME = 'kite-file';
const MARK = '.kite-at/';

export function writeDocPath(log: string, seq: number, path: string): string {
  return `${log}${MARK}${seq}/${path}`;
}

export function parseWriteDocPath(p: string): { log: string; seq: number; path: string } | null {
  const at = p.indexOf(MARK);
  if (at < 0) return null;
  const m = /^(\d+)\/(.+)$/.exec(p.slice(at + MARK.length));
  return m ? { log: p.slice(0, at), seq: Number(m[1]), path: m[2] } : null;
}

/** The URI string as vscode.Uri.from({scheme, path}).toString() writes it (for the out-of-process adapter). */
export function writeDocUriString(log: string, seq: number, path: string): string {
  return `${WRITE_DOC_SCHEME}:` + writeDocPath(log, seq, path).split('/').map(encodeURIComponent).join('/');
}
