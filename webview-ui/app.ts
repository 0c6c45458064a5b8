// The timeline page: validates every message from the extension, keeps the state (the store),
// and drives the views. Work per appended event is O(1); appended events reach the screen a few
// times a second (VIEW_DATA_FRAME_MS), what a person does at the next animation frame.
import { z } from 'zod';
import {
  VIEW_DATA_FRAME_MS,
  ViewMessageSchema,
  type HostMessage,
  type LogProblem,
  type ViewMessage,
} from '../src/harness/protocol/webviewMessages';
import type { KiteEvent } from '../src/harness/protocol/events';
import { isDeflated, unpack, unpackDeflated, type Unpacked } from '../src/harness/protocol/packedMessage';
import { KIND_FILTERS, NO_FILTER, type Filter } from './model/filters';
import { ACTION_DIFF, ACTION_OUTPUT, type Row } from './model/rows';
import { TimelineStore } from './model/timelineStore';
import { parseHostMessage } from './parseHostMessage';
import { CostChart, DURATION_STACKS, StackedBarChart, TOKEN_STACKS } from './view/charts';
import { Announcer } from './view/announcer';
import { DetailsView, type RowAction } from './view/detailsView';
import { Header } from './view/header';
import { ListView } from './view/listView';
import { Toolbar } from './view/toolbar';
import { SteerBox } from './view/steerBox';
import { StreamRow } from './view/streamRow';

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What survives a reload of the view (VS Code keeps it with getState/setState). */
const SavedStateSchema = z.object({
  filter: z.object({ errorsOnly: z.boolean(), kind: z.enum(KIND_FILTERS), tool: z.string().nullable(), text: z.string() }),
  charts: z.boolean(),
});
type SavedState = z.infer<typeof SavedStateSchema>;

export class TimelineApp {
  private store = new TimelineStore();
  /** The last message still to be applied behind a deflated one (null: none waits). */
  private inbox: Promise<void> | null = null;
  private problems: LogProblem[] = [];
  private statusMessage: string | null = null;
  private readonly announcer: Announcer;
  private readonly header: Header;
  private readonly chartsEl: HTMLElement;
  private tokens!: StackedBarChart;
  private cost!: CostChart;
  private durations!: StackedBarChart;
  private readonly toolbar: Toolbar;
  private readonly listHost: HTMLElement;
  private list: ListView;
  private readonly details: DetailsView;
  private readonly streamRow: StreamRow;
  private readonly steer: SteerBox;
  private readonly empty: HTMLElement;
  private saved: SavedState;
  private frame = 0;
  /** History and live batches (snapshot and appends) applied since the last snapshot: the host
   *  paces its reading on this count. */
  private batchesApplied = 0;
  private chartsDirty = true;
  /** A data frame is due (appended events wait for it to reach the screen). */
  private dataFrame = false;
  private dataFrameAt = -Infinity;
  /** The data frame's rows are due in the list (drawn at the end of the app's frame). */
  private listDue = false;

  private readonly root: HTMLElement;

  constructor(
    root: HTMLElement,
    private readonly api: VsCodeApi,
  ) {
    const restored = SavedStateSchema.safeParse(api.getState());
    this.saved = restored.success ? restored.data : { filter: NO_FILTER, charts: true };
    this.root = root;
    root.classList.add('timeline', 'no-data');
    this.announcer = new Announcer(root);
    this.header = new Header(root, this.announcer, () => this.post({ type: 'addToEvals' }));
    this.chartsEl = document.createElement('section');
    this.chartsEl.className = 'charts';
    this.chartsEl.id = 'charts';
    this.chartsEl.hidden = !this.saved.charts;
    root.append(this.chartsEl);
    this.makeCharts();
    this.toolbar = new Toolbar(root, this.saved.filter, {
      filter: (f) => this.setFilter(f),
      collapseAll: (c) => {
        this.store.setAllCollapsed(c);
        this.list.reset();
        this.afterVisibleChange();
      },
      toggleCharts: () => {
        this.chartsEl.hidden = !this.chartsEl.hidden;
        this.save({ charts: !this.chartsEl.hidden });
        if (!this.chartsEl.hidden) this.scheduleFrame(true);
      },
      leaveSearch: () => this.focusList(true),
    });
    this.listHost = document.createElement('div');
    this.listHost.className = 'list-host';
    root.append(this.listHost);
    this.empty = document.createElement('div');
    this.empty.className = 'empty';
    this.empty.id = 'empty';
    this.empty.textContent = 'Waiting for the extension…';
    this.listHost.append(this.empty);
    this.store.setFilter(this.saved.filter);
    this.list = this.makeList();
    this.streamRow = new StreamRow(root);
    this.details = new DetailsView(root, (action, seq) => this.post({ type: action, seq }), () => this.closeDetails());
    this.steer = new SteerBox(root, (text) => this.post({ type: 'steer', text }));
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    window.addEventListener('message', (ev: MessageEvent<unknown>) => this.receive(ev.data));
    this.post({ type: 'ready' });
  }

