// The virtualized event list: a spacer as tall as all visible rows, and a small pool of row
// elements positioned over the visible window. Scrolling or appending touches only the pool.
import { ACTION_DIFF, ACTION_OUTPUT, type Row } from '../model/rows';
import { showControlChars } from '../../src/harness/protocol/controlChars';
import type { TimelineStore } from '../model/timelineStore';
import { COST_COLUMN, DURATION_COLUMN, TIME_COLUMN, TOKEN_KINDS, TURN_COLUMN, rowLabel, tokenFigure } from '../model/rowColumns';
import { isAtEnd, scrollToReveal, visibleRange } from '../model/virtualWindow';

export const ROW_HEIGHT = 22;
/** A cell's stamp while it waits for its label and tooltips (never a real stamp, which is >= 0). */
const STAMP_PARTIAL = -2;

export interface ListHandlers {
  select(rowIndex: number): void;
  /** Enter on a row: toggle a turn, or run the row's main action. */
  activate(rowIndex: number): void;
  toggle(group: number, collapsed: boolean): void;
}

interface Cell {
  el: HTMLDivElement;
  /** The cells' text nodes, kept for the cell's life: a refill changes their data only (no new
   *  nodes, so no style recalc for them and no new layout objects), and only where it differs. */
  label: Text;
  chevron: Text;
  time: Text;
  turn: Text;
  title: Text;
  summary: Text;
  status: Text;
  ms: Text;
  tokens: HTMLSpanElement;
  /** The four token figures (input, cache read, cache write, output), in TOKEN_KINDS order. */
  tokenTexts: Text[];
  cost: Text;
  summaryEl: HTMLSpanElement;
  /** What the cell shows now, to skip refilling an unchanged row, and where (-1: hidden). */
  rowIndex: number;
  stamp: number;
  pos: number;
}

/** Sets a text node's data only when it changes (a same-value write still dirties layout). */
function setText(node: Text, text: string): void {
  if (node.data !== text) node.data = text;
}

