// Which rows pass the toolbar's filters. Pure and O(1) per row, so an appended event is checked
// on its own and a changed filter is one pass over the rows.
import type { EventKind } from '../../src/harness/protocol/events';
import { haystack, type Row } from './rows';

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
