// Which diffs "Open diff" offers for one write, from its rebuilt versions: before ↔ as applied
// and before ↔ as proposed (one and the same when the person did not edit the proposal), and
// the person's edit itself. Only sides that were really rebuilt are offered. No 'vscode' here.
import type { WriteVersions } from '../../harness/events/writeResolver';

export interface DiffSide {
  name: 'before' | 'proposed' | 'applied';
  text: string;
}

export interface DiffView {
  title: string;
  label: string;
  description: string;
  left: DiffSide;
  right: DiffSide;
}

export function diffViews(v: WriteVersions): DiffView[] {
  const out: DiffView[] = [];
  const before = v.before;
  if (before === null) return out;
  if (v.applied !== null) {
    out.push({ title: 'before ↔ as applied', label: 'Change as applied', description: 'before ↔ as applied', left: { name: 'before', text: before }, right: { name: 'applied', text: v.applied } });
  }
  if (v.proposed !== null && (v.edited || v.applied === null)) {
    out.push({ title: 'before ↔ as proposed', label: 'Change as proposed', description: 'before ↔ as the model proposed it', left: { name: 'before', text: before }, right: { name: 'proposed', text: v.proposed } });
  }
  if (v.edited && v.proposed !== null && v.applied !== null) {
    out.push({ title: 'as proposed ↔ as applied', label: 'Your edit', description: 'as proposed ↔ as applied', left: { name: 'proposed', text: v.proposed }, right: { name: 'applied', text: v.applied } });
  }
  return out;
}

/** Why no diff can be shown, as one clause (the resolver's first note says it best). */
export function cannotRebuild(v: WriteVersions): string {
  if (v.before === null) return `its content before this write is not known (no commit or file matches the hash in the log)`;
  return v.notes.find((n) => n !== 'the write was not applied') ?? 'neither the proposed nor the applied content could be rebuilt';
}
