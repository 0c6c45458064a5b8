// Hunks between the file as it is and the (editable) proposal, for per-hunk Accept / Reject.
// Pure (no 'vscode'): works on whole lines with their terminators kept, so reverting a hunk
// reproduces the original bytes exactly (CRLF and a missing final newline included).
import { diffArrays } from 'diff';

export interface Hunk {
  /** 0-based index of the first original line replaced (insertion point when oldLines is empty). */
  oldStart: number;
  oldLines: string[];
  /** 0-based index of the first line in the proposal. */
  newStart: number;
  newLines: string[];
}

/** Splits into lines, each keeping its terminator; the last line may have none. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The changed regions, top to bottom. Adjacent removals and additions form one hunk. */
export function computeHunks(original: string, proposal: string): Hunk[] {
  const a = splitLines(original);
  const b = splitLines(proposal);
  const hunks: Hunk[] = [];
  let oi = 0;
  let ni = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(a, b)) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      open = null;
      oi += n;
      ni += n;
      continue;
    }
    if (!open) {
      open = { oldStart: oi, oldLines: [], newStart: ni, newLines: [] };
      hunks.push(open);
    }
    if (part.removed) {
      open.oldLines.push(...part.value);
      oi += n;
    } else {
      open.newLines.push(...part.value);
      ni += n;
    }
  }
  return hunks;
}

/** The proposal with one hunk put back to the original text. */
export function revertHunk(proposal: string, hunk: Hunk): string {
  const lines = splitLines(proposal);
  lines.splice(hunk.newStart, hunk.newLines.length, ...hunk.oldLines);
  return lines.join('');
}

/** Identity of a hunk that survives edits elsewhere in the document (used to remember "accepted"). */
export function hunkKey(h: Hunk): string {
  return `${h.oldStart}:${h.oldLines.length}\u0000${h.oldLines.join('')}\u0000${h.newLines.join('')}`;
}

/** Lines of the proposal a hunk covers, for placing its CodeLens (a pure deletion sits on the next line). */
export function hunkAnchorLine(h: Hunk): number {
  return h.newStart;
}

/** Short label for a hunk, e.g. "+3 −1". */
export function hunkLabel(h: Hunk): string {
  return `+${h.newLines.length} −${h.oldLines.length}`;
}

export type WriteVerdict =
  | { decision: 'approve' }
  | { decision: 'edit'; content: string }
  | { decision: 'unchanged' }; // the person kept nothing: the file stays as it is

/** What the final text means relative to the model's proposal and the file as it is. */
export function verdictFor(before: string | null, proposed: string, final: string): WriteVerdict {
  if (final === proposed) return { decision: 'approve' };
  if (final === (before ?? '')) return { decision: 'unchanged' }; // a new file emptied = not created
  return { decision: 'edit', content: final };
}
