import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { KIND_FILTERS, NO_FILTER, matchRows, rowMatcher, type Filter } from '../../../webview-ui/model/filters';
import { rowFromEvent, type Row } from '../../../webview-ui/model/rows';
import { RowTable } from '../../../webview-ui/model/rowTable';
import { SummaryText } from '../../../webview-ui/model/summaryText';
import { ev } from '../../helpers/events';

const demo = readFileSync(join(__dirname, '../../fixtures/logs/demo-run.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);

/** Rows as the store builds them: demo events repeated (so chunks of summaries fill up), turns numbered on. */
function rowsOf(events: KiteEvent[]): Row[] {
  const names = new Map<string, string>();
  let group = -1;
  let turn = 0;
  return events.map((e, i) => {
    if (i === 0 || e.kind === 'model') {
      group++;
      if (e.kind === 'model') turn = e.turn;
    }
    if ('id' in e && 'name' in e && typeof e.id === 'string' && typeof e.name === 'string') names.set(e.id, e.name);
    return rowFromEvent(e, i, { group, turn, head: i === 0 || e.kind === 'model', toolNameOf: (id) => names.get(id) ?? null });
  });
}

const many: KiteEvent[] = [];
for (let r = 0; r < 60; r++) for (const e of demo) many.push(e.kind === 'model' ? { ...e, turn: e.turn + r * 8 } : e);
const rows = rowsOf(many);

describe('row table (the rows by column)', () => {
  it('gives back every row as it was stored, across summary chunks', () => {
    const table = new RowTable();
    for (const r of rows) table.push(r);
    assert.equal(table.length, rows.length);
    assert.ok(rows.length > 2048, 'more rows than two summary chunks');
    for (let i = 0; i < rows.length; i++) assert.deepEqual(table.get(i), rows[i], `row ${i}`);
    assert.equal(table.get(rows.length), undefined);
    assert.equal(table.get(-1), undefined);
  });

  it('keeps words too long for the word table row by row', () => {
    const table = new RowTable();
    const long = `tool_${'x'.repeat(100)}`;
    const row = rowFromEvent({ ...ev.tool({ name: long }), seq: 0 }, 0, { group: 0, turn: 0, head: true, toolNameOf: () => null });
    table.push(row);
    assert.equal(table.get(0)?.tool, long);
    assert.equal(table.get(0)?.title, long);
    assert.deepEqual([...matchRows(table, { ...NO_FILTER, tool: long })], [1]);
  });

  it('filters from the columns exactly as the row-by-row matcher does', () => {
    const table = new RowTable();
    for (const r of rows) table.push(r);
    const filters: Filter[] = [
      ...KIND_FILTERS.map((kind) => ({ ...NO_FILTER, kind })),
      { ...NO_FILTER, errorsOnly: true },
      { ...NO_FILTER, tool: 'edit_file' },
      { ...NO_FILTER, tool: 'no_such_tool' },
      { ...NO_FILTER, text: 'PIPE-TO-SHELL' },
      { ...NO_FILTER, text: 'turn 41' }, // a model reply's title, made from its turn
      { ...NO_FILTER, text: 'approved' }, // a status word
      { ...NO_FILTER, text: 'read_file' }, // a tool name
      { ...NO_FILTER, text: 'gate' }, // a kind
      { ...NO_FILTER, text: 'src/' },
      { ...NO_FILTER, text: 'no such text anywhere' },
      { ...NO_FILTER, kind: 'tools', tool: 'write_file', text: 'src' },
    ];
    for (const f of filters) {
      const one = rowMatcher(f);
      const expected = rows.map((r) => (one(r) ? 1 : 0));
      assert.deepEqual([...matchRows(table, f)], expected, JSON.stringify(f));
    }
    assert.ok(matchRows(table, { ...NO_FILTER, text: 'turn 41' }).some((x) => x === 1));
  });
});

describe('summary text (summaries in shared chunks)', () => {
  it('finds the rows whose summary holds the text, case-insensitively, never across two rows', () => {
    const s = new SummaryText();
    const texts = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? `Needle in row ${i}` : `row ${i} ends with nee`));
    texts[2047] = 'dle'; // "nee" + separator + "dle" must not match "needle"
    for (const t of texts) s.push(t);
    for (const i of [0, 1023, 1024, 2999]) assert.equal(s.at(i), texts[i]);
    const hits = new Uint8Array(texts.length);
    s.markContaining('needle', hits);
    assert.deepEqual([...hits].flatMap((h, i) => (h ? [i] : [])), texts.flatMap((t, i) => (t.toLowerCase().includes('needle') ? [i] : [])));
  });

  it('still finds text in a chunk whose lower case changes length (İ)', () => {
    const s = new SummaryText();
    s.push('İstanbul office');
    s.push('the office in Ankara');
    const hits = new Uint8Array(2);
    s.markContaining('ankara', hits);
    assert.deepEqual([...hits], [0, 1]);
  });
});

describe('summary text: shared and narrowed texts', () => {
  it('stores a repeated summary once and keeps → — … (and rows with their own control characters) exact', () => {
    const s = new SummaryText();
    const texts = ['read it  → read_file', 'run · ask:commands — reads', 'run · ask:commands — reads', 'clipped…', 'odd \u0001 → kept as is', 'read it  → read_file'];
    for (let r = 0; r < 500; r++) for (const t of texts) s.push(`${t} ${r % 3}`);
    for (let i = 0; i < s.length; i++) assert.equal(s.at(i), `${texts[i % texts.length]} ${Math.floor(i / texts.length) % 3}`);
    const find = (needle: string) => {
      const hits = new Uint8Array(s.length);
      s.markContaining(needle, hits);
      return hits.reduce((a, h) => a + h, 0);
    };
    assert.equal(find('→ read'), 1000); // narrowed rows
    assert.equal(find('\u0001'), 500); // only the row that has it, not the narrowed arrows
    assert.equal(find('— reads'), 1000);
    assert.equal(find('ed…'), 500);
    assert.equal(find('kept as is'), 500);
  });
});
