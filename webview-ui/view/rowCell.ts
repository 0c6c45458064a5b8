// One row element of the virtualized list (a "cell"): built once, then refilled with whichever row
// it shows. A refill writes only what differs from the row shown before; the list gives a new row
// a cell that already has its look (`lookOf`), so a refill is mostly text, not a restyle.
import { ACTION_DIFF, ACTION_OUTPUT, type Row } from '../model/rows';
import { showControlChars } from '../../src/harness/protocol/controlChars';
import type { TimelineStore } from '../model/timelineStore';
import { COST_COLUMN, DURATION_COLUMN, TIME_COLUMN, TOKEN_KINDS, TURN_COLUMN, rowLabel, tokenFigure } from '../model/rowColumns';
import { setAttr, setClassName, setText, setTitle } from './domWrites';

export interface Cell {
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
  /** The row shown (-1: none) and the list position it holds (-1: free for another row). */
  rowIndex: number;
  pos: number;
  /** The list's stamp when filled (to skip refilling an unchanged row). */
  stamp: number;
  /** The position its transform puts it at (-1: not displayed). A free cell keeps it while it is
   *  off screen, so a jump leaves spare cells where they are instead of hiding them (display:
   *  none and back re-creates a row's styles and layout objects). */
  at: number;
  /** Free and still displayed at `at` (off screen), hidden from screen readers. */
  spare: boolean;
  /** `lookOf` the row it shows or showed last. */
  look: string;
}

export function makeCell(parent: HTMLElement): Cell {
  const el = document.createElement('div');
  el.className = 'row';
  el.setAttribute('role', 'treeitem');
  el.style.display = 'none';
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
  parent.append(el);
  return { el, label, chevron, time, turn, title, summary, summaryEl, status, ms, tokens, tokenTexts, cost, rowIndex: -1, pos: -1, stamp: -1, at: -1, spare: false, look: 'row' };
}

/** The row element's classes for `row` (what its styles depend on; kind for tests and themes). */
export function rowClass(store: TimelineStore, row: Row, selected: number): string {
  let cls = `row k-${row.kind} l-${row.level}`;
  if (row.head) cls += ' head';
  if (row.index === selected) cls += ' selected';
  if (store.filterActive && row.head && !store.rowPasses(row)) cls += ' context';
  return cls;
}

/** What a cell must change to show `row` beyond its text: its classes and whether it shows token
 *  figures. Two rows of one look share every style; only their text differs. */
export function lookOf(cls: string, row: Row): string {
  return row.tokens ? cls : `${cls} no-tokens`;
}

/** Frees a cell: it no longer claims its row (nor its selection). `keepShown`: it stays where it
 *  is, off screen, out of the accessibility tree; otherwise it is hidden. */
export function retire(cell: Cell, keepShown: boolean): void {
  const el = cell.el;
  if (cell.rowIndex !== -1) {
    cell.rowIndex = -1;
    cell.pos = -1;
    if (el.classList.contains('selected')) {
      el.classList.remove('selected');
      cell.look = cell.look.replace(' selected', '');
    }
    delete el.dataset.row;
    delete el.dataset.seq;
    el.removeAttribute('id');
  }
  if (cell.at === -1) return;
  blank(cell);
  if (!keepShown) {
    el.style.display = 'none';
    cell.at = -1;
  } else if (!cell.spare) {
    el.setAttribute('aria-hidden', 'true');
    cell.spare = true;
  }
}

/** Empties a free cell's text: a spare one stays in the page, and its last row's words must not be
 *  found there (the webview's Find, a test's text match) at a place where that row no longer is. */
function blank(cell: Cell): void {
  for (const node of [cell.label, cell.chevron, cell.time, cell.turn, cell.title, cell.summary, cell.status, cell.ms, cell.cost, ...cell.tokenTexts]) setText(node, '');
}

/** Puts a cell at list position `pos` (before filling it with that position's row). */
export function place(cell: Cell, pos: number, rowHeight: number): void {
  const el = cell.el;
  if (cell.at !== pos) {
    if (cell.at === -1) el.style.display = '';
    el.style.transform = `translateY(${pos * rowHeight}px)`;
    cell.at = pos;
  }
  if (cell.spare) {
    el.removeAttribute('aria-hidden');
    cell.spare = false;
  }
  cell.pos = pos;
}

/** Fills the cell with `row` (classes `cls`). `full`: also the label a screen reader reads and
 *  the tooltips (a jump's frame leaves them to the next). */
export function fill(cell: Cell, store: TimelineStore, row: Row, cls: string, selected: number, full: boolean): void {
  const group = store.groups[row.group];
  const collapsed = row.head && group !== undefined && group.collapsed;
  const canCollapse = row.head && group !== undefined && group.count > 1;
  // Only what differs from the row the cell showed before: an unchanged class or attribute
  // invalidates nothing, and a jump's refill of every row stays within a frame.
  const el = cell.el;
  setClassName(el, cls);
  cell.look = lookOf(cls, row);
  setAttr(el, 'data-row', String(row.index));
  setAttr(el, 'id', `row-${row.index}`);
  setAttr(el, 'data-seq', String(row.seq));
  setAttr(el, 'aria-selected', row.index === selected ? 'true' : 'false');
  setAttr(el, 'aria-level', row.head ? '1' : '2');
  if (canCollapse) setAttr(el, 'aria-expanded', collapsed ? 'false' : 'true');
  else if (el.hasAttribute('aria-expanded')) el.removeAttribute('aria-expanded');
  // Only a window of rows exists: say where each sits in the whole tree.
  const place = store.treePosition(row.index);
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
    const hidden = store.filterActive ? group.matches : group.count - 1;
    summary = `${summary}  (+${hidden} ${store.filterActive ? 'matching ' : ''}event${hidden === 1 ? '' : 's'})`;
  }
  setText(cell.summary, summary);
  setText(cell.status, row.status);
  setText(cell.ms, DURATION_COLUMN.text(row));
  const t = row.tokens;
  const tokensCls = t ? 'c-tokens' : 'c-tokens none';
  setClassName(cell.tokens, tokensCls);
  TOKEN_KINDS.forEach((k, i) => setText(cell.tokenTexts[i] as Text, t ? tokenFigure(t, k.key) : ''));
  setText(cell.cost, COST_COLUMN.text(row));
  if (!full) {
    setText(cell.label, '');
    return;
  }
  setTitle(cell.summaryEl, summary);
  const tokensTitle = t ? TOKEN_KINDS.map((k) => `${k.name} ${tokenFigure(t, k.key, String)}`).join(' · ') + (t.estimated ? ' (estimated by Kite: the provider reports no usage)' : '') : '';
  setTitle(cell.tokens, tokensTitle);
  // Read as labelled content ("time 0:02.3, turn 1, …"), not a run of bare cells. Content, not an
  // aria-label: the row's name then comes from its content, as a treeitem's should.
  setText(cell.label, rowLabel(row, title, summary));
  const tip = row.actions & (ACTION_DIFF | ACTION_OUTPUT) ? 'Enter or double-click to open' : '';
  setTitle(el, tip);
}
