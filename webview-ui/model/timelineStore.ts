// The webview's own state: one row per event, stored by column (rowTable.ts: a few dozen bytes a
// row; the recent events whole, older ones on request), rows grouped by model turn, the filtered
// list of visible rows, and the chart series. Appending is O(1) per event (the list, the groups,
// the filter check and the series all grow at the end); only a changed filter or a
// collapse/expand walks all the rows.
import type { KiteEvent } from '../../src/harness/protocol/events';
import type { SandboxInfo } from '../../src/harness/protocol/sandboxInfo';
import { judgeCallsOf, tokensOf } from '../../src/harness/protocol/totals';
import { emptyContextTally, tallyEvent, type ContextTally } from '../../src/harness/protocol/contextTally';
import { LENGTHS_BEFORE_TRIM, VIEW_RECENT_EVENTS, type TimelineSource } from '../../src/harness/protocol/webviewMessages';
import { RecentEvents } from './recentEvents';
import { NO_FILTER, isFiltering, matchRows, rowMatcher, type Filter } from './filters';
import { rowFromEvent, type Row } from './rows';
import { RowTable } from './rowTable';
import { TurnSeries } from './turnSeries';
import { lowerBound } from './virtualWindow';

/** Call ids whose tool name is kept (approval rows name their call by id): the latest 4,096 to
 *  8,192 calls, in two generations. */
export const TOOL_NAMES_KEPT = 4096;

export interface Group {
  /** Row index of the group's first row (the model reply; row 0 for group 0). */
  head: number;
  turn: number;
  /** Rows in the group, head included. */
  count: number;
  collapsed: boolean;
  /** Rows other than the head that pass the filter. */
  matches: number;
  headShown: boolean;
  /** 0-based place of the head among the shown heads (aria-posinset − 1); -1 while not shown. */
  shownRank: number;
}

export interface Totals {
  turns: number;
  tokens: number;
  errors: number;
  /** The session_end status, when the run has ended. */
  outcome: string | null;
  /** Wall-clock start of the run (ms since epoch), from session_start. */
  startedAt: number | null;
  feature: string | null;
  model: string | null;
  /** How the run contains its commands (session_start, then the latest resumed; null: older log). */
  sandbox: SandboxInfo | null;
}

export interface AppendResult {
  rowsAdded: number;
  /** Events skipped because their seq was not after the last one (duplicates after a reload). */
  skipped: number;
  /** Tool names seen for the first time, in order. */
  newTools: string[];
  /** Position in `visible` of the first newly visible row (-1: none became visible). */
  visibleFrom: number;
}

export class TimelineStore {
  /** Events kept whole: the recent ones (the page's memory must not grow with the log). */
  readonly events = new RecentEvents(VIEW_RECENT_EVENTS);
  private readonly rows = new RowTable();
  readonly groups: Group[] = [];
  readonly series = new TurnSeries();
  readonly tools: string[] = [];
  /** Row indices shown, ascending (matching rows, plus the turn rows that give them context). */
  visible: number[] = [];
  /** Rows that pass the filter (all rows when none is set), collapsed turns included. */
  matchCount = 0;
  /** What tool results put into the conversation (the reducer's count, protocol/contextTally.ts). */
  readonly context: ContextTally = emptyContextTally();
  observationLimit: number | null = null;
  compactions = 0;
  readonly totals: Totals = { turns: 0, tokens: 0, errors: 0, outcome: null, startedAt: null, feature: null, model: null, sandbox: null };
  private filterState: Filter = NO_FILTER;
  private matches: (row: Row) => boolean = () => true;
  /** Tool name by call id, for the approval rows that name only the id: the latest calls, then the
   *  generation before them. (Deleting a Map's oldest entry at every call instead left deleted
   *  slots its next iterator had to skip: ~0.5 s of the page's CPU over a 1M-event history.) */
  private toolNames = new Map<string, string>();
  private olderToolNames = new Map<string, string>();
  private readonly toolNameOf = (id: string): string | null => this.toolNames.get(id) ?? this.olderToolNames.get(id) ?? null;
  private readonly toolSet = new Set<string>();
  private lastSeq = -1;
  /** Groups whose head is shown (the size of the tree's first level). */
  private shownGroups = 0;
  /** Row index of each model reply, in order (chart bar → row). */
  private readonly modelRows: number[] = [];

