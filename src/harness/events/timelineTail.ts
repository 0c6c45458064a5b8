// The last line of `kite timeline`: how the run ended (or where it stopped). It reads only what a
// few kinds of event fold into the run state (feature, turns, tokens, cost, outcome, pause), so the
// text timeline folds only those (foldForTail): the call table, approvals and files of a full fold
// are most of its cost on a big log and the timeline never shows them (issue 17). A split read's
// worker (events/timelineWorker.ts) sends back only these events for the same reason.
import type { EventKind, KiteEvent } from '../protocol/events';
import { applyEvent, foldModelCounts, type RunState } from '../protocol/reducer';
import type { LogFormat } from './reader';
import { thousands } from '../protocol/thousands';

/** The kinds whose effect on the fold timelineTail reads. A model event's content is not read. */
export const TAIL_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['session_start', 'model', 'gate', 'compaction', 'paused', 'resumed', 'session_end']);

/**
 * Folds `e` into `s` when the last line reads its effect; other events leave `s` as it is. A model
 * event only counts (a third of a big log's rows: its reply text and calls are not read here).
 */
export function foldForTail(s: RunState, e: KiteEvent): void {
  if (e.kind === 'model') foldModelCounts(s, e);
  else if (TAIL_KINDS.has(e.kind)) applyEvent(s, e);
}

/** The last line: how the run ended (or where it stopped), from the fold of its log. */
export function timelineTail(s: RunState, format: LogFormat): string {
  const tail = s.outcome
    ? `${s.meta?.feature ?? '?'}: ${s.outcome.status} in ${s.turns} turns, ${thousands(s.tokens.total)} tokens, $${s.cost_usd.toFixed(4)}${s.outcome.commit ? `. Commit ${s.outcome.commit.slice(0, 7)}` : ''}.`
    : `${s.meta?.feature ?? '?'}: ${s.paused ? `paused for approval (${s.paused.pending.join(', ')})` : 'unfinished'} after ${s.turns} turns — continue with kite resume ${s.meta?.run ?? ''}`.trimEnd();
  return `${tail}${format === 'python-kite' ? ' (original Kite log)' : ''}`;
}
