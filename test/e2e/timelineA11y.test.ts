// Accessibility of the timeline page in a real Chromium with its real CSP: axe-core (WCAG 2.1 A
// and AA) in three themes and four states, a keyboard-only walk with the focus checked at each
// step, what screen readers are told (row names, tree positions, the live region), and the
// charts read without a mouse.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { LogLineParser } from '../../src/harness/protocol/parse';
import { axeViolations, describeViolations } from './helpers/axe';
import { ROOT, timelinePages, waitForChartBars, type TimelinePage } from './helpers/timelinePage';

function demoLog(): KiteEvent[] {
  const parser = new LogLineParser('demo-run');
  const out: KiteEvent[] = [];
  readFileSync(join(ROOT, 'test/fixtures/logs/demo-run.jsonl'), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (!l.trim()) return;
      const r = parser.parse(l, i + 1);
      if (r.ok) out.push(r.event);
    });
  return out;
}

const demo = demoLog();
const source = { log: '/home/dev/ledgerly/.kite/runs/demo-run.jsonl', title: 'demo-run', live: false };

async function load(tp: TimelinePage, events: KiteEvent[] = demo, live = false): Promise<void> {
  await tp.send({ type: 'snapshot', source: { ...source, live }, total: events.length, events, problems: [], loading: false });
  await tp.waitForEvents(events.length);
}

/** What has focus: the id of document.activeElement, or its data-action / class when it has none. */
function focused(tp: TimelinePage): Promise<string> {
  return tp.page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    return el.id || (el.dataset.action ? `action:${el.dataset.action}` : `.${el.getAttribute('class') ?? el.tagName}`);
  });
}

async function countText(tp: TimelinePage, text: string): Promise<void> {
  await tp.page.waitForFunction((t) => document.getElementById('count')?.textContent === t, text);
}

/** Presses Tab until `target` has focus; returns the ids focused on the way (fails after 12). */
async function tabTo(tp: TimelinePage, target: string, key = 'Tab'): Promise<string[]> {
  const path: string[] = [];
  for (let i = 0; i < 12; i++) {
    await tp.page.keyboard.press(key);
    const now = await focused(tp);
    path.push(now);
    if (now === target) return path;
  }
  assert.fail(`${key} never reached ${target}: ${path.join(' → ')}`);
}