function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export class ListView {
  readonly el: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly pool: Cell[] = [];
  selected = -1;
  /** Bumped when something other than the row itself changes how rows look (selection, collapse). */
  private stamp = 0;
  private frame = 0;
  private pinned = true;
  private viewportHeight = 0;

  constructor(
    parent: HTMLElement,
    private readonly store: TimelineStore,
    private readonly on: ListHandlers,
  ) {
    this.el = document.createElement('div');
    this.el.className = 'list';
    this.el.id = 'list';
    this.el.tabIndex = 0;
    this.el.setAttribute('role', 'tree');
    this.el.setAttribute('aria-label', 'Events');
    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    this.el.append(this.spacer);
    parent.append(this.el);
    this.el.addEventListener('scroll', () => {
      this.pinned = isAtEnd(this.el.scrollTop, this.el.clientHeight, this.spacer.offsetHeight, ROW_HEIGHT);
      this.schedule();
    });
    this.el.addEventListener('click', (ev) => this.onClick(ev));
    this.el.addEventListener('dblclick', (ev) => {
      const cell = this.cellOf(ev.target);
      if (cell) this.on.activate(cell.rowIndex);
    });
    new ResizeObserver(() => {
      this.viewportHeight = this.el.clientHeight;
      // At the end, stay there when the view shrinks (e.g. the header gains "Add to Evals" as the run ends).
      if (this.pinned && this.store.source.live) this.el.scrollTop = this.spacer.offsetHeight;
      this.schedule();
    }).observe(this.el);
  }

  private timeChars = 0;
  private turnChars = 0;

  /** Widens the time and turn columns as a long run's clock and turn numbers grow (O(1)). */
  private fitColumns(): void {
    const last = this.store.row(this.store.rowCount - 1);
    if (!last) return;
    const timeChars = last.t >= 3600 ? 8 : last.t >= 600 ? 7 : 6;
    const turnChars = String(this.store.totals.turns).length;
    if (timeChars !== this.timeChars) {
      this.timeChars = timeChars;
      this.el.style.setProperty('--time-w', `${timeChars * 7.5 + 6}px`);
    }
    if (turnChars !== this.turnChars) {
      this.turnChars = turnChars;
      this.el.style.setProperty('--turn-w', `${Math.max(24, turnChars * 7.5 + 8)}px`);
    }
  }

  /** Rows were appended: grow the spacer, follow the end when the user is at the end. */
  appended(): void {
    this.fitColumns();
    this.spacer.style.height = `${this.store.visible.length * ROW_HEIGHT}px`;
    if (this.pinned && this.store.source.live) this.el.scrollTop = this.spacer.offsetHeight;
    this.schedule();
  }

  /** The visible set changed (filter, collapse): keep the selection in view if it still is. */
  reset(): void {
    this.fitColumns();
    this.stamp++;
    this.spacer.style.height = `${this.store.visible.length * ROW_HEIGHT}px`;
    if (this.selected >= 0) this.reveal(this.selected);
    this.schedule();
  }

  restyle(): void {
    this.stamp++;
    this.schedule();
  }

  setSelected(rowIndex: number, reveal = true): void {
    this.selected = rowIndex;
    this.stamp++;
    if (reveal) this.reveal(rowIndex);
    // At once, not at the next frame: keyboard navigation must not lag behind the keys.
    this.render();
  }

  reveal(rowIndex: number): void {
    const pos = this.store.positionOf(rowIndex);
    if (pos < 0) return;
    const top = scrollToReveal(pos, this.el.scrollTop, this.el.clientHeight || this.viewportHeight, ROW_HEIGHT);
    if (top !== null) this.el.scrollTop = top;
  }

  /** Rows per page, for PageUp/PageDown. */
  pageRows(): number {
    return Math.max(1, Math.floor(this.el.clientHeight / ROW_HEIGHT) - 1);
  }

  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(true);
    });
  }

  /**
   * Renders the visible window now (also called by the frame callback). A position keeps its cell
   * (cell = position mod pool size) while it stays in the window, so scrolling refills only the
   * cells of rows that came into view, not every visible row.
   *
   * `inFrame`: a jump (most of the window new, as when the scrollbar is dragged across a large
   * log) then fills only the rows on screen, without their screen-reader labels and tooltips, and
   * leaves the overscan rows and the rest to the next frame: a full refill of the window took two
   * to four frames at 1M events. A direct call (selection, keys, a new snapshot) renders it all.
   */
  render(inFrame = false): void {
    const visible = this.store.visible;
    const height = this.el.clientHeight || this.viewportHeight;
    const scrollTop = this.el.scrollTop;
    const { start, end } = visibleRange(scrollTop, height, ROW_HEIGHT, visible.length);
    while (this.pool.length < end - start) this.pool.push(this.makeCell());
    const n = this.pool.length;
    // The positions actually on screen (the window less its overscan).
    const first = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
    const last = first + Math.ceil(height / ROW_HEIGHT) + 1;
    // A jump: most rows on screen are new ones (a cell still waiting for its label is not new).
    let fresh = 0;
    if (inFrame) for (let pos = Math.max(first, start); pos < Math.min(last, end); pos++) if (this.showsOther(this.pool[pos % n] as Cell, pos)) fresh++;
    const jump = fresh > (last - first) / 2;
    let deferred = false;
    for (let slot = 0; slot < n; slot++) {
      const cell = this.pool[slot] as Cell;
      // The one position in [start, start + n) that this slot holds.
      const pos = start + ((slot - (start % n) + n) % n);
      const later = jump && (pos < first || pos >= last) && this.showsOther(cell, pos);
      if (later) deferred = true;
      if (pos >= end || later) {
        if (cell.rowIndex !== -1) {
          cell.el.style.display = 'none';
          cell.rowIndex = -1;
          cell.pos = -1;
          // A spare cell must not still claim the row it last showed (nor its selection).
          cell.el.className = 'row';
          delete cell.el.dataset.row;
          delete cell.el.dataset.seq;
          cell.el.removeAttribute('id');
        }
        continue;
      }
      const rowIndex = visible[pos] as number;
      if (cell.pos !== pos) {
        cell.el.style.transform = `translateY(${pos * ROW_HEIGHT}px)`;
        cell.pos = pos;
      }
      if (cell.rowIndex !== rowIndex || cell.stamp !== this.stamp) {
        if (cell.rowIndex === -1) cell.el.style.display = '';
        this.fill(cell, this.store.row(rowIndex) as Row, !jump);
        cell.rowIndex = rowIndex;
        // Filled without its label: STAMP_PARTIAL never equals the stamp, so the next render completes it.
        cell.stamp = jump ? STAMP_PARTIAL : this.stamp;
        if (jump) deferred = true;
      }
    }
    // A jump's overscan rows wait for the next frame: only the rows on screen exist until then.
    this.pointAtSelection(jump ? Math.max(start, first) : start, jump ? Math.min(end, last) : end);
    if (deferred) this.schedule();
  }

  /** Whether the cell for `pos` shows another row (or none) there. */
  private showsOther(cell: Cell, pos: number): boolean {
    return cell.pos !== pos || cell.rowIndex !== this.store.visible[pos];
  }

  /** Screen readers follow the selection while focus stays on the list — but only to a row that
   *  exists: scrolled out of the rendered window, the selected row has no element to point at. */
  private pointAtSelection(start: number, end: number): void {
    const pos = this.selected >= 0 ? this.store.positionOf(this.selected) : -1;
    const id = pos >= start && pos < end ? `row-${this.selected}` : null;
    if (id === null) this.el.removeAttribute('aria-activedescendant');
    else if (this.el.getAttribute('aria-activedescendant') !== id) this.el.setAttribute('aria-activedescendant', id);
  }

  private makeCell(): Cell {
    const el = document.createElement('div');
    el.className = 'row';
    el.setAttribute('role', 'treeitem');
    const span = (cls: string, parent: HTMLElement = el): HTMLSpanElement => {
      const s = document.createElement('span');
      s.className = cls;
      // The cells are a picture of the row; its words are in the label.
      if (cls !== 'sr-only' && parent === el) s.setAttribute('aria-hidden', 'true');
      parent.append(s);
      return s;
    };
    const text = (s: HTMLSpanElement): Text => s.appendChild(document.createTextNode(''));
    const label = text(span('sr-only'));
    const chevron = text(span('c-chev'));
    const time = text(span('c-time'));
    const turn = text(span('c-turn'));
    const title = text(span('c-title'));
    const summaryEl = span('c-summary');
    const summary = text(summaryEl);
    const status = text(span('c-status'));
    const ms = text(span('c-ms'));
    // `none`: a row without tokens shows no figures (nor their colour dots).
    const tokens = span('c-tokens none');
    const tokenTexts = TOKEN_KINDS.map((k) => text(span(k.cls, tokens)));
    const cost = text(span('c-cost'));
    const cell: Cell = { el, label, chevron, time, turn, title, summary, summaryEl, status, ms, tokens, tokenTexts, cost, rowIndex: -1, stamp: -1, pos: -1 };
    this.spacer.append(el);
    return cell;
  }

  /** `full`: also the label a screen reader reads and the tooltips (a jump's frame leaves them to the next). */
  private fill(cell: Cell, row: Row, full = true): void {
    const group = this.store.groups[row.group];
    const collapsed = row.head && group !== undefined && group.collapsed;
    const canCollapse = row.head && group !== undefined && group.count > 1;
    let cls = `row k-${row.kind} l-${row.level}`;
    if (row.head) cls += ' head';
    if (row.index === this.selected) cls += ' selected';
    if (this.store.filterActive && row.head && !this.store.rowPasses(row)) cls += ' context';
    // Only what differs from the row the cell showed before: an unchanged class or attribute
    // invalidates nothing, and a jump's refill of every row stays within a frame.
    const el = cell.el;
    if (el.className !== cls) el.className = cls;
    setAttr(el, 'data-row', String(row.index));
    setAttr(el, 'id', `row-${row.index}`);
    setAttr(el, 'data-seq', String(row.seq));
    setAttr(el, 'aria-selected', row.index === this.selected ? 'true' : 'false');
    setAttr(el, 'aria-level', row.head ? '1' : '2');
    if (canCollapse) setAttr(el, 'aria-expanded', collapsed ? 'false' : 'true');
    else if (el.hasAttribute('aria-expanded')) el.removeAttribute('aria-expanded');
    // Only a window of rows exists: say where each sits in the whole tree.
    const place = this.store.treePosition(row.index);
    setAttr(el, 'aria-posinset', String(place?.posinset ?? 1));
    setAttr(el, 'aria-setsize', String(place?.setsize ?? 1));
    setText(cell.chevron, canCollapse ? (collapsed ? '▸' : '▾') : '');
    setText(cell.time, TIME_COLUMN.text(row));
    setText(cell.turn, TURN_COLUMN.text(row));
    // Model text and paths with control or bidi characters are shown escaped, never interpreted.
    const title = showControlChars(row.title, { oneLine: true });
    setText(cell.title, title);
    let summary = showControlChars(row.summary, { oneLine: true });
    if (collapsed && group) {
      const hidden = this.store.filterActive ? group.matches : group.count - 1;
      summary = `${summary}  (+${hidden} ${this.store.filterActive ? 'matching ' : ''}event${hidden === 1 ? '' : 's'})`;
    }
    setText(cell.summary, summary);
    setText(cell.status, row.status);
    setText(cell.ms, DURATION_COLUMN.text(row));
    const t = row.tokens;
    const tokensCls = t ? 'c-tokens' : 'c-tokens none';
    if (cell.tokens.className !== tokensCls) cell.tokens.className = tokensCls;
    TOKEN_KINDS.forEach((k, i) => setText(cell.tokenTexts[i] as Text, t ? tokenFigure(t, k.key) : ''));
    setText(cell.cost, COST_COLUMN.text(row));
    if (!full) {
      setText(cell.label, '');
      return;
    }
    if (cell.summaryEl.title !== summary) cell.summaryEl.title = summary;
    const tokensTitle = t ? TOKEN_KINDS.map((k) => `${k.name} ${tokenFigure(t, k.key, String)}`).join(' · ') + (t.estimated ? ' (estimated by Kite: the provider reports no usage)' : '') : '';
    if (cell.tokens.title !== tokensTitle) cell.tokens.title = tokensTitle;
    // Read as labelled content ("time 0:02.3, turn 1, …"), not a run of bare cells. Content, not an
    // aria-label: the row's name then comes from its content, as a treeitem's should.
    setText(cell.label, rowLabel(row, title, summary));
    const tip = row.actions & (ACTION_DIFF | ACTION_OUTPUT) ? 'Enter or double-click to open' : '';
    if (el.title !== tip) el.title = tip;
  }

  private cellOf(target: EventTarget | null): Cell | null {
    const el = target instanceof Element ? target.closest('.row') : null;
    return this.pool.find((c) => c.el === el && c.rowIndex >= 0) ?? null;
  }

  private onClick(ev: MouseEvent): void {
    const cell = this.cellOf(ev.target);
    if (!cell) return;
    const row = this.store.row(cell.rowIndex) as Row;
    if (row.head && ev.target instanceof Element && ev.target.classList.contains('c-chev')) {
      const g = this.store.groups[row.group];
      if (g) this.on.toggle(row.group, !g.collapsed);
    }
    this.on.select(cell.rowIndex);
    this.el.focus({ preventScroll: true });
  }
}