  /** Takes one message from the extension. A history batch arrives packed and deflated
   *  (protocol/packedMessage.ts): it inflates asynchronously, and what comes after it waits its turn
   *  (messages are applied in the order they came); inflating starts at once. */
  private receive(raw: unknown): void {
    if (this.inbox === null && !isDeflated(raw)) return this.handle(unpack(raw));
    const unpacked = isDeflated(raw) ? unpackDeflated(raw) : Promise.resolve(unpack(raw));
    // A message that throws is reported as an uncaught error would be; the next ones still come.
    const turn = (this.inbox ?? Promise.resolve())
      .then(() => unpacked)
      .then((u) => this.handle(u))
      .catch((e: unknown) => reportError(e));
    this.inbox = turn;
    void turn.finally(() => {
      if (this.inbox === turn) this.inbox = null;
    });
  }

  /** Validates and applies one message from the extension. */
  private handle(unpacked: Unpacked): void {
    if ('error' in unpacked) return this.ignore(unpacked.error);
    const parsed = parseHostMessage(unpacked.message);
    if (!parsed.ok) return this.ignore(parsed.error);
    this.apply(parsed.message);
    const totals = { turns: this.store.totals.turns, tokens: this.store.totals.tokens, cost_usd: this.store.series.totalCost };
    this.post({ type: 'applied', batches: this.batchesApplied, events: this.store.events.length, lastSeq: this.store.lastEventSeq, selected: this.store.row(this.selectedRow)?.seq ?? null, totals });
  }

  /** A message not ours (or malformed): say so, visibly, and keep the state. */
  private ignore(why: string): void {
    this.statusMessage = `Ignored an invalid message from the extension — ${why}`;
    this.scheduleFrame(false);
  }

  private apply(msg: HostMessage): void {
    switch (msg.type) {
      case 'snapshot': {
        this.batchesApplied = 1;
        this.store = new TimelineStore();
        this.store.source = msg.source;
        this.store.expected = msg.total;
        this.store.loading = msg.loading;
        this.store.setFilter(this.toolbar.filter);
        this.toolbar.clearTools();
        this.problems = [...msg.problems];
        this.statusMessage = null;
        this.list.el.remove();
        this.list = this.makeList();
        this.makeCharts();
        this.empty.hidden = true;
        this.selectedRow = -1;
        this.details.show(null, null);
        this.streamRow.reset(); // the turns of the run shown before say nothing about this one's
        this.appendEvents(msg.events, true, msg.rowsOnly === true);
        break;
      }
      case 'append':
        this.batchesApplied++;
        this.store.loading = msg.loading;
        this.problems.push(...msg.problems);
        this.appendEvents(msg.events, false, msg.rowsOnly === true);
        break;
      case 'status':
        this.store.source = { ...this.store.source, live: msg.live };
        this.statusMessage = msg.message;
        this.scheduleFrame(false);
        break;
      case 'empty':
        this.empty.hidden = false;
        this.empty.textContent = msg.message;
        break;
      case 'stream':
        this.streamRow.add(msg.turn, msg.text, msg.thinking);
        break;
      case 'steerResult':
        this.steer.result(msg.ok, msg.message);
        break;
      case 'detail': {
        const row = this.store.rowOfSeq(msg.seq);
        if (row < 0) break;
        if (!msg.event) {
          if (this.details.seq === msg.seq) this.details.unavailable();
          break;
        }
        this.store.events.remember(row, msg.event);
        // Still the selected row: fill in the pane (a person may have moved on meanwhile).
        if (this.details.seq === msg.seq) this.details.show(this.store.row(row) ?? null, msg.event, this.store.totals.startedAt);
        break;
      }
      case 'reveal': {
        const row = this.store.rowOfSeq(msg.seq);
        if (row >= 0) {
          if (this.store.positionOf(row) < 0) this.showRow(row);
          this.select(row);
        }
        break;
      }
      default:
        msg satisfies never;
    }
  }

