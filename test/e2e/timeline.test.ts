// The timeline page in a real headless Chromium (Debian's), with its real CSP, fed the demo
// fixture log the way the extension feeds it: rows, grouping, filters, search, keyboard, charts,
// click-through messages, live appends, bad messages, and the theme colours painted in three themes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { LogLineParser } from '../../src/harness/protocol/parse';
import { foldEvents } from '../../src/harness/protocol/reducer';
import { formatUsd } from '../../webview-ui/model/format';
import { niceMax } from '../../webview-ui/model/turnSeries';
import { colourDistance, cssRgb, dominantColour, hexRgb } from './helpers/pixels';
import { THEMES } from './helpers/themes';
import { ROOT, RESULTS, chartBars, timelinePages, waitForChartBars, type TimelinePage } from './helpers/timelinePage';
import { VIEW_DATA_FRAME_MS, VIEW_RECENT_EVENTS, trimEventForRow } from '../../src/harness/protocol/webviewMessages';
import { pack } from '../../src/harness/protocol/packedMessage';
import { packDeflated } from '../../src/harness/events/deflatePacked';
import { ev } from '../helpers/events';

function fixture(name: string): KiteEvent[] {
  const parser = new LogLineParser(name.replace(/\.jsonl$/, ''));
  const lines = readFileSync(join(ROOT, 'test/fixtures/logs', name), 'utf8').split('\n');
  const out: KiteEvent[] = [];
  lines.forEach((l, i) => {
    if (!l.trim()) return;
    const r = parser.parse(l, i + 1);
    if (r.ok) out.push(r.event);
  });
  return out;
}

const demo = fixture('demo-run.jsonl');
// Costs come from the fixture (its prices follow the price table), not from constants here.
const costOfTurn = (n: number) => (demo.find((e) => e.kind === 'model' && e.turn === n) as Extract<KiteEvent, { kind: 'model' }>).cost_usd;
const totalCost = demo.reduce((s, e) => s + (e.kind === 'model' ? e.cost_usd : 0), 0);
const source = { log: '/home/dev/ledgerly/.kite/runs/demo-run.jsonl', title: 'demo-run', live: false };

async function loadDemo(tp: TimelinePage, events: KiteEvent[] = demo): Promise<void> {
  await tp.send({ type: 'snapshot', source, total: events.length, events, problems: [], loading: false });
  await tp.waitForEvents(events.length);
}

/** Texts of the rows on screen, top to bottom ("title | summary"). */
async function rowTexts(tp: TimelinePage): Promise<string[]> {
  return tp.page.$$eval('.row', (rows) =>
    rows
      // Not the spare cells (blank, off screen, hidden from screen readers).
      .filter((r) => (r as HTMLElement).style.display !== 'none' && r.getAttribute('aria-hidden') !== 'true')
      .map((r) => ({ y: new DOMMatrix(getComputedStyle(r).transform).m42, t: `${r.querySelector('.c-title')?.textContent} | ${r.querySelector('.c-summary')?.textContent}` }))
      .sort((a, b) => a.y - b.y)
      .map((x) => x.t),
  );
}

async function count(tp: TimelinePage): Promise<string> {
  await tp.page.waitForFunction(() => (document.getElementById('count')?.textContent ?? '') !== '');
  return (await tp.page.textContent('#count')) ?? '';
}