  /** The log shown, and whether it is followed live. */
  source: TimelineSource = { log: '', title: '', live: false };
  /** About how many events the history has (for the progress count while loading). */
  expected = 0;
  /** More of the history is on its way. */
  loading = false;

  get filter(): Filter {
    return this.filterState;
  }

  get filterActive(): boolean {
    return isFiltering(this.filterState);
  }

  /** Whether the row passes the current filter (collapse aside). */
  rowPasses(row: Row): boolean {
    return this.matches(row);
  }

  /** Number of rows (one per event). */
  get rowCount(): number {
    return this.rows.length;
  }

  /** The row at this index, built from the columns (undefined when out of range). */
  row(index: number): Row | undefined {
    return this.rows.get(index);
  }

  /** The group (model turn) of a row, without building the row. */
  groupOfRow(index: number): number {
    return this.rows.groupAt(index);
  }

  /** Bytes of the row columns (typed arrays: outside the JS heap's count). */
  get rowBytes(): number {
    return this.rows.bytes;
  }

  get lastEventSeq(): number | null {
    return this.lastSeq < 0 ? null : this.lastSeq;
  }

  /** `whole` false: the events are cut to what their rows show (a rowsOnly batch): none is kept. */
  append(events: readonly KiteEvent[], whole = true): AppendResult {
    const result: AppendResult = { rowsAdded: 0, skipped: 0, newTools: [], visibleFrom: -1 };
    const visibleBefore = this.visible.length;
    for (const e of events) {
      if (e.seq <= this.lastSeq) {
        result.skipped++;
        continue;
      }
      this.lastSeq = e.seq;
      this.addOne(e, result, whole);
    }
    if (this.visible.length > visibleBefore) result.visibleFrom = visibleBefore;
    return result;
  }

  private addOne(e: KiteEvent, result: AppendResult, whole: boolean): void {
    const index = this.rows.length;
    // A model reply opens a group (its turn); the first row always opens group 0.
    if (index === 0 || e.kind === 'model') {
      this.groups.push({ head: index, turn: e.kind === 'model' ? e.turn : 0, count: 0, collapsed: false, matches: 0, headShown: false, shownRank: -1 });
    }
    const g = this.groups.length - 1;
    const group = this.groups[g] as Group;
    if ('id' in e && 'name' in e && typeof e.id === 'string' && typeof e.name === 'string') this.rememberToolName(e.id, e.name);
    const row = rowFromEvent(e, index, {
      group: g,
      turn: group.turn,
      head: group.head === index,
      toolNameOf: this.toolNameOf,
    });
    this.events.push(e, whole);
    this.rows.push(row);
    if (e.kind === 'model') this.modelRows.push(index);
    group.count++;
    result.rowsAdded++;
    this.series.add(e);
    this.count(e, row);
    if (row.tool !== null && !this.toolSet.has(row.tool)) {
      this.toolSet.add(row.tool);
      this.tools.push(row.tool);
      result.newTools.push(row.tool);
    }
    // Visibility of the new row: it is the last row, so it can only go at the end of `visible`.
    const m = this.matches(row);
    if (m) this.matchCount++;
    if (row.head) {
      group.headShown = m;
      if (m) {
        group.shownRank = this.shownGroups++;
        this.visible.push(index);
      }
    } else if (m) {
      group.matches++;
      if (!group.headShown) {
        group.headShown = true;
        group.shownRank = this.shownGroups++;
        this.visible.push(group.head);
      }
      if (!group.collapsed) this.visible.push(index);
    }
  }

  private rememberToolName(id: string, name: string): void {
    // An approval follows its call within a turn: the latest calls are enough, and the page's
    // memory must not grow with the number of calls.
    if (this.toolNames.size >= TOOL_NAMES_KEPT && !this.toolNames.has(id)) {
      this.olderToolNames = this.toolNames;
      this.toolNames = new Map();
    }
    this.toolNames.set(id, name);
  }