  private appendEvents(events: readonly KiteEvent[], first: boolean, rowsOnly: boolean): void {
    // A finished reply (or the end of the run) replaces the streamed text of its turn.
    for (const e of events) {
      if (e.kind === 'model') this.streamRow.end(e.turn);
      else if (e.kind === 'session_end') this.streamRow.end(null);
    }
    const res = this.store.append(events, !rowsOnly);
    if (res.newTools.length) this.toolbar.addTools(res.newTools);
    if (first) {
      this.list.reset();
      // First rows now, not at the next frame: the list is what a person looks at first.
      this.list.render();
      this.scheduleFrame(true);
    } else {
      this.list.grew();
      this.scheduleDataFrame();
    }
  }

  /** Appended events are drawn at the next tick of VIEW_DATA_FRAME_MS's grid: a live run or a
   *  loading history redraws the window a few times a second, not at every animation frame. */
  private scheduleDataFrame(): void {
    if (this.dataFrame) return;
    this.dataFrame = true;
    // Wall-clock time, which every view of the window shares: they draw in the same frame. (A
    // timer can fire a little before the wall clock's tick: then the next tick, not one ms later.)
    let wait = VIEW_DATA_FRAME_MS - (Date.now() % VIEW_DATA_FRAME_MS);
    if (performance.now() + wait - this.dataFrameAt < VIEW_DATA_FRAME_MS / 2) wait += VIEW_DATA_FRAME_MS;
    setTimeout(() => {
      this.dataFrame = false;
      this.dataFrameAt = performance.now();
      this.listDue = true;
      this.scheduleFrame(true);
    }, wait);
  }

  private makeCharts(): void {
    this.chartsEl.replaceChildren();
    const pick = (turnIndex: number) => this.revealTurn(turnIndex);
    this.tokens = new StackedBarChart(this.chartsEl, 'chart-tokens', 'Tokens per turn', TOKEN_STACKS, 'tokens', pick, this.announcer);
    this.cost = new CostChart(this.chartsEl, pick, this.announcer);
    this.durations = new StackedBarChart(this.chartsEl, 'chart-durations', 'Durations', DURATION_STACKS, 'ms', pick, this.announcer);
    this.chartsDirty = true;
  }

  private makeList(): ListView {
    return new ListView(this.listHost, this.store, {
      select: (i) => this.select(i),
      activate: (i) => this.activate(i),
      toggle: (g, c) => this.toggle(g, c),
    });
  }

