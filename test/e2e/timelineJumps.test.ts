// A jump across a long timeline (the scrollbar dragged, End, a revealed event): the list fills
// the rows on screen in the jump's frame and their labels, tooltips and the overscan rows in the
// next (listView.ts). What must hold: the rows shown are always the rows at that place, and
// once the frames have run, every rendered row's label and tooltip are its own — also after a
// filter or a live append reuses the cells for other rows.
import assert from 'node:assert/strict';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { ev } from '../helpers/events';
import { timelinePages, type TimelinePage } from './helpers/timelinePage';

const source = { log: '/tmp/jumps.jsonl', title: 'jumps', live: true };

/** A turn every 10 events; each warning says its own number ("note 123 of the run"). */
function events(from: number, n: number): KiteEvent[] {
  const out: KiteEvent[] = [];
  for (let seq = from; seq < from + n; seq++) {
    const base = { seq, run: 'jumps', t: seq / 10 };
    out.push(seq % 10 === 0 ? { ...ev.model({ turn: seq / 10 + 1 }), ...base } : { ...ev.warning({ message: `note ${seq} of the run` }), ...base });
  }
  return out;
}

interface Shown {
  /** Row elements displayed (spare cells too: blank, off screen), top to bottom. */
  rows: { seq: number; y: number; summary: string; text: string; label: string; tip: string; spare: boolean }[];
  scrollTop: number;
  height: number;
}

/** The rendered rows, read at the start of the next frame (before the list's own frame callback). */
function shownNextFrame(tp: TimelinePage, act: string): Promise<Shown> {
  return tp.page.evaluate(async (act) => {
    const list = document.getElementById('list') as HTMLElement;
    if (act === 'jump') list.scrollTop = list.scrollHeight * 0.61;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    // The scroll event comes in the first frame (the list schedules its render there), the list
    // renders in that frame after this callback; the next frame's first callback sees its result.
    await frame();
    await frame();
    const rows = [...document.querySelectorAll<HTMLElement>('.row')]
      .filter((r) => r.style.display !== 'none')
      .map((r) => ({
        seq: Number(r.dataset.seq),
        y: new DOMMatrix(getComputedStyle(r).transform).m42,
        summary: r.querySelector('.c-summary')?.textContent ?? '',
        text: r.textContent ?? '',
        label: r.querySelector('.sr-only')?.textContent ?? '',
        tip: r.querySelector('.c-summary')?.getAttribute('title') ?? '',
        // A jump leaves the cells it does not need yet where they were (off screen), out of the accessibility tree.
        spare: r.getAttribute('aria-hidden') === 'true',
      }))
      .sort((a, b) => a.y - b.y);
    return { rows, scrollTop: list.scrollTop, height: list.clientHeight };
  }, act);
}

/** Spare cells claim no row, are off screen, hidden from screen readers and hold no words of the
 *  row they showed (Find would land there); the others are not spare. */
function assertSparesUnseen(shown: Shown): void {
  for (const r of shown.rows) {
    assert.equal(r.spare, Number.isNaN(r.seq), `row ${r.seq} at ${r.y}`);
    if (!r.spare) continue;
    assert.ok(r.y + 22 <= shown.scrollTop || r.y >= shown.scrollTop + shown.height, `a spare cell on screen at ${r.y}`);
    assert.equal(r.text, '', `a spare cell at ${r.y} still says ${JSON.stringify(r.text.slice(0, 80))}`);
  }
}

/** The rows that show a row (not spare cells). */
const rowsOf = (shown: Shown): Shown['rows'] => shown.rows.filter((r) => !r.spare);

/** Every rendered row complete: its summary is its own event's, in its label and tooltip too. */
function assertComplete(shown: Shown): void {
  assertSparesUnseen(shown);
  assert.ok(rowsOf(shown).length > 0);
  for (const r of rowsOf(shown)) {
    const own = summaryOf(r.seq);
    if (own !== null) assert.equal(r.summary, own, `row ${r.seq}`);
    assert.equal(r.tip, r.summary, `tooltip of row ${r.seq}`);
    assert.ok(r.label.includes(r.summary), `label of row ${r.seq}: "${r.label}"`);
  }
}

