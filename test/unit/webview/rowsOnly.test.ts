// A big history's batches far from the log's end reach the page cut to what their rows show
// (trimEventForRow, `rowsOnly`): fewer bytes to pack, send and unpack. Nothing a person sees may
// change: the same rows, header and charts as from trimEventForView's copies and from the events
// themselves; the page keeps none of those events whole and asks the extension for one to show it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';
import { VIEW_RECENT_EVENTS, VIEW_ROW_ARG_LIMIT, VIEW_ROW_TEXT_LIMIT, farFromHistoryEnd, trimEventForRow, trimEventForView } from '../../../src/harness/protocol/webviewMessages';
import { TimelineStore } from '../../../webview-ui/model/timelineStore';
import { ev } from '../../helpers/events';
import { writeLargeLog } from '../../helpers/largeLog';

function storeOf(events: readonly KiteEvent[], whole = true): TimelineStore {
  const s = new TimelineStore();
  s.append(events, whole);
  return s;
}

/** Long texts of every kind a row reads through its first line, at seqs after the log's own. */
function longTexts(from: number): KiteEvent[] {
  const long = (first: string) => `${first}\n${'more text that only the details show '.repeat(400)}`;
  const e = [
    ev.user({ text: long(`  ${'a very long first line of a briefing '.repeat(10)}`) }),
    ev.model({ turn: 900, content: [{ type: 'text', text: long('Here is the plan: '.repeat(20)) }, { type: 'thinking', thinking: long('thinking'), signature: 's' }] }),
    ev.tool({ is_error: true, output: long('Error: '.repeat(40)) }),
    ev.tool({ is_error: false, output: 'x'.repeat(50_000) }),
  ];
  return e.map((x, i) => ({ ...x, seq: from + i, run: 'r', t: 9000 + i }) as KiteEvent);
}