describe('timeline webview accessibility in Chromium', function () {
  this.timeout(90_000);
  const pages = timelinePages();
  let tp: TimelinePage;

  const states: { name: string; enter(tp: TimelinePage): Promise<void> }[] = [
    { name: 'initial', enter: async () => {} },
    {
      name: 'an error row selected, details open',
      enter: async (tp) => {
        await tp.page.click('.row[data-seq="16"] .c-summary');
        await tp.page.waitForSelector('#details:not([hidden])');
      },
    },
    {
      name: 'errors only',
      enter: async (tp) => {
        await tp.page.click('#errors-only');
        await countText(tp, '3 of 45 events');
        assert.equal(await tp.page.locator('.row.context').count(), 2, 'turn rows shown as context of the errors');
      },
    },
    {
      name: 'a chart tooltip shown',
      enter: async (tp) => {
        const box = await tp.page.locator('#chart-tokens svg').boundingBox();
        assert.ok(box);
        await tp.page.mouse.move(box.x + box.width * (2.5 / 8), box.y + box.height - 5);
        await tp.page.waitForSelector('#chart-tokens .tip:not([hidden])');
      },
    },
  ];
  for (const theme of ['dark', 'light', 'high-contrast'] as const) {
    for (const state of states) {
      it(`has no WCAG 2.1 A/AA violation (axe) in the ${theme} theme, ${state.name}`, async () => {
        tp = await pages.open({ theme, width: 1280, height: 860 });
        await load(tp);
        await waitForChartBars(tp.page, 'chart-tokens', 8);
        await state.enter(tp);
        const violations = await axeViolations(tp.page);
        assert.equal(violations.length, 0, `axe found:\n${describeViolations(violations)}`);
      });
    }
  }

  it('names the search box, the Kind and the Tool filters on the controls a screen reader reaches', async () => {
    tp = await pages.open();
    await load(tp);
    // getByRole computes the accessible name of the inner <input> and comboboxes (shadow DOM).
    assert.equal(await tp.page.getByRole('textbox', { name: 'Search events', exact: true }).count(), 1);
    assert.equal(await tp.page.getByRole('combobox', { name: 'Kind of event', exact: true }).count(), 1);
    assert.equal(await tp.page.getByRole('combobox', { name: 'Tool', exact: true }).count(), 1);
  });

  it('walks by keyboard only: search → filters → list → row action → details → close, focus where a person expects it', async () => {
    tp = await pages.open({ height: 900 });
    const long = demo.map((e) => (e.seq === 40 && e.kind === 'tool' ? { ...e, output: Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') } : e));
    await load(tp, long);
    // "/" from anywhere: the search box.
    await tp.page.keyboard.press('/');
    assert.equal(await focused(tp), 'search');
    await tp.page.keyboard.type('pytest');
    await countText(tp, '4 of 45 events');
    // Escape: the filter AND the typed text go, and focus is back on the list.
    await tp.page.keyboard.press('Escape');
    await countText(tp, '45 events');
    assert.equal(await focused(tp), 'list');
    assert.equal(await tp.page.$eval('#search', (el) => el.shadowRoot?.querySelector('input')?.value), '');
    // Back to the filters with Shift+Tab, then forward: errors only, kind, tool, in that order.
    await tabTo(tp, 'search', 'Shift+Tab');
    assert.deepEqual(await tabTo(tp, 'tool'), ['errors-only', 'kind', 'tool']);
    await tp.page.keyboard.press('Shift+Tab');
    await tp.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(tp), 'errors-only');
    await tp.page.keyboard.press('Space');
    await countText(tp, '3 of 45 events');
    await tp.page.keyboard.press('Space');
    await countText(tp, '45 events');
    await tp.page.keyboard.press('Tab');
    assert.equal(await focused(tp), 'kind');
    // The Kind select by keys: open, down to "Gate", choose.
    await tp.page.keyboard.press('Enter');
    for (let i = 0; i < 4; i++) await tp.page.keyboard.press('ArrowDown');
    await tp.page.keyboard.press('Enter');
    await countText(tp, '2 of 45 events');
    assert.equal(await focused(tp), 'kind');
    await tp.page.keyboard.press('Enter');
    for (let i = 0; i < 4; i++) await tp.page.keyboard.press('ArrowUp');
    await tp.page.keyboard.press('Enter');
    await countText(tp, '45 events');
    // On to the list: the buttons on the way, then the list itself.
    assert.deepEqual(await tabTo(tp, 'list'), ['tool', 'collapse-all', 'expand-all', 'toggle-charts', 'list']);
    // In the list: End, then up to the test run (seq 40); the details follow the selection.
    await tp.page.keyboard.press('End');
    for (let i = 0; i < 4; i++) await tp.page.keyboard.press('ArrowUp');
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '40');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-40');
    assert.equal(await tp.page.textContent('#details h2'), 'run — exit 0');
    // Row action: Enter opens the full output, focus stays on the row.
    await tp.page.keyboard.press('Enter');
    await tp.page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'openOutput'));
    assert.equal(await focused(tp), 'list');
    // Into the details: its actions, the close button, then the text, which scrolls by keys.
    assert.deepEqual(await tabTo(tp, '.body'), ['action:openOutput', 'action:openRaw', 'action:replayFromHere', 'action:restoreToHere', '.icon-button', '.body']);
    const top = await tp.page.$eval('#details .body', (el) => el.scrollTop);
    await tp.page.keyboard.press('PageDown');
    await tp.page.waitForFunction((t) => (document.querySelector('#details .body') as HTMLElement).scrollTop > t, top);
    // Escape in the details: closed, and focus back on the row that opened them.
    await tp.page.keyboard.press('Escape');
    assert.equal(await tp.page.isVisible('#details'), false);
    assert.equal(await focused(tp), 'list');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-40');
    assert.equal(await tp.page.getAttribute('#row-40', 'aria-selected'), 'true');
    // The close button does the same.
    await tp.page.keyboard.press('ArrowUp');
    assert.equal(await tp.page.textContent('#details h2'), 'Intent — exec');
    await tabTo(tp, '.icon-button');
    await tp.page.keyboard.press('Enter');
    assert.equal(await tp.page.isVisible('#details'), false);
    assert.equal(await focused(tp), 'list');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-39');
    // Escape in the list: first the details (closed already), then the selection.
    await tp.page.keyboard.press('Escape');
    assert.equal(await tp.page.locator('.row.selected').count(), 0);
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), null);
    assert.deepEqual(tp.errors, []);
  });

  it('reads each row as labelled content: what it is, what it says, and each figure named (token kinds too)', async () => {
    tp = await pages.open({ height: 1400 });
    await load(tp);
    const turn3 = demo.find((e) => e.kind === 'model' && e.turn === 3) as Extract<KiteEvent, { kind: 'model' }>;
    const name = `Turn 3, tool_use. Let me install the latest tooling.  → run. time 0:11.2, turn 3, duration 2.03s, tokens: input 410, cache read 2.2k, cache write 0, output 70, cost $${turn3.cost_usd.toFixed(4)}`;
    assert.equal(await tp.page.getByRole('treeitem', { name, exact: true }).count(), 1, await tp.page.locator('#row-14 .sr-only').textContent() ?? '');
    // A problem says so in words, not only by colour.
    assert.equal(await tp.page.getByRole('treeitem', { name: /^Policy: deny, error\. run · deny:pipe-to-shell/ }).count(), 1);
  });

  it('says where each row sits in the tree (aria-posinset / aria-setsize), also when filtered', async () => {
    tp = await pages.open({ height: 1400 });
    await load(tp);
    const place = (seq: number) => tp.page.$eval(`.row[data-seq="${seq}"]`, (r) => [r.getAttribute('aria-level'), r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')]);
    // Nine first-level rows (the setup and 8 turns); turn 3 holds three events.
    assert.deepEqual(await place(14), ['1', '4', '9']);
    assert.deepEqual(await place(16), ['2', '2', '3']);
    await tp.page.click('#errors-only');
    await countText(tp, '3 of 45 events');
    assert.deepEqual(await place(14), ['1', '1', '2']);
    assert.deepEqual(await place(16), ['2', '1', '2']);
    assert.deepEqual(await place(17), ['2', '2', '2']);
    assert.deepEqual(await place(18), ['1', '2', '2']);
  });

  it('never points aria-activedescendant at a row that is not rendered after scrolling', async () => {
    tp = await pages.open({ height: 520 });
    await load(tp);
    await tp.page.click('.row[data-seq="1"] .c-summary');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-1');
    await tp.page.$eval('#list', (l) => (l.scrollTop = l.scrollHeight));
    await tp.page.waitForFunction(() => document.getElementById('row-44') !== null);
    await tp.page.waitForFunction(() => {
      const id = document.getElementById('list')?.getAttribute('aria-activedescendant');
      return id === null || id === undefined || document.getElementById(id) !== null;
    });
    assert.equal(await tp.page.evaluate(() => document.getElementById('row-1')), null, 'the selected row scrolled out of the rendered window');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), null);
    // A key brings the selection back into view, and the list points at it again.
    await tp.page.focus('#list');
    await tp.page.keyboard.press('ArrowDown');
    assert.equal(await tp.page.getAttribute('#list', 'aria-activedescendant'), 'row-2');
    assert.equal(await tp.page.isVisible('#row-2'), true);
  });

  it('announces the outcome, the problems line and the banner in a polite live region', async () => {
    tp = await pages.open();
    await load(tp, demo.slice(0, 44), true);
    const said = () => tp.page.textContent('#announcer');
    assert.equal(await tp.page.getAttribute('#announcer', 'aria-live'), 'polite');
    assert.equal(await said(), '');
    await tp.send({ type: 'append', events: [demo[44] as KiteEvent], problems: [], loading: false });
    await tp.page.waitForFunction(() => document.getElementById('announcer')?.textContent === 'Run ended: done');
    await tp.send({ type: 'append', events: [], problems: [{ line: 46, message: 'line 46: invalid JSON (Unexpected token)' }], loading: false });
    await tp.page.waitForFunction(() => document.getElementById('announcer')?.textContent === '1 unreadable line skipped — line 46: invalid JSON (Unexpected token)');
    await tp.send({ type: 'append', events: [{ kind: 'model', seq: 99 }], problems: [], loading: false });
    await tp.page.waitForFunction(() => /^Ignored an invalid message from the extension — /.test(document.getElementById('announcer')?.textContent ?? ''));
  });

  it('does not announce the event count as events are appended', async () => {
    tp = await pages.open();
    await load(tp, demo.slice(0, 20), true);
    // Every text any live region takes from now on.
    await tp.page.evaluate(() => {
      const w = window as unknown as { __said: string[] };
      w.__said = [];
      const regions = document.querySelectorAll('[aria-live], [role="status"], [role="log"], [role="alert"]');
      const obs = new MutationObserver(() => regions.forEach((r) => w.__said.push(r.textContent ?? '')));
      regions.forEach((r) => obs.observe(r, { childList: true, characterData: true, subtree: true }));
    });
    for (let i = 20; i < 30; i++) await tp.send({ type: 'append', events: [demo[i] as KiteEvent], problems: [], loading: false });
    await tp.waitForEvents(30);
    await countText(tp, '30 events');
    const said = await tp.page.evaluate(() => (window as unknown as { __said: string[] }).__said);
    assert.deepEqual(said, []);
    assert.equal(await tp.page.$eval('#count', (c) => c.closest('[aria-live], [role="status"], [role="log"]') === null), true, 'the count is not inside a live region');
  });

  it('gives each chart a text alternative and reads its values by keyboard; Enter shows the turn in the list', async () => {
    tp = await pages.open();
    await load(tp);
    await waitForChartBars(tp.page, 'chart-tokens', 8);
    assert.match((await tp.page.getAttribute('#chart-tokens svg', 'aria-label')) ?? '', /^Tokens per turn: 8 turns, the largest bar 4k \(input, cache read, cache write, output\)\. Left and Right arrows/);
    assert.match((await tp.page.getAttribute('#chart-cost svg', 'aria-label')) ?? '', /^Cost: 8 turns, run total \$[\d.]+ of a \$5\.00 budget\./);
    await tp.page.focus('#chart-tokens svg');
    // Focus shows the last turn; Home goes to the first, Right to the next.
    assert.equal(await tp.page.textContent('#chart-tokens .tip'), 'Turn 8\ninput: 380\ncache read: 3.4k\ncache write: 0\noutput: 40');
    await tp.page.keyboard.press('Home');
    await tp.page.keyboard.press('ArrowRight');
    await tp.page.keyboard.press('ArrowRight');
    assert.equal(await tp.page.isVisible('#chart-tokens .tip'), true);
    assert.equal(await tp.page.textContent('#chart-tokens .tip'), 'Turn 3\ninput: 410\ncache read: 2.2k\ncache write: 0\noutput: 70');
    assert.equal(await tp.page.textContent('#announcer'), 'Turn 3, input: 410, cache read: 2.2k, cache write: 0, output: 70');
    await tp.page.keyboard.press('Enter');
    assert.equal(await tp.page.getAttribute('.row.selected', 'data-seq'), '14');
    assert.equal(await focused(tp), 'list');
  });
});