describe('timeline webview in Chromium', function () {
  this.timeout(60_000);
  const pages = timelinePages();
  let tp: TimelinePage;

  it('says ready, then shows a row per event grouped by turn, with tokens, cost and stop reasons', async () => {
    tp = await pages.open({ height: 1400 });
    assert.deepEqual((await tp.posted())[0], { type: 'ready' });
    await loadDemo(tp);
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '45 events');
    const texts = await rowTexts(tp);
    assert.equal(texts[0], 'Session start | F4 — Fees round half-up · anthropic:claude-sonnet-5-5 · attended');
    const turn3 = tp.page.locator('.row.head[data-seq="14"]');
    assert.equal(await turn3.locator('.c-title').textContent(), 'Turn 3');
    assert.equal(await turn3.locator('.c-status').textContent(), 'tool_use');
    assert.equal(await turn3.locator('.c-tokens').textContent(), '4102.2k070');
    assert.match((await turn3.locator('.c-tokens').getAttribute('title')) ?? '', /input 410 · cache read 2200 · cache write 0 · output 70/);
    assert.equal(await turn3.locator('.c-cost').textContent(), formatUsd(costOfTurn(3)));
    // 8 model turns + the setup group = 9 group rows.
    assert.equal(await tp.page.locator('.row.head').count(), 9);
    const deny = tp.page.locator('.row[data-seq="16"]');
    assert.match((await deny.getAttribute('class')) ?? '', /l-error/);
    assert.equal(await deny.locator('.c-summary').textContent(), 'run · deny:pipe-to-shell — piping a download into a shell is never allowed');
    assert.equal(await tp.page.locator('.row[data-seq="26"] .c-status').textContent(), 'edited');
    assert.match((await tp.page.locator('.row[data-seq="19"] .c-summary').textContent()) ?? '', /python -m pytest -q tests\/test_rounding.py exit 4/);
    assert.equal(await tp.page.locator('.row[data-seq="44"] .c-summary').textContent(), `done · 8 turns · 26.8k tokens · ${formatUsd((demo[44] as Extract<KiteEvent, { kind: 'session_end' }>).cost_usd)} · 9c1e4b7a — Fees use Decimal half-up; added tests/test_rounding.py.`);
    assert.equal(await tp.page.textContent('#run-badge'), 'done');
    assert.equal(await tp.page.textContent('#stats'), `8 turns · 26.8k tokens · ${formatUsd(totalCost)} of $5.00 · 3 errors`);
    assert.deepEqual(tp.errors, []);
  });

  it('marks estimated token counts (VS Code language models) with "~" in the row\'s token cells and says so in the tooltip', async () => {
    tp = await pages.open({ height: 1400 });
    // A vscode-lm run: its replies' usage was counted by Kite, not reported by the provider.
    await loadDemo(tp, demo.map((e) => (e.kind === 'model' && e.turn === 3 ? { ...e, estimated: true as const } : e)));
    const turn3 = tp.page.locator('.row.head[data-seq="14"] .c-tokens');
    assert.deepEqual(await turn3.locator('span').allTextContents(), ['~410', '~2.2k', '~0', '~70']);
    assert.match((await turn3.getAttribute('title')) ?? '', /^input ~410 · cache read ~2200 · cache write ~0 · output ~70 \(estimated by Kite: the provider reports no usage\)$/);
    assert.match((await tp.page.locator('.row.head[data-seq="14"] .sr-only').textContent()) ?? '', /tokens: input ~410, cache read ~2\.2k, cache write ~0, output ~70 \(estimated\)/);
    // A reported count keeps its plain figures.
    const other = await tp.page.locator('.row.head .c-tokens').allTextContents();
    assert.equal(other.filter((t) => t.includes('~')).length, 1, other.join(' / '));
    assert.deepEqual(tp.errors, []);
  });

  it('with no run yet shows only the message, no empty charts or filters', async () => {
    tp = await pages.open({ width: 420, height: 600, theme: 'light' });
    await tp.send({ type: 'empty', message: 'No Kite run yet.' });
    await tp.page.waitForFunction(() => document.getElementById('empty')?.textContent === 'No Kite run yet.');
    assert.equal(await tp.page.isVisible('#empty'), true);
    assert.equal(await tp.page.isVisible('#charts'), false);
    assert.equal(await tp.page.isVisible('#search'), false);
    await loadDemo(tp);
    await tp.page.waitForSelector('#charts', { state: 'visible' });
    assert.equal(await tp.page.isVisible('#empty'), false);
    assert.deepEqual(tp.errors, []);
  });

  it('filters errors only, by kind, by tool, and by text; the count says how many match', async () => {
    tp = await pages.open({ height: 1400 });
    await loadDemo(tp);
    await tp.page.click('#errors-only');
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '3 of 45 events');
    // The three errors, each under its turn row (shown dimmed as context).
    assert.deepEqual((await rowTexts(tp)).map((t) => t.split(' | ')[0]), ['Turn 3', 'Policy: deny', 'run', 'Turn 4', 'Gate failed']);
    assert.equal(await tp.page.locator('.row.context').count(), 2);
    await tp.page.click('#errors-only');
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '45 events');

    // Kind: gate results only.
    await tp.page.evaluate(() => {
      const sel = document.getElementById('kind') as HTMLElement & { value: string };
      sel.value = 'gate';
      sel.dispatchEvent(new Event('change'));
    });
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '2 of 45 events');
    assert.deepEqual((await rowTexts(tp)).filter((t) => !t.startsWith('Turn')).map((t) => t.split(' | ')[0]), ['Gate failed', 'Gate passed']);

    // Tool: `run` (the option appeared when the log mentioned the tool).
    await tp.page.evaluate(() => {
      const kind = document.getElementById('kind') as HTMLElement & { value: string };
      kind.value = 'all';
      kind.dispatchEvent(new Event('change'));
      const sel = document.getElementById('tool') as HTMLElement & { value: string };
      sel.value = 'run';
      sel.dispatchEvent(new Event('change'));
    });
    const toolOptions = await tp.page.$$eval('#tool vscode-option', (os) => os.map((o) => o.getAttribute('value')));
    assert.deepEqual(toolOptions, ['', 'read_file', 'write_file', 'run', 'edit_file']);
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '7 of 45 events');
    assert.deepEqual((await rowTexts(tp)).filter((t) => !t.startsWith('Turn')).map((t) => t.split(' | ')[0]), ['run', 'Policy: deny', 'run', 'run', 'Policy: allow', 'Intent', 'run']);

    // Text search, typed as a person would, after "/" focuses the box.
    await tp.page.evaluate(() => {
      const sel = document.getElementById('tool') as HTMLElement & { value: string };
      sel.value = '';
      sel.dispatchEvent(new Event('change'));
    });
    await tp.page.focus('#list');
    await tp.page.keyboard.press('/');
    await tp.page.keyboard.type('half-up');
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '6 of 45 events');
    const found = await rowTexts(tp);
    assert.ok(found.every((t) => /half-up/i.test(t) || t.startsWith('Turn') || t.startsWith('Session')), found.join('\n'));
    await tp.page.keyboard.press('Escape');
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '45 events');
    assert.equal(await tp.page.evaluate(() => document.activeElement?.id), 'list');
    // The filter survives a reload of the view (VS Code keeps getState/setState).
    const state = await tp.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
    assert.deepEqual(state, { filter: { errorsOnly: false, kind: 'all', tool: null, text: '' }, charts: true });
  });

  it('navigates with the keyboard: up/down select, left/right collapse and expand turns, Enter acts', async () => {
    tp = await pages.open({ height: 1400 });
    await loadDemo(tp);
    await tp.page.focus('#list');
    await tp.page.keyboard.press('ArrowDown'); // session start
    for (let i = 0; i < 3; i++) await tp.page.keyboard.press('ArrowDown'); // Turn 1
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '3');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-3');
    assert.equal(await tp.page.getAttribute('#row-3', 'aria-selected'), 'true');
    assert.equal(await tp.page.textContent('#details h2'), 'Turn 1 — tool_use');
    const before = (await rowTexts(tp)).length;
    await tp.page.keyboard.press('ArrowLeft');
    await tp.page.waitForFunction((n) => document.querySelectorAll('.row:not([style*="display: none"])').length === n - 3, before);
    assert.match((await tp.page.textContent('.row[data-seq="3"] .c-summary')) ?? '', /\(\+3 events\)$/);
    assert.equal(await tp.page.getAttribute('.row[data-seq="3"]', 'aria-expanded'), 'false');
    await tp.page.keyboard.press('ArrowRight');
    await tp.page.waitForFunction((n) => document.querySelectorAll('.row:not([style*="display: none"])').length === n, before);
    // The chevron does the same with the mouse.
    await tp.page.click('.row[data-seq="7"] .c-chev');
    await tp.page.waitForFunction((n) => document.querySelectorAll('.row:not([style*="display: none"])').length === n - 6, before);
    await tp.page.click('.row[data-seq="7"] .c-chev');
    await tp.page.waitForFunction((n) => document.querySelectorAll('.row:not([style*="display: none"])').length === n, before);
    // Down to the write_file result (seq 13) and Enter: opens its diff.
    await tp.page.keyboard.press('End');
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '44');
    await tp.page.keyboard.press('Home');
    for (let i = 0; i < 13; i++) await tp.page.keyboard.press('ArrowDown');
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '13');
    await tp.page.keyboard.press('Enter');
    await tp.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'openDiff'));
    assert.deepEqual((await tp.posted()).filter((m) => m.type === 'openDiff'), [{ type: 'openDiff', seq: 13 }]);
    // Collapse all / expand all.
    await tp.page.click('#collapse-all');
    await tp.page.waitForFunction(() => document.querySelectorAll('.row:not([style*="display: none"])').length === 9);
    await tp.page.click('#expand-all');
    await tp.page.waitForFunction(() => document.querySelectorAll('.row:not([style*="display: none"])').length === 45);
  });

  it('acts from a row: diff, full output, raw event and replay post the right messages', async () => {
    tp = await pages.open({ height: 1400 });
    await loadDemo(tp);
    await tp.page.click('.row[data-seq="40"] .c-summary');
    assert.equal(await tp.page.textContent('#details h2'), 'run — exit 0');
    assert.match((await tp.page.textContent('#details .body')) ?? '', /4 passed in 0\.52s/);
    // When it happened: since the start, and on the wall clock (started_at + t, shown in local time).
    const t40 = (demo[40] as KiteEvent).t;
    const wall = new Date(Date.parse((demo[0] as Extract<KiteEvent, { kind: 'session_start' }>).started_at) + t40 * 1000);
    const meta = (await tp.page.textContent('#details .meta')) ?? '';
    assert.ok(meta.includes(`time 0:${t40.toFixed(1)} (`), meta);
    assert.match(meta, new RegExp(`\\(\\d\\d:${String(wall.getUTCMinutes()).padStart(2, '0')}:${String(wall.getUTCSeconds()).padStart(2, '0')}\\)`));
    const labels = await tp.page.$$eval('#details vscode-button', (bs) => bs.map((b) => b.textContent));
    assert.deepEqual(labels, ['Full output', 'Raw event', 'Replay from here', 'Restore workspace to here']);
    await tp.page.click('#details vscode-button[data-action="openOutput"]');
    await tp.page.click('#details vscode-button[data-action="openRaw"]');
    await tp.page.click('#details vscode-button[data-action="replayFromHere"]');
    await tp.page.click('.row[data-seq="28"] .c-summary');
    await tp.page.click('#details vscode-button[data-action="openDiff"]');
    await tp.page.dblclick('.row[data-seq="19"] .c-summary');
    await tp.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length >= 7);
    const acts = (await tp.posted()).filter((m) => m.type !== 'ready' && m.type !== 'applied');
    assert.deepEqual(acts, [
      { type: 'openOutput', seq: 40 },
      { type: 'openRaw', seq: 40 },
      { type: 'replayFromHere', seq: 40 },
      { type: 'openDiff', seq: 28 },
      { type: 'openOutput', seq: 19 },
    ]);
  });

  it('draws tokens per turn stacked by kind, cumulative cost against the budget, and durations', async () => {
    tp = await pages.open();
    await loadDemo(tp);
    await waitForChartBars(tp.page, 'chart-tokens', 8);
    const bars = await chartBars(tp.page, 'chart-tokens');
    assert.equal(bars.length, 8);
    // Turn 1: input 2100, cache read 0, cache write 1800, output 80 (from the log).
    assert.deepEqual(bars[0], [2100, 0, 1800, 80]);
    assert.deepEqual(bars[2], [410, 2200, 0, 70]);
    assert.equal(await tp.page.textContent('#chart-tokens .y-max'), '4k');
    const points = ((await tp.page.getAttribute('#chart-cost polyline', 'points')) ?? '').split(' ');
    assert.equal(points.length, 9);
    assert.equal(points[0], '0,0');
    assert.ok(Math.abs(Number(points[8]?.split(',')[1]) - totalCost) < 1e-9, points[8]);
    // A few cents spent of a $5 budget: the budget would flatten the line, so it is named, not drawn.
    assert.equal(await tp.page.textContent('#chart-cost .y-max'), `${formatUsd(niceMax(totalCost * 1.05))} · budget $5.00 (off scale)`);
    assert.equal(await tp.page.$eval('#chart-cost .budget-line', (l) => getComputedStyle(l).display), 'none');
    assert.equal((await chartBars(tp.page, 'chart-durations')).length, 8);
    // Hover shows the numbers; a click selects that turn's row.
    const box = await tp.page.locator('#chart-tokens svg').boundingBox();
    assert.ok(box);
    await tp.page.mouse.move(box.x + box.width * (2.5 / 8), box.y + box.height - 5);
    assert.equal(await tp.page.textContent('#chart-tokens .tip'), 'Turn 3\ninput: 410\ncache read: 2.2k\ncache write: 0\noutput: 70');
    await tp.page.mouse.click(box.x + box.width * (2.5 / 8), box.y + box.height - 5);
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '14');
  });

  it('draws the budget line when the run comes near its dollar limit', async () => {
    tp = await pages.open();
    const start = demo[0] as Extract<KiteEvent, { kind: 'session_start' }>;
    const budget = Number((totalCost * 1.25).toFixed(3));
    await loadDemo(tp, [{ ...start, limits: { ...start.limits, usd: budget } }, ...demo.slice(1)]);
    await tp.page.waitForFunction((b) => document.querySelector('#chart-cost .budget-line')?.getAttribute('y1') === String(b), budget);
    assert.equal(await tp.page.$eval('#chart-cost .budget-line', (l) => getComputedStyle(l).display), 'inline');
    assert.equal(await tp.page.textContent('#chart-cost .y-max'), formatUsd(niceMax(budget * 1.05)));
    assert.ok(((await tp.page.textContent('#stats')) ?? '').includes(`${formatUsd(totalCost)} of ${formatUsd(budget)}`));
  });

  it('the header says where commands ran: in the sandbox, or NOT sandboxed as a warning; older logs say nothing', async () => {
    tp = await pages.open();
    const start = demo[0] as Extract<KiteEvent, { kind: 'session_start' }>;
    const limits = { processes: 512, memory_mb: 3072, address_space_mb: null, file_size_mb: 1024, open_files: 4096, cpu_s: null };
    await loadDemo(tp, [{ ...start, sandbox: { kind: 'bwrap', network: 'none', limits, note: null } }, ...demo.slice(1)]);
    await tp.page.waitForFunction(() => !(document.getElementById('sandbox') as HTMLElement).hidden);
    assert.equal(await tp.page.textContent('#sandbox'), 'Commands: in the sandbox (bwrap): no network');
    assert.equal(await tp.page.$eval('#sandbox', (el) => el.classList.contains('unsandboxed')), false);

    await loadDemo(tp, [{ ...start, sandbox: { kind: 'none', network: 'none', limits: null, note: 'sandbox: off in the user settings (kite.sandbox)' } }, ...demo.slice(1)]);
    await tp.page.waitForFunction(() => document.getElementById('sandbox')?.classList.contains('unsandboxed') === true);
    assert.equal(await tp.page.textContent('#sandbox'), 'Commands: NOT sandboxed (sandbox: off in the user settings (kite.sandbox))');
    const warn = await tp.page.$eval('#sandbox', (el) => getComputedStyle(el).fontWeight);
    assert.equal(warn, '600');

    await loadDemo(tp); // the fixture predates the sandbox field
    await tp.page.waitForFunction(() => (document.getElementById('sandbox') as HTMLElement).hidden);
  });

  it('appends live events without a new snapshot, and follows the end', async () => {
    tp = await pages.open({ height: 500 });
    await tp.send({ type: 'snapshot', source: { ...source, live: true }, total: 10, events: demo.slice(0, 10), problems: [], loading: false });
    await tp.waitForEvents(10);
    assert.equal(await tp.page.textContent('#run-badge'), 'live');
    for (let i = 10; i < demo.length; i++) {
      await tp.send({ type: 'append', events: [demo[i] as KiteEvent], problems: [], loading: false });
    }
    await tp.waitForEvents(demo.length);
    await tp.page.waitForFunction(() => document.querySelector('.row[data-seq="44"]') !== null);
    const atEnd = await tp.page.evaluate(() => {
      const l = document.getElementById('list') as HTMLElement;
      return l.scrollTop + l.clientHeight >= l.scrollHeight - 2;
    });
    assert.ok(atEnd, 'the list did not follow the new rows');
    assert.equal(await tp.page.textContent('#run-badge'), 'done');
    // A duplicate (same seq) is ignored, not shown twice.
    await tp.send({ type: 'append', events: [demo[44] as KiteEvent], problems: [], loading: false });
    await tp.waitForEvents(demo.length);
    assert.equal(await tp.page.locator('.row[data-seq="44"]').count(), 1);
  });

  it('a live run at 50 events/s is drawn a few times a second (VIEW_DATA_FRAME_MS), not once per event: every row arrives and the list follows the end', async () => {
    // A short view, as the Kite view in the side bar: each frame's new rows are most of the rows on screen.
    tp = await pages.open({ height: 300 });
    await tp.send({ type: 'snapshot', source: { ...source, live: true }, total: 5, events: demo.slice(0, 5), problems: [], loading: false });
    await tp.waitForEvents(5);
    const extra = Array.from({ length: 50 }, (_, i): KiteEvent => ({ ...ev.warning({ message: `tick ${i}` }), seq: 1000 + i, run: 'demo-run', t: 100 + i }));
    const drawn = await tp.page.evaluate(async (events) => {
      const list = document.getElementById('list') as HTMLElement;
      // Each browser frame in which the list changed: its mutations, collected by frame.
      const frames = new Set<number>();
      let frame = 0;
      let counting = true;
      const tick = () => {
        frame++;
        if (counting) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      const seen = new MutationObserver(() => frames.add(frame));
      seen.observe(list, { subtree: true, childList: true, characterData: true, attributes: true });
      const t0 = performance.now();
      for (const e of events) {
        window.postMessage({ type: 'append', events: [e], problems: [], loading: false }, '*');
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 300));
      counting = false;
      seen.disconnect();
      return { frames: frames.size, seconds: (performance.now() - t0) / 1000 };
    }, extra);
    const perSecond = drawn.frames / drawn.seconds;
    assert.ok(perSecond <= 1000 / VIEW_DATA_FRAME_MS + 2, `the list was redrawn in ${drawn.frames} frames over ${drawn.seconds.toFixed(2)} s (${perSecond.toFixed(1)}/s) for 50 events`);
    assert.ok(drawn.frames >= 3, `the list was redrawn as events came, not only at the end (${drawn.frames} frames)`);
    await tp.waitForEvents(55);
    await tp.page.waitForSelector('.row[data-seq="1049"]');
    const atEnd = await tp.page.evaluate(() => {
      const l = document.getElementById('list') as HTMLElement;
      return l.scrollTop + l.clientHeight >= l.scrollHeight - 2;
    });
    assert.ok(atEnd, 'the list followed the new rows to the end');
    assert.equal(await count(tp), '55 events');
  });

  it('ignores a malformed message visibly and keeps its state; a new snapshot replaces the old one', async () => {
    tp = await pages.open();
    await loadDemo(tp);
    await tp.send({ type: 'append', events: [{ kind: 'model', seq: 99 }], problems: [], loading: false });
    await tp.page.waitForFunction(() => !(document.getElementById('banner') as HTMLElement).hidden);
    assert.match((await tp.page.textContent('#banner')) ?? '', /^Ignored an invalid message from the extension — events\.0\.\w+: /);
    assert.equal(await count(tp), '45 events');
    await loadDemo(tp, demo.slice(0, 5));
    await tp.page.waitForFunction(() => document.getElementById('count')?.textContent === '5 events');
    // The tool choices are those of the new history only.
    assert.deepEqual(await tp.page.$$eval('#tool vscode-option', (os) => os.map((o) => o.getAttribute('value'))), ['', 'read_file']);
    await tp.send({ type: 'append', events: [], problems: [{ line: 6, message: 'line 6: invalid JSON (Unexpected token)' }], loading: false });
    await tp.page.waitForFunction(() => !(document.getElementById('problems') as HTMLElement).hidden);
    assert.equal(await tp.page.textContent('#problems'), '1 unreadable line skipped — line 6: invalid JSON (Unexpected token)');
  });

  it('takes a history packed as the extension sends it (the bytes of its JSON in one ArrayBuffer): the same rows; bytes that are not JSON are ignored visibly', async () => {
    tp = await pages.open();
    await loadDemo(tp);
    const plain = await rowTexts(tp);
    /** Posts a packed message the way VS Code delivers it: the ArrayBuffer itself, transferred. */
    const sendPacked = (bytes: ArrayBuffer) =>
      tp.page.evaluate((b64) => {
        const buf = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
        window.postMessage({ type: 'packed', json: buf }, '*', [buf]);
      }, Buffer.from(bytes).toString('base64'));
    await sendPacked(pack({ type: 'snapshot', source, total: 5, events: demo.slice(0, 5), problems: [], loading: true }).json);
    await tp.waitForEvents(5);
    await sendPacked(pack({ type: 'append', events: demo.slice(5), problems: [], loading: false }).json);
    await tp.waitForEvents(demo.length);
    assert.deepEqual(await rowTexts(tp), plain);
    await sendPacked(new TextEncoder().encode('{"type":"append","events":[').buffer as ArrayBuffer);
    await tp.page.waitForFunction(() => !(document.getElementById('banner') as HTMLElement).hidden);
    assert.match((await tp.page.textContent('#banner')) ?? '', /^Ignored an invalid message from the extension — a packed message that is not JSON \(/);
    assert.equal(await count(tp), '45 events', 'the state is kept');
  });

  it('takes a history deflated as the extension sends it, applying what follows a deflated batch after it (in order); bytes that do not inflate are ignored visibly', async () => {
    tp = await pages.open();
    await loadDemo(tp);
    const plain = await rowTexts(tp);
    /** A deflated batch, then at once a plain message: the plain one must wait for the batch to inflate. */
    const deflated = (m: object) => Buffer.from(packDeflated(m).json).toString('base64');
    await tp.page.evaluate(
      ({ first, rest }) => {
        const buf = Uint8Array.from(atob(first), (c) => c.charCodeAt(0)).buffer;
        window.postMessage({ type: 'packed', deflated: true, json: buf }, '*', [buf]);
        window.postMessage(rest, '*');
      },
      { first: deflated({ type: 'snapshot', source, total: 5, events: demo.slice(0, 5), problems: [], loading: true }), rest: { type: 'append', events: demo.slice(5), problems: [], loading: false } },
    );
    await tp.waitForEvents(demo.length);
    assert.deepEqual(await rowTexts(tp), plain, 'the snapshot first, then the append');
    await tp.page.evaluate(() => {
      const buf = new Uint8Array([0xff, 0xfe, 0x01, 0x02]).buffer;
      window.postMessage({ type: 'packed', deflated: true, json: buf }, '*', [buf]);
    });
    await tp.page.waitForFunction(() => !(document.getElementById('banner') as HTMLElement).hidden);
    assert.match((await tp.page.textContent('#banner')) ?? '', /^Ignored an invalid message from the extension — a deflated message that does not inflate \(/);
    assert.equal(await count(tp), '45 events', 'the state is kept');
    await tp.send({ type: 'append', events: [], problems: [{ line: 99, message: 'line 99: invalid JSON' }], loading: false });
    await tp.page.waitForFunction(() => !(document.getElementById('problems') as HTMLElement).hidden, undefined, { timeout: 5000 });
  });

  it('reveals an event the extension names, even inside a collapsed turn or behind a filter', async () => {
    tp = await pages.open({ height: 600 });
    await loadDemo(tp);
    await tp.page.click('#collapse-all');
    await tp.page.click('#errors-only');
    await tp.send({ type: 'reveal', seq: 40 });
    await tp.page.waitForSelector('.row.selected[data-seq="40"]');
    assert.equal(await tp.page.textContent('#details h2'), 'run — exit 0');
    const applied = (await tp.posted()).filter((m) => m.type === 'applied').at(-1);
    // The header's totals are the log's fold (the reducer), as the status bar and the Runs view count them.
    const fold = foldEvents(demo, { conversation: false });
    assert.deepEqual(applied, { type: 'applied', batches: 1, events: 45, lastSeq: 44, selected: 40, totals: { turns: fold.turns, tokens: fold.tokens.total, cost_usd: fold.cost_usd } });
    // The filter that hid it was cleared, and its turn opened.
    assert.equal(await tp.page.evaluate(() => (document.getElementById('errors-only') as HTMLElement & { checked: boolean }).checked), false);
  });

  it('keeps only recent events whole: an older row\'s details are asked of the extension by seq', async () => {
    tp = await pages.open({ height: 700 });
    // The demo run, then enough later events that the demo's are no longer kept in the page.
    const later = Array.from({ length: VIEW_RECENT_EVENTS + 100 }, (_, i): KiteEvent => ({ ...ev.warning({ message: `later ${i}` }), seq: 45 + i, run: 'demo-run', t: 40 + i }));
    await tp.send({ type: 'snapshot', source, total: 45 + later.length, events: [...demo, ...later], problems: [], loading: false });
    await tp.waitForEvents(45 + later.length);
    await tp.send({ type: 'reveal', seq: 40 });
    await tp.page.waitForSelector('.row.selected[data-seq="40"]');
    assert.equal(await tp.page.textContent('#details h2'), 'run — exit 0');
    assert.equal(await tp.page.textContent('#details .body'), 'Reading this event from the log…');
    await tp.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'detail'));
    assert.deepEqual((await tp.posted()).filter((m) => m.type === 'detail'), [{ type: 'detail', seq: 40 }]);
    await tp.send({ type: 'detail', seq: 40, event: demo[40] });
    await tp.page.waitForFunction(() => /4 passed in 0\.52s/.test(document.querySelector('#details .body')?.textContent ?? ''));
    // A recent event is shown at once, with no request.
    const last = later.at(-1) as KiteEvent;
    await tp.send({ type: 'reveal', seq: last.seq });
    await tp.page.waitForSelector(`.row.selected[data-seq="${last.seq}"]`);
    assert.match((await tp.page.textContent('#details .body')) ?? '', new RegExp(`later ${later.length - 1}`));
    // An answer for a row no longer selected changes nothing shown; one the log lost says so.
    await tp.send({ type: 'detail', seq: 39, event: demo[39] });
    assert.match((await tp.page.textContent('#details .body')) ?? '', new RegExp(`later ${later.length - 1}`));
    await tp.send({ type: 'reveal', seq: 12 });
    await tp.page.waitForSelector('.row.selected[data-seq="12"]');
    await tp.send({ type: 'detail', seq: 12, event: null });
    await tp.page.waitForFunction(() => /could not be read from the log/.test(document.querySelector('#details .body')?.textContent ?? ''));
    assert.deepEqual((await tp.posted()).filter((m) => m.type === 'detail'), [{ type: 'detail', seq: 40 }, { type: 'detail', seq: 12 }]);
    assert.deepEqual(tp.errors, []);
  });

  it('draws a rowsOnly batch (events cut to what their rows show) as the whole events, and asks the extension for one to show it', async () => {
    tp = await pages.open({ height: 700 });
    // The demo run in two batches: the first cut for its rows only, as a big history's early batches are.
    await tp.send({ type: 'snapshot', source, total: 45, events: demo.slice(0, 30).map((e) => trimEventForRow(e)), problems: [], loading: true, rowsOnly: true });
    await tp.send({ type: 'append', events: demo.slice(30), problems: [], loading: false });
    await tp.waitForEvents(45);
    // The rows drawn (the pool's cells, in no particular order: by seq).
    const drawn = (p: TimelinePage) =>
      p.page.$$eval('.row[data-seq]:not([hidden])', (rows) => rows.map((r) => `${r.getAttribute('data-seq')} ${r.getAttribute('aria-label')} ${r.textContent}`).sort());
    const cut = await drawn(tp);
    assert.ok(cut.length >= 20, `${cut.length} rows drawn`);
    const whole = await pages.open({ height: 700 });
    await loadDemo(whole);
    assert.deepEqual(cut, await drawn(whole));
    assert.equal(await tp.page.textContent('#stats'), await whole.page.textContent('#stats'));
    await whole.close();
    // A row of the rowsOnly batch: its details are asked for, though the event is recent.
    await tp.send({ type: 'reveal', seq: 19 });
    await tp.page.waitForSelector('.row.selected[data-seq="19"]');
    await tp.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'detail'));
    assert.deepEqual((await tp.posted()).filter((m) => m.type === 'detail'), [{ type: 'detail', seq: 19 }]);
    // One of the whole batch is shown at once.
    await tp.send({ type: 'reveal', seq: 40 });
    await tp.page.waitForFunction(() => /4 passed in 0\.52s/.test(document.querySelector('#details .body')?.textContent ?? ''));
    assert.deepEqual((await tp.posted()).filter((m) => m.type === 'detail'), [{ type: 'detail', seq: 19 }]);
    assert.deepEqual(tp.errors, []);
  });

  it('shows a log of the original Python Kite, normalized by the parser', async () => {
    const py = fixture('python-kite.jsonl');
    assert.ok(py.length > 5);
    tp = await pages.open();
    await loadDemo(tp, py);
    assert.ok((await tp.page.locator('.row.head').count()) >= 2);
    assert.deepEqual(tp.errors, []);
  });

  // What these check (no reference image: fonts and Chromium builds differ between machines, so a
  // pixel comparison of text would be flaky): the page paints the theme's own colours. Read back
  // from the real screenshot (decoded by Chromium): the most frequent colour of the whole page is
  // the theme's side-bar background and that of the search box is the theme's text-input
  // background, each within 2 per channel; the computed body colours are the theme's exactly.
  for (const theme of ['light', 'dark', 'high-contrast'] as const) {
    it(`paints the ${theme} theme's background, text and search-box colours (screenshot test-results/timeline-${theme}.png)`, async () => {
      const vars = THEMES[theme].vars;
      tp = await pages.open({ theme, width: 1280, height: 860 });
      await loadDemo(tp);
      await tp.page.click('.row[data-seq="19"] .c-summary');
      await waitForChartBars(tp.page, 'chart-tokens', 8);
      const bg = await tp.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(bg, 'rgba(0, 0, 0, 0)');
      const body = await tp.page.evaluate(() => ({ bg: getComputedStyle(document.body).backgroundColor, fg: getComputedStyle(document.body).color }));
      assert.deepEqual(cssRgb(body.bg), hexRgb(vars['--vscode-sideBar-background'] as string), 'body background = --vscode-sideBar-background');
      assert.deepEqual(cssRgb(body.fg), hexRgb(vars['--vscode-foreground'] as string), 'body text = --vscode-foreground');
      const png = await tp.page.screenshot({ path: join(RESULTS, `timeline-${theme}.png`) });
      const page = await dominantColour(pages.browser(), png);
      assert.ok(colourDistance(page, hexRgb(vars['--vscode-sideBar-background'] as string)) <= 2, `most frequent colour on screen ${JSON.stringify(page)} is the side-bar background ${vars['--vscode-sideBar-background']}`);
      const box = await tp.page.locator('#search').boundingBox();
      assert.ok(box, 'the search box is on screen');
      // Inside the 1 px border: the box's own fill (the placeholder text is a minority of its pixels).
      const search = await dominantColour(pages.browser(), png, { x: box.x + 2, y: box.y + 2, width: box.width - 4, height: box.height - 4 });
      assert.ok(colourDistance(search, hexRgb(vars['--vscode-settings-textInputBackground'] as string)) <= 2, `search box fill ${JSON.stringify(search)} is the text-input background ${vars['--vscode-settings-textInputBackground']}`);
      assert.deepEqual(tp.errors, []);
    });
  }

  it('fits a narrow side bar (screenshot test-results/timeline-sidebar.png)', async () => {
    tp = await pages.open({ theme: 'dark', width: 420, height: 900 });
    await loadDemo(tp);
    const hidden = await tp.page.$eval('.row[data-seq="3"] .c-tokens', (e) => getComputedStyle(e).display);
    assert.equal(hidden, 'none');
    const overflow = await tp.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    assert.equal(overflow, false);
    await tp.page.screenshot({ path: join(RESULTS, 'timeline-sidebar.png') });
  });
});