describe('rowsOnly history batches (trimEventForRow)', () => {
  let dir = '';
  let events: KiteEvent[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kite-rows-only-'));
    const log = join(dir, 'big.jsonl');
    writeLargeLog(log, 3000);
    const read = await readLog(log);
    assert.deepEqual(read.problems, []);
    events = [...read.events, ...longTexts(read.events.length)];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the same rows, header totals, charts and observation count as the whole events, in fewer bytes', () => {
    const full = storeOf(events);
    const view = storeOf(events.map((e) => trimEventForView(e)));
    const rows = storeOf(events.map((e) => trimEventForRow(e)), false);
    assert.equal(rows.rowCount, events.length);
    for (let i = 0; i < events.length; i++) {
      assert.deepEqual(rows.row(i), full.row(i), `row ${i} (${events[i]?.kind})`);
      assert.deepEqual(view.row(i), full.row(i), `row ${i} (${events[i]?.kind})`);
    }
    assert.deepEqual(rows.totals, full.totals);
    assert.deepEqual(rows.series.turns, full.series.turns);
    assert.equal(rows.series.totalCost, full.series.totalCost);
    assert.deepEqual(rows.tools, full.tools);
    // Observation tokens count the outputs' full lengths (a preview says how long its text was).
    assert.equal(rows.context.observationChars, full.context.observationChars);
    assert.equal(view.context.observationChars, full.context.observationChars);
    assert.ok(Math.abs(rows.context.convChars - full.context.convChars) / full.context.convChars < 0.01, `${rows.context.convChars} vs ${full.context.convChars}`);
    const bytes = (es: KiteEvent[]) => es.reduce((n, e) => n + JSON.stringify(e).length, 0);
    const viewBytes = bytes(events.map((e) => trimEventForView(e)));
    const rowBytes = bytes(events.map((e) => trimEventForRow(e)));
    assert.ok(rowBytes < 0.85 * viewBytes, `${rowBytes} of ${viewBytes} bytes`);
  });

  it('cuts only the texts rows read through their first line, and each copy is still a valid event', () => {
    for (const e of longTexts(0)) {
      const t = trimEventForRow(e);
      assert.ok(EventSchema.safeParse(t).success, e.kind);
      if (t.kind === 'tool') assert.ok(t.output.length <= VIEW_ROW_TEXT_LIMIT + 40, `${t.output.length}`);
      if (t.kind === 'user') assert.ok(t.text.length <= VIEW_ROW_TEXT_LIMIT + 40);
    }
    // Arguments: cut to what a row's summary can show; the model's tool inputs: to their length alone.
    const intent = ev.intent({ args: { path: 'a.ts', content: 'c'.repeat(3000) } });
    const cut = trimEventForRow(intent);
    assert.ok(cut.kind === 'intent' && cut.args === undefined, 'an intent row names its path: its arguments are not sent');
    const named = trimEventForRow(ev.proposed({ name: 'run', args: { command: 'x'.repeat(3000) } }));
    assert.ok(named.kind === 'proposed' && (named.args as { command: string }).command.length <= VIEW_ROW_ARG_LIMIT + 30, 'a named argument keeps what a summary shows');
    const unnamed = trimEventForRow(ev.intent({ path: null, args: { path: 'a.ts', content: 'c'.repeat(3000), mode: 'w' } }));
    assert.deepEqual(unnamed.kind === 'intent' && unnamed.args, { path: 'a.ts', content: '… [3000 characters in all]', mode: 'w' }, 'an argument the row shows by length is its length alone');
    const tool = trimEventForRow(ev.tool({ name: 'write_file', args: { path: 'a.ts', content: 'c'.repeat(3000) }, output: 'Wrote a.ts with 3000 characters.', post_hash: 'f'.repeat(64) }));
    assert.ok(tool.kind === 'tool' && tool.output === '… [32 characters in all]' && tool.post_hash === 'ffffffff' && tool.run === '', JSON.stringify(tool));
    const model = trimEventForRow(ev.model({ content: [{ type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'a.ts', content: 'c'.repeat(3000) } }] }));
    assert.deepEqual(model.kind === 'model' && model.content[0], { type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'a.ts', content: '… [3000 characters in all]' } }, 'a short input stays whole, a long one is its length');
    // The rows of calls whose arguments are long are the same as from the whole events.
    const long = [
      ev.proposed({ name: 'run', args: { command: `npm test -- ${'--grep x '.repeat(40)}` } }),
      ev.approvalRequest({ name: 'run', args: { command: `echo ${'y'.repeat(400)}` }, command: `echo ${'y'.repeat(400)}` }),
      ev.intent({ args: { path: `src/${'deep/'.repeat(40)}a.ts`, content: 'c'.repeat(3000), note: 'n'.repeat(39) } }),
      ev.tool({ name: 'grep', args: { pattern: 'p'.repeat(200), path: 'src' }, is_error: true, output: 'no match' }),
      // Named arguments shown by value, others by length: exactly 40 characters, 41, a short one with a newline.
      ev.proposed({ name: 'edit_file', args: { path: 'a.ts', old: 'o'.repeat(40), new: 'n'.repeat(41), note: 'a\nb', edits: [{ at: 1, text: 't'.repeat(300) }] } }),
      ev.intent({ path: null, args: { glob: `**/${'g'.repeat(300)}`, dir: 'src', body: 'b'.repeat(500) } }),
      ev.approvalRequest({ name: 'mcp_call', path: null, command: null, args: { query: 'q'.repeat(90), payload: 'p'.repeat(900) } }),
      ev.tool({ name: 'write_file', args: { path: 'a.ts', content: 'c'.repeat(900) }, output: 'Wrote a.ts.', post_hash: 'e'.repeat(64) }),
      ev.tool({ name: 'write_file', args: { path: 'a.ts', content: 'c'.repeat(900) }, output: 'Wrote a.ts.', post_hash: null }),
      ev.tool({ name: 'run', args: { command: 'npm test' }, is_error: true, output: `\n${'failure '.repeat(50)}\nmore` }),
      ev.model({ content: [{ type: 'thinking', thinking: 'th'.repeat(900), signature: 's'.repeat(700) }, { type: 'redacted_thinking', data: 'd'.repeat(900) }, { type: 'text', text: `${'w'.repeat(170)}\nrest` }] }),
      ev.user({ text: `short first line\n${'rest '.repeat(100)}` }),
    ].map((x, i) => ({ ...x, seq: i, run: 'r', t: i }) as KiteEvent);
    const whole = storeOf(long);
    const rows = storeOf(long.map((e) => trimEventForRow(e)), false);
    for (let i = 0; i < long.length; i++) assert.deepEqual(rows.row(i), whole.row(i), `row ${i}`);
    for (const e of long) assert.ok(EventSchema.safeParse(trimEventForRow(e)).success, e.kind);
    assert.equal(rows.context.observationChars, whole.context.observationChars);
    assert.ok(Math.abs(rows.context.convChars - whole.context.convChars) / whole.context.convChars < 0.01, `${rows.context.convChars} vs ${whole.context.convChars}`);
  });

  it('keeps none of a rowsOnly batch whole: the details pane asks the extension for them', () => {
    const s = new TimelineStore();
    s.append(events.slice(0, 100).map((e) => trimEventForRow(e)), false);
    s.append(events.slice(100, 110));
    assert.equal(s.rowCount, 110);
    assert.equal(s.events.at(0), null);
    assert.equal(s.events.at(99), null);
    assert.equal(s.events.at(100)?.seq, events[100]?.seq);
  });

  it('only batches with more than twice VIEW_RECENT_EVENTS events worth of bytes after them are far from the end', () => {
    const avg = 500;
    assert.equal(farFromHistoryEnd(1000 * avg, 1000 * avg + 2 * VIEW_RECENT_EVENTS * avg + 1, 1000), true);
    assert.equal(farFromHistoryEnd(1000 * avg, 1000 * avg + 2 * VIEW_RECENT_EVENTS * avg, 1000), false);
    assert.equal(farFromHistoryEnd(0, 10_000_000, 0), false, 'nothing read yet: no average');
    assert.equal(farFromHistoryEnd(5000, 5000, 10), false, 'the last batch');
  });
});