  private scheduleFrame(charts: boolean): void {
    if (charts) this.chartsDirty = true;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      // Until a run has events, only the message shows (no empty charts and filters).
      this.root.classList.toggle('no-data', this.store.rowCount === 0);
      this.header.update(this.store, this.problems, this.statusMessage);
      this.toolbar.setCount(this.store.matchCount, this.store.rowCount);
      if (this.chartsDirty && !this.chartsEl.hidden) {
        this.chartsDirty = false;
        const dirty = this.store.series.takeDirty();
        this.cost.budget = this.store.series.budgetUsd;
        this.tokens.update(this.store.series.turns, dirty);
        this.cost.update(this.store.series.turns, dirty);
        this.durations.update(this.store.series.turns, dirty);
      }
      // The list last: following a live run, it scrolls, which lays the page out with every write
      // above (once in the frame, not once for the scroll and again to paint).
      if (this.listDue) {
        this.listDue = false;
        this.list.render(true);
      }
    });
  }

  private setFilter(f: Filter): void {
    this.store.setFilter(f);
    this.save({ filter: f });
    this.list.reset();
    this.afterVisibleChange();
  }

  private afterVisibleChange(): void {
    this.scheduleFrame(false);
  }

  private toggle(group: number, collapsed: boolean): void {
    this.store.setCollapsed(group, collapsed);
    this.list.reset();
    this.afterVisibleChange();
  }

  private selectedRow = -1;

  private select(rowIndex: number): void {
    this.selectedRow = rowIndex;
    // Details first: the pane takes room from the list, and the selection must stay in view.
    const row = this.store.row(rowIndex) ?? null;
    const event = this.store.events.at(rowIndex);
    this.details.show(row, event, this.store.totals.startedAt);
    if (row && !event) this.post({ type: 'detail', seq: row.seq });
    this.list.setSelected(rowIndex);
  }

  /** Hides the details and gives focus back to the row they showed (it stays selected). */
  private closeDetails(): void {
    this.details.show(null, null);
    this.list.el.focus();
    this.list.reveal(this.selectedRow);
  }

  /** Enter: a turn with events toggles; another row runs its main action. */
  private activate(rowIndex: number): void {
    const row = this.store.row(rowIndex);
    if (!row) return;
    const group = this.store.groups[row.group];
    if (row.head && group && group.count > 1) {
      this.toggle(row.group, !group.collapsed);
      return;
    }
    const action: RowAction = row.actions & ACTION_DIFF ? 'openDiff' : row.actions & ACTION_OUTPUT ? 'openOutput' : 'openRaw';
    this.post({ type: action, seq: row.seq });
  }

  /** Makes a hidden row visible: expand its turn, or drop the filters that hide it. */
  private showRow(rowIndex: number): void {
    const row = this.store.row(rowIndex) as Row;
    if (this.store.filterActive && !this.store.rowPasses(row)) {
      this.toolbar.show(NO_FILTER);
      this.setFilter(NO_FILTER);
    }
    this.store.setCollapsed(row.group, false);
    this.list.reset();
  }

  private revealTurn(turnIndex: number): void {
    const row = this.store.rowOfTurnIndex(turnIndex);
    if (row < 0) return;
    if (this.store.positionOf(row) < 0) this.showRow(row);
    this.select(row);
    this.focusList(false);
  }

  private focusList(selectFirst: boolean): void {
    this.list.el.focus();
    if (selectFirst && this.store.visible.length && this.store.positionOf(this.selectedRow) < 0) this.select(this.store.visible[0] as number);
  }

  private onKey(ev: KeyboardEvent): void {
    const target = ev.target instanceof HTMLElement ? ev.target : null;
    const typing = target !== null && (target.tagName.startsWith('VSCODE-TEXT') || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA');
    if (ev.key === '/' && !typing) {
      ev.preventDefault();
      this.toolbar.search.focus();
      return;
    }
    if (target !== this.list.el) return;
    const visible = this.store.visible;
    const pos = this.store.positionOf(this.selectedRow);
    const move = (to: number) => {
      if (!visible.length) return;
      this.select(visible[Math.max(0, Math.min(visible.length - 1, to))] as number);
    };
    const row = this.store.row(this.selectedRow);
    switch (ev.key) {
      case 'ArrowDown':
        move(pos < 0 ? 0 : pos + 1);
        break;
      case 'ArrowUp':
        move(pos < 0 ? 0 : pos - 1);
        break;
      case 'PageDown':
        move((pos < 0 ? 0 : pos) + this.list.pageRows());
        break;
      case 'PageUp':
        move((pos < 0 ? 0 : pos) - this.list.pageRows());
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(visible.length - 1);
        break;
      case 'Enter':
        if (row) this.activate(row.index);
        break;
      case 'ArrowLeft':
        if (!row) break;
        if (row.head && !this.store.groups[row.group]?.collapsed) this.toggle(row.group, true);
        else if (!row.head) this.select(this.store.groups[row.group]?.head ?? row.index);
        break;
      case 'ArrowRight':
        if (!row) break;
        if (row.head && this.store.groups[row.group]?.collapsed) this.toggle(row.group, false);
        else move(pos + 1);
        break;
      case 'Escape':
        // First the details pane, then the selection.
        if (this.details.open) this.closeDetails();
        else this.select(-1);
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  private post(msg: ViewMessage): void {
    this.api.postMessage(ViewMessageSchema.parse(msg));
  }

  private save(change: Partial<SavedState>): void {
    this.saved = { ...this.saved, ...change };
    this.api.setState(this.saved);
  }
}
