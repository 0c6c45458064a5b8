// Which rows pass the toolbar's filters. Pure and O(1) per row, so an appended event is checked
// on its own and a changed filter is one pass over the rows.
import { EVENT_KINDS, type EventKind } from '../../src/harness/protocol/events';
import { haystack, type Row } from './rows';
import type { RowTable } from './rowTable';

export const KIND_FILTERS = ['all', 'turns', 'tools', 'policy', 'gate', 'problems', 'session'] as const;
export type KindFilter = (typeof KIND_FILTERS)[number];

export const KIND_FILTER_LABELS: Record<KindFilter, string> = {
  all: 'All kinds',
  turns: 'Model turns',
  tools: 'Tool calls',
  policy: 'Policy & approvals',
  gate: 'Gate',
  problems: 'Budget, warnings, divergence',
  session: 'Session & progress',
};

const KINDS: Record<Exclude<KindFilter, 'all'>, ReadonlySet<EventKind>> = {
  turns: new Set(['model', 'model_retry']),
  tools: new Set(['proposed', 'intent', 'tool']),
  policy: new Set(['policy', 'approval_request', 'approval']),
  gate: new Set(['gate']),
  problems: new Set(['budget_stop', 'warning', 'divergence', 'model_retry']),
  session: new Set(['session_start', 'session_end', 'progress', 'user', 'paused', 'resumed']),
};

export interface Filter {
  errorsOnly: boolean;
  kind: KindFilter;
  /** Only rows about this tool (proposed, policy, approvals, intent, result). */
  tool: string | null;
  /** Case-insensitive text search; '' for none. */
  text: string;
}

export const NO_FILTER: Filter = { errorsOnly: false, kind: 'all', tool: null, text: '' };

export function isFiltering(f: Filter): boolean {
  return f.errorsOnly || f.kind !== 'all' || f.tool !== null || f.text.trim() !== '';
}

/** A matcher with the search text lower-cased once, not once per row. */
export function rowMatcher(f: Filter): (row: Row) => boolean {
  const text = f.text.trim().toLowerCase();
  const kinds = f.kind === 'all' ? null : KINDS[f.kind];
  return (row) =>
    (!f.errorsOnly || row.level === 'error') &&
    (kinds === null || kinds.has(row.kind)) &&
    (f.tool === null || row.tool === f.tool) &&
    (text === '' || haystack(row).includes(text));
}

/**
 * Which rows of the table pass the filter (1) or not (0), reading the columns: the same answer
 * as `rowMatcher` row by row, without building a row object per row. The search looks through
 * the summary text chunk by chunk and through each distinct word once.
 */
export function matchRows(table: RowTable, f: Filter): Uint8Array {
  const n = table.length;
  const out = new Uint8Array(n);
  const text = f.text.trim().toLowerCase();
  const kinds = f.kind === 'all' ? null : KINDS[f.kind];
  const kindOk = EVENT_KINDS.map((k) => kinds === null || kinds.has(k));
  const toolId = f.tool === null ? -1 : (table.wordTable.idOfKnown(f.tool) ?? -2);
  let summaryHit: Uint8Array | null = null;
  let wordHit: Uint8Array | null = null;
  let kindHit: boolean[] = [];
  if (text !== '') {
    summaryHit = new Uint8Array(n);
    table.summaries.markContaining(text, summaryHit);
    const words = table.wordTable.words;
    wordHit = new Uint8Array(words.length);
    for (let w = 1; w < words.length; w++) wordHit[w] = (words[w] as string).toLowerCase().includes(text) ? 1 : 0;
    kindHit = EVENT_KINDS.map((k) => k.includes(text));
  }
  const single = rowMatcher(f);
  for (let i = 0; i < n; i++) {
    if (table.hasUnpooled(i)) {
      out[i] = single(table.get(i) as Row) ? 1 : 0;
      continue;
    }
    const code = table.kindCodeAt(i);
    if (f.errorsOnly && table.levelAt(i) !== 'error') continue;
    if (!kindOk[code]) continue;
    if (f.tool !== null && table.toolIdAt(i) !== toolId) continue;
    if (summaryHit !== null && wordHit !== null) {
      const found =
        summaryHit[i] === 1 ||
        wordHit[table.titleIdAt(i)] === 1 ||
        wordHit[table.statusIdAt(i)] === 1 ||
        wordHit[table.toolIdAt(i)] === 1 ||
        kindHit[code] === true ||
        (EVENT_KINDS[code] === 'model' && `turn ${table.turnAt(i)}`.includes(text));
      if (!found) continue;
    }
    out[i] = 1;
  }
  return out;
}
