// The virtualized event list: a spacer as tall as all visible rows, and a small pool of row
// elements positioned over the visible window. Scrolling or appending touches only the pool.
import type { Row } from '../model/rows';
import type { TimelineStore } from '../model/timelineStore';
import { type Cell, fill, lookOf, makeCell, place, retire, rowClass } from './rowCell';
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

export class ListView {
  readonly el: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly pool: Cell[] = [];
  selected = -1;
  /** Bumped when something other than the row itself changes how rows look (selection, collapse). */
  private stamp = 0;
  private frame = 0;
  private pinned = true;
  /** Rows appended and not drawn yet (grew). */
  private behind = false;
  /** Where the list last scrolled itself to follow appended rows (-1: the person scrolled since). */
  private followedTo = -1;
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
      // The list's own move to the end as rows were appended: already rendered there (and a
      // render now would draw rows appended since, ahead of the app's data frame).
      if (this.el.scrollTop === this.followedTo) return;
      this.followedTo = -1;
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

  /** Rows were appended: the spacer grows (and the list follows the end when the user is there)
   *  at the next render — the app schedules it (appended rows are drawn a few times a second). */
  grew(): void {
    this.behind = true;
  }

  /** Brings the spacer up to the rows appended since the last render. Following the end, returns
   *  the scrollTop that shows it, for the caller to set after its other writes: setting it lays the
   *  page out, and set last, that is the frame's only layout (null: the list does not follow). */
  private catchUp(): number | null {
    if (!this.behind) return null;
    this.behind = false;
    this.fitColumns();
    const content = this.store.visible.length * ROW_HEIGHT;
    this.spacer.style.height = `${content}px`;
    if (!this.pinned || !this.store.source.live) return null;
    return Math.max(0, content - (this.viewportHeight || this.el.clientHeight));
  }

  private follow(top: number): void {
    this.el.scrollTop = top;
    this.followedTo = this.el.scrollTop;
  }

  /** The visible set changed (filter, collapse): keep the selection in view if it still is. */
  reset(): void {
    this.behind = false;
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
    const followTop = this.catchUp();
    if (followTop !== null) this.follow(followTop);
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
   * while it stays in the window, so scrolling refills only the rows that came into view; a row
   * new to the window takes a free cell that showed a row of the same look (classes, token
   * figures), so the refill changes text and position, not styles: after a jump most cells then
   * keep their classes, and the page restyles a few elements instead of every row's subtree.
   *
   * `inFrame`: a jump (most of the window new, as when the scrollbar is dragged across a large
   * log) then fills only the rows on screen, without their screen-reader labels and tooltips, and
   * leaves the overscan rows and the rest to the next frame: a full refill of the window took two
   * to four frames at 1M events. A direct call (selection, keys, a new snapshot) renders it all.
   */
  render(inFrame = false): void {
    const followTop = this.catchUp();
    const followed = followTop !== null;
    const visible = this.store.visible;
    // The size the resize observer keeps, not a read of the layout the writes above made stale.
    const height = this.viewportHeight || this.el.clientHeight;
    const scrollTop = followed ? followTop : this.el.scrollTop;
    const { start, end } = visibleRange(scrollTop, height, ROW_HEIGHT, visible.length);
    while (this.pool.length < end - start) this.pool.push(makeCell(this.spacer));
    // The positions actually on screen (the window less its overscan).
    const first = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
    const last = first + Math.ceil(height / ROW_HEIGHT) + 1;
    // Cells that still show their row at their position keep it; the others are free.
    const kept: (Cell | undefined)[] = new Array(end - start);
    const free: Cell[] = [];
    for (const cell of this.pool) {
      const pos = cell.pos;
      if (pos >= start && pos < end && cell.rowIndex === visible[pos] && kept[pos - start] === undefined) kept[pos - start] = cell;
      else free.push(cell);
    }
    // A jump: most rows on screen are new ones (a cell still waiting for its label is not new).
    let fresh = 0;
    if (inFrame) for (let pos = Math.max(first, start); pos < Math.min(last, end); pos++) if (!kept[pos - start]) fresh++;
    // (Not the list following a live run: a few rows each time, filled at once, in one frame.)
    const jump = !followed && fresh > (last - first) / 2;
    // The positions filled now: a jump's overscan rows wait for the next frame.
    const from = jump ? Math.max(start, first) : start;
    const to = jump ? Math.min(end, last) : end;
    const byLook = new Map<string, Cell[]>();
    for (const cell of free) {
      const same = byLook.get(cell.look);
      if (same) same.push(cell);
      else byLook.set(cell.look, [cell]);
    }
    const unmatched: number[] = [];
    const classes: string[] = [];
    for (let pos = from; pos < to; pos++) {
      if (kept[pos - start]) continue;
      const row = this.store.row(visible[pos] as number) as Row;
      const cls = rowClass(this.store, row, this.selected);
      classes[pos - from] = cls;
      const cell = byLook.get(lookOf(cls, row))?.pop();
      if (cell) this.show(cell, pos, row, cls, jump);
      else unmatched.push(pos);
    }
    // Rows without a cell of their look take any free cell left (their refill restyles it).
    const rest = [...byLook.values()].flat();
    for (const pos of unmatched) this.show(rest.pop() as Cell, pos, this.store.row(visible[pos] as number) as Row, classes[pos - from] as string, jump);
    // Unused cells off screen stay where they are, blank (for the next rows: hiding a cell and
    // showing it again re-creates its layout objects, as when the followed end moves a row on),
    // unless they sit past the list's end, where they would lengthen its scrolling.
    for (const cell of rest) retire(cell, (cell.at < first || cell.at >= last) && cell.at < visible.length);
    // Kept cells whose row looks different now (selection, collapse, a filter), or that still wait for their label.
    for (let pos = start; pos < end; pos++) {
      const cell = kept[pos - start];
      if (!cell || cell.stamp === this.stamp) continue;
      const row = this.store.row(cell.rowIndex) as Row;
      this.show(cell, pos, row, rowClass(this.store, row, this.selected), jump);
    }
    this.pointAtSelection(from, to);
    if (followed) this.follow(followTop);
    // A jump's labels, tooltips and overscan rows come in the next frame.
    if (jump) this.schedule();
  }

  private show(cell: Cell, pos: number, row: Row, cls: string, jump: boolean): void {
    place(cell, pos, ROW_HEIGHT);
    fill(cell, this.store, row, cls, this.selected, !jump);
    cell.rowIndex = row.index;
    // Filled without its label: STAMP_PARTIAL never equals the stamp, so the next render completes it.
    cell.stamp = jump ? STAMP_PARTIAL : this.stamp;
  }

  /** Screen readers follow the selection while focus stays on the list — but only to a row that
   *  exists: scrolled out of the rendered window, the selected row has no element to point at. */
  private pointAtSelection(start: number, end: number): void {
    const pos = this.selected >= 0 ? this.store.positionOf(this.selected) : -1;
    const id = pos >= start && pos < end ? `row-${this.selected}` : null;
    if (id === null) this.el.removeAttribute('aria-activedescendant');
    else if (this.el.getAttribute('aria-activedescendant') !== id) this.el.setAttribute('aria-activedescendant', id);
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