/** A warning's summary (a turn's is the model's text, not checked here). */
const summaryOf = (seq: number): string | null => (seq % 10 === 0 ? null : `note ${seq} of the run`);

/** Types a search the way the page's search box is used (its value, then Enter). */
async function search(tp: TimelinePage, text: string): Promise<void> {
  await tp.page.evaluate((text) => {
    const box = document.getElementById('search') as HTMLElement & { value: string };
    box.value = text;
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  }, text);
}

describe('timeline webview: jumps across a long log', function () {
  this.timeout(60_000);
  const pages = timelinePages();
  let tp: TimelinePage;

  it('shows the rows at the new place in the jump\'s frame, and their labels, tooltips and the overscan rows by the next', async () => {
    tp = await pages.open({ height: 700 });
    const all = events(0, 5000);
    await tp.send({ type: 'snapshot', source, total: all.length, events: all.slice(0, 2500), problems: [], loading: true });
    await tp.send({ type: 'append', events: all.slice(2500), problems: [], loading: false });
    await tp.waitForEvents(all.length);
    // Away from the end, so new events do not move the view.
    await tp.page.$eval('#list', (l) => (l.scrollTop = 0));
    await shownNextFrame(tp, 'wait');

    const jumped = await shownNextFrame(tp, 'jump');
    assertSparesUnseen(jumped);
    // The rows on screen: each at its own place (row index = position: nothing is filtered), in order, none missing.
    const first = Math.floor(jumped.scrollTop / 22);
    const onScreen = jumped.rows.filter((r) => r.y + 22 > jumped.scrollTop && r.y < jumped.scrollTop + jumped.height);
    assert.ok(onScreen.length >= Math.floor(jumped.height / 22), `${onScreen.length} rows on screen`);
    onScreen.forEach((r, i) => {
      assert.equal(r.seq, first + i);
      assert.equal(r.y, r.seq * 22);
      const own = summaryOf(r.seq);
      if (own !== null) assert.equal(r.summary, own);
    });
    const settled = await shownNextFrame(tp, 'wait');
    assertComplete(settled);
    // The overscan rows are back: more rows rendered than fit on screen, on both sides.
    assert.ok((rowsOf(settled)[0]?.y ?? Infinity) < settled.scrollTop, 'a row rendered above the screen');
    assert.ok((rowsOf(settled).at(-1)?.y ?? 0) > settled.scrollTop + settled.height, 'a row rendered below the screen');
    assert.deepEqual(tp.errors, []);
  });

  it('refills the cells with the new rows\' text after a search and after live appends', async () => {
    tp = await pages.open({ height: 700 });
    const all = events(0, 3000);
    await tp.send({ type: 'snapshot', source, total: all.length, events: all, problems: [], loading: false });
    await tp.waitForEvents(all.length);
    await shownNextFrame(tp, 'jump'); // cells filled in a jump's frame, then completed

    // A search: the same cells now show other rows (notes 1xx7), complete.
    await search(tp, '7 of');
    await tp.page.waitForFunction(() => /of 3,000 events/.test(document.getElementById('count')?.textContent ?? ''));
    const found = await shownNextFrame(tp, 'wait');
    assertComplete(found);
    assert.ok(rowsOf(found).filter((r) => r.seq % 10 !== 0).every((r) => r.summary.endsWith('7 of the run')), rowsOf(found).map((r) => r.summary).join(' / '));

    // Cleared, at the end, following the run: appended events take the cells at the bottom.
    await search(tp, '');
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '3,000 events');
    await tp.page.$eval('#list', (l) => (l.scrollTop = l.scrollHeight));
    await shownNextFrame(tp, 'wait');
    await tp.send({ type: 'append', events: events(3000, 25), problems: [], loading: false });
    await tp.waitForEvents(3025);
    const end = await shownNextFrame(tp, 'wait');
    assertComplete(end);
    assert.equal(rowsOf(end).at(-1)?.seq, 3024);
    assert.deepEqual(tp.errors, []);
  });
});
