// The row's figure columns, each with the name a screen reader says before its value: the list
// shows the values, the row's accessible name says "time 0:02.3, turn 1, …" (one source for both).
import { compactNumber, formatClock, formatMs, formatUsd } from './format';
import type { Row, RowLevel, TokenKind, Tokens } from './rows';

export interface FigureColumn {
  /** Cell class in the list (c-time, …). */
  cls: 'c-time' | 'c-turn' | 'c-ms' | 'c-cost';
  name: string;
  /** The text shown; '' when the row has no such figure. */
  text(row: Row): string;
}

export const TIME_COLUMN: FigureColumn = { cls: 'c-time', name: 'time', text: (r) => formatClock(r.t) };
export const TURN_COLUMN: FigureColumn = { cls: 'c-turn', name: 'turn', text: (r) => (r.turn > 0 ? String(r.turn) : '') };
export const DURATION_COLUMN: FigureColumn = { cls: 'c-ms', name: 'duration', text: (r) => (r.ms === null ? '' : formatMs(r.ms)) };
export const COST_COLUMN: FigureColumn = { cls: 'c-cost', name: 'cost', text: (r) => (r.cost === null ? '' : formatUsd(r.cost)) };

/** The token kinds in the order the tokens column (and the tokens chart) shows them. */
export const TOKEN_KINDS: { key: TokenKind; cls: string; name: string }[] = [
  { key: 'input', cls: 'tk-in', name: 'input' },
  { key: 'cacheRead', cls: 'tk-cr', name: 'cache read' },
  { key: 'cacheWrite', cls: 'tk-cw', name: 'cache write' },
  { key: 'output', cls: 'tk-out', name: 'output' },
];

const LEVEL_WORD: Record<RowLevel, string> = { info: '', ok: '', warn: 'warning', error: 'error' };

/** A token figure as shown: "~2.1k" when Kite estimated it (the provider reported no usage). */
export function tokenFigure(t: Tokens, kind: TokenKind, format: (n: number) => string = compactNumber): string {
  return `${t.estimated ? '~' : ''}${format(t[kind])}`;
}

/** "input 2.1k, cache read 0, cache write 1.8k, output 80" — kinds named, not told by colour; estimated counts say so. */
export function describeTokens(t: Tokens, format: (n: number) => string = compactNumber): string {
  return TOKEN_KINDS.map((k) => `${k.name} ${tokenFigure(t, k.key, format)}`).join(', ') + (t.estimated ? ' (estimated)' : '');
}

/**
 * The accessible name of a row: what it is (title, status, level when it is a problem), what it
 * says (the summary as shown), then each figure named. `title` and `summary` are the texts the
 * cells show (escaped, with the collapsed-turn note), so sight and speech agree.
 */
export function rowLabel(row: Row, title: string, summary: string): string {
  // Each word once: "Gate failed, error", not "Gate failed, failed, error".
  const said = title.toLowerCase();
  const extra = [row.status, LEVEL_WORD[row.level]].filter((w, i, all) => w !== '' && !said.includes(w.toLowerCase()) && all.indexOf(w) === i);
  const head = [title, ...extra].join(', ');
  const figures = [TIME_COLUMN, TURN_COLUMN, DURATION_COLUMN]
    .map((c) => ({ name: c.name, text: c.text(row) }))
    .filter((f) => f.text !== '')
    .map((f) => `${f.name} ${f.text}`);
  if (row.tokens) figures.push(`tokens: ${describeTokens(row.tokens)}`);
  const cost = COST_COLUMN.text(row);
  if (cost) figures.push(`${COST_COLUMN.name} ${cost}`);
  return sentences([head, summary, figures.join(', ')]);
}

/** Joins the non-empty parts as sentences, without doubling a full stop a part already has. */
function sentences(parts: string[]): string {
  return parts
    .filter(Boolean)
    .map((p, i, all) => (i < all.length - 1 && !/[.!?…]$/.test(p) ? `${p}.` : p))
    .join(' ');
}
