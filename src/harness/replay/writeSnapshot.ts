// The content of the file a write event is about, at that event: what the debugger's write frame
// shows instead of the live workspace file. Rebuilt by the same rule as the timeline's diffs
// (writeResolver: the log, plus the file before the run from git); the extension's `kite-file:`
// documents and the adapter's `source` request both call this. No 'vscode' here.
import type { EventOf, KiteEvent } from '../protocol/events';
import { fileBeforeRun } from '../events/fileBeforeRun';
import { WriteIndex, isWriteName, resolveWrite } from '../events/writeResolver';
import type { EventIndex } from './eventIndex';
import { indexOfSeq } from './eventList';

export type WriteSnapshot = { path: string; known: true; content: string; stage: 'applied' | 'proposed' } | { path: string | null; known: false; message: string };

/** The file written by the call event `seq` belongs to: as applied (else as proposed) by that call. */
export async function writeSnapshot(events: readonly KiteEvent[], seq: number): Promise<WriteSnapshot> {
  return snapshotOf(events, events.find((e) => e.seq === seq) ?? null, events[0]?.kind === 'session_start' ? events[0] : null, seq);
}

/**
 * The same from a replay's index (a big log read lazily): only the events of the write calls to
 * the same file are parsed, found through the index, never the whole log.
 */
export async function writeSnapshotIndexed(index: EventIndex, seq: number): Promise<WriteSnapshot> {
  const { events } = index;
  const i = indexOfSeq(events, seq);
  const call = i >= 0 ? index.callAt(i) : null;
  // The calls resolveWrite can read: this one and the applied writes to its file (the index knows
  // them by path). Without a path (not a write, or one naming none), every write call of the log.
  const path = call && isWriteName(call.name) ? index.writePathAt(i) : null;
  const same = path !== null ? index.writesByPath.get(path) : undefined;
  const calls = same && call ? [call, ...same.map((w) => index.callAt(w.index)).filter((c) => c !== null && c !== call)] : index.calls.filter((c) => isWriteName(c.name));
  const picked: number[] = [];
  for (const c of calls) if (c) for (const j of [c.proposed, c.approval, c.intent, c.tool]) if (j >= 0) picked.push(j);
  picked.sort((a, b) => a - b);
  const first = events.length ? events.at(0) : null;
  return snapshotOf(
    picked.map((j) => events.at(j)),
    i >= 0 ? events.at(i) : null,
    first?.kind === 'session_start' ? first : null,
    seq,
  );
}

/** `writes`: the events of write calls (at least), in log order. */
async function snapshotOf(writes: readonly KiteEvent[], at: KiteEvent | null, start: EventOf<'session_start'> | null, seq: number): Promise<WriteSnapshot> {
  const index = new WriteIndex();
  for (const e of writes) index.add(e);
  const call = at ? index.callOf(at) : null;
  if (!call) return { path: null, known: false, message: `event ${seq} of this log is not part of a file write` };
  const bySeq = new Map(writes.map((e) => [e.seq, e]));
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