  private count(e: KiteEvent, row: Row): void {
    if (row.level === 'error') this.totals.errors++;
    tallyEvent(this.context, e, LENGTHS_BEFORE_TRIM); // the page's long texts are previews
    if (e.kind === 'compaction') this.compactions++;
    else if (e.kind === 'session_start') this.observationLimit = e.limits.observation_tokens ?? null;
    if (e.kind === 'model') {
      this.totals.turns = Math.max(this.totals.turns, e.turn);
      this.totals.tokens += tokensOf(e);
    } else if (e.kind === 'gate') {
      for (const j of judgeCallsOf(e)) this.totals.tokens += tokensOf(j); // judged checks' calls
    } else if (e.kind === 'session_start') {
      this.totals.feature = `${e.feature} — ${e.title}`;
      this.totals.model = e.model;
      const started = Date.parse(e.started_at);
      this.totals.startedAt = Number.isNaN(started) ? null : started;
      this.totals.outcome = null;
      this.totals.sandbox = e.sandbox ?? null;
    } else if (e.kind === 'session_end') this.totals.outcome = e.status;
    else if (e.kind === 'resumed') {
      this.totals.outcome = null;
      this.totals.sandbox = e.sandbox ?? this.totals.sandbox;
    }
  }

  setFilter(filter: Filter): void {
    this.filterState = filter;
    this.matches = isFiltering(filter) ? rowMatcher(filter) : () => true;
    this.recompute();
  }

  setCollapsed(group: number, collapsed: boolean): void {
    const g = this.groups[group];
    if (!g || g.collapsed === collapsed || g.count < 2) return;
    g.collapsed = collapsed;
    this.recompute();
  }

  setAllCollapsed(collapsed: boolean): void {
    for (const g of this.groups) g.collapsed = collapsed && g.count > 1;
    this.recompute();
  }

  /** Position of a row in `visible`, or -1 when hidden. O(log n). */
  positionOf(rowIndex: number): number {
    const pos = lowerBound(this.visible, this.visible.length, rowIndex);
    return this.visible[pos] === rowIndex ? pos : -1;
  }

  /** Row index of the event with this seq (binary search: seqs increase with the row index). */
  rowOfSeq(seq: number): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows.seqAt(mid) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.rows.length && this.rows.seqAt(lo) === seq ? lo : -1;
  }

  /** Row of the n-th model reply (0-based), the row a chart bar stands for; -1 when out of range. */
  rowOfTurnIndex(n: number): number {
    return this.modelRows[n] ?? -1;
  }

  /** Where a shown row sits in the tree, for aria-posinset/aria-setsize: turns among the shown
   *  turns, an event among its turn's shown events. O(log n). Null when the row is not shown. */
  treePosition(rowIndex: number): { posinset: number; setsize: number } | null {
    if (rowIndex < 0 || rowIndex >= this.rows.length) return null;
    const g = this.groups[this.rows.groupAt(rowIndex)];
    if (!g || this.positionOf(rowIndex) < 0) return null;
    if (this.rows.headAt(rowIndex)) return { posinset: g.shownRank + 1, setsize: this.shownGroups };
    return { posinset: this.positionOf(rowIndex) - this.positionOf(g.head), setsize: this.filterActive ? g.matches : g.count - 1 };
  }

  /** Rebuilds `visible` and each group's match count: one pass over the rows. */
  private recompute(): void {
    const visible: number[] = [];
    const filtering = isFiltering(this.filterState);
    // The filter over all rows at once, from the columns (no row objects).
    const passes = filtering ? matchRows(this.rows, this.filterState) : null;
    let count = 0;
    let shownGroups = 0;
    for (const g of this.groups) {
      const end = g.head + g.count;
      let matches = 0;
      const headMatches = passes === null || passes[g.head] === 1;
      for (let i = g.head + 1; i < end; i++) if (passes === null || passes[i] === 1) matches++;
      g.matches = matches;
      g.headShown = headMatches || matches > 0;
      g.shownRank = g.headShown ? shownGroups++ : -1;
      count += matches + (headMatches ? 1 : 0);
      if (g.headShown) visible.push(g.head);
      if (!g.collapsed && matches > 0) for (let i = g.head + 1; i < end; i++) if (passes === null || passes[i] === 1) visible.push(i);
    }
    this.visible = visible;
    this.matchCount = count;
    this.shownGroups = shownGroups;
  }
}
