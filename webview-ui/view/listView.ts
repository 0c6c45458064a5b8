// The virtualized event list: a spacer as tall as all visible rows, and a small pool of row
// elements positioned over the visible window. Scrolling or appending touches only the pool.
import { ACTION_DIFF, ACTION_OUTPUT, type Row } from '../model/rows';
import { showControlChars } from '../../src/harness/protocol/controlChars';
import type { TimelineStore } from '../model/timelineStore';
import { COST_COLUMN, DURATION_COLUMN, TIME_COLUMN, TOKEN_KINDS, TURN_COLUMN, rowLabel, tokenFigure } from '../model/rowColumns';
import { isAtEnd, scrollToReveal, visibleRange } from '../model/virtualWindow';

export const ROW_HEIGHT = 22;

export interface ListHandlers {
  select(rowIndex: number): void;
  /** Enter on a row: toggle a turn, or run the row's main action. */
  activate(rowIndex: number): void;
  toggle(group: number, collapsed: boolean): void;
}

interface Cell {
  el: HTMLDivElement;
  /** What a screen reader reads for the row (the cells are hidden from it). */
  label: HTMLSpanElement;
  chevron: HTMLSpanElement;
  time: HTMLSpanElement;
  turn: HTMLSpanElement;
  title: HTMLSpanElement;
  summary: HTMLSpanElement;
  status: HTMLSpanElement;
  ms: HTMLSpanElement;
  tokens: HTMLSpanElement;
  cost: HTMLSpanElement;
  /** What the cell shows now, to skip refilling an unchanged row, and where (-1: hidden). */
  rowIndex: number;
  stamp: number;
  pos: number;
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
      this.render();
    });
  }

  /**
   * Renders the visible window now (also called by the frame callback). A position keeps its cell
   * (cell = position mod pool size) while it stays in the window, so scrolling refills only the
   * cells of rows that came into view, not every visible row.
   */
  render(): void {
    const visible = this.store.visible;
    const height = this.el.clientHeight || this.viewportHeight;
    const { start, end } = visibleRange(this.el.scrollTop, height, ROW_HEIGHT, visible.length);
    while (this.pool.length < end - start) this.pool.push(this.makeCell());
    const n = this.pool.length;
    for (let slot = 0; slot < n; slot++) {
      const cell = this.pool[slot] as Cell;
      // The one position in [start, start + n) that this slot holds.
      const pos = start + ((slot - (start % n) + n) % n);
      if (pos >= end) {
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
        this.fill(cell, this.store.row(rowIndex) as Row);
        cell.rowIndex = rowIndex;
        cell.stamp = this.stamp;
      }
    }
    this.pointAtSelection(start, end);
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
    const span = (cls: string): HTMLSpanElement => {
      const s = document.createElement('span');
      s.className = cls;
      // The cells are a picture of the row; its words are in the label.
      if (cls !== 'sr-only') s.setAttribute('aria-hidden', 'true');
      el.append(s);
      return s;
    };
    const cell: Cell = {
      el,
      label: span('sr-only'),
      chevron: span('c-chev'),
      time: span('c-time'),
      turn: span('c-turn'),
      title: span('c-title'),
      summary: span('c-summary'),
      status: span('c-status'),
      ms: span('c-ms'),
      tokens: span('c-tokens'),
      cost: span('c-cost'),
      rowIndex: -1,
      stamp: -1,
      pos: -1,
    };
    this.spacer.append(el);
    return cell;
  }

  private fill(cell: Cell, row: Row): void {
    const group = this.store.groups[row.group];
    const collapsed = row.head && group !== undefined && group.collapsed;
    const canCollapse = row.head && group !== undefined && group.count > 1;
    let cls = `row k-${row.kind} l-${row.level}`;
    if (row.head) cls += ' head';
    if (row.index === this.selected) cls += ' selected';
    if (this.store.filterActive && row.head && !this.store.rowPasses(row)) cls += ' context';
    cell.el.className = cls;
    cell.el.dataset.row = String(row.index);
    cell.el.id = `row-${row.index}`;
    cell.el.dataset.seq = String(row.seq);
    cell.el.setAttribute('aria-selected', row.index === this.selected ? 'true' : 'false');
    cell.el.setAttribute('aria-level', row.head ? '1' : '2');
    if (canCollapse) cell.el.setAttribute('aria-expanded', collapsed ? 'false' : 'true');
    else cell.el.removeAttribute('aria-expanded');
    // Only a window of rows exists: say where each sits in the whole tree.
    const place = this.store.treePosition(row.index);
    cell.el.setAttribute('aria-posinset', String(place?.posinset ?? 1));
    cell.el.setAttribute('aria-setsize', String(place?.setsize ?? 1));
    cell.chevron.textContent = canCollapse ? (collapsed ? '▸' : '▾') : '';
    cell.time.textContent = TIME_COLUMN.text(row);
    cell.turn.textContent = TURN_COLUMN.text(row);
    // Model text and paths with control or bidi characters are shown escaped, never interpreted.
    const title = showControlChars(row.title, { oneLine: true });
    cell.title.textContent = title;
    let summary = showControlChars(row.summary, { oneLine: true });
    if (collapsed && group) {
      const hidden = this.store.filterActive ? group.matches : group.count - 1;
      summary = `${summary}  (+${hidden} ${this.store.filterActive ? 'matching ' : ''}event${hidden === 1 ? '' : 's'})`;
    }
    cell.summary.textContent = summary;
    cell.summary.title = summary;
    cell.status.textContent = row.status;
    cell.ms.textContent = DURATION_COLUMN.text(row);
    if (row.tokens) {
      const t = row.tokens;
      cell.tokens.replaceChildren(...TOKEN_KINDS.map((k) => tok(k.cls, tokenFigure(t, k.key))));
      cell.tokens.title = TOKEN_KINDS.map((k) => `${k.name} ${tokenFigure(t, k.key, String)}`).join(' · ') + (t.estimated ? ' (estimated by Kite: the provider reports no usage)' : '');
    } else if (cell.tokens.firstChild) {
      cell.tokens.replaceChildren();
      cell.tokens.title = '';
    }
    cell.cost.textContent = COST_COLUMN.text(row);
    // Read as labelled content ("time 0:02.3, turn 1, …"), not a run of bare cells. Content, not an
    // aria-label: the row's name then comes from its content, as a treeitem's should.
    cell.label.textContent = rowLabel(row, title, summary);
    cell.el.title = row.actions & (ACTION_DIFF | ACTION_OUTPUT) ? 'Enter or double-click to open' : '';
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

function tok(cls: string, figure: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = figure;
  return s;
}
