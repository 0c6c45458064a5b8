// The timeline page in Chromium, for talking to the agent and watching it work (issue 18 items 11
// and 12): the model's text streams into the current turn's row as it arrives, its thinking
// collapsed; the finished reply replaces it, with its thinking collapsed in the details; the
// "Tell the agent" box is labelled, works from the keyboard and announces what became of a message.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ev } from '../helpers/events';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { axeViolations, describeViolations } from './helpers/axe';
import { RESULTS, launchChromium, openTimeline, type TimelinePage } from './helpers/timelinePage';

const source = { log: '/ws/.kite/runs/r1.jsonl', title: 'r1', live: true };
const start: KiteEvent[] = [ev.sessionStart({ seq: 0 }), ev.user({ seq: 1, reason: 'briefing', text: 'Briefing: fix F4' })];
const THINKING = 'The fee rounds down at the half paisa; addFee must work in paise.';
const reply = ev.model({
  seq: 2,
  turn: 1,
  stop: 'tool_use',
  content: [
    { type: 'thinking', thinking: THINKING, signature: 'sig' },
    { type: 'text', text: 'Let me look at ledger.js first.' },
    { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/ledger.js' } },
  ],
});

async function load(tp: TimelinePage, events: KiteEvent[]): Promise<void> {
  await tp.send({ type: 'snapshot', source, total: events.length, events, problems: [], loading: false });
  await tp.waitForEvents(events.length);
}

describe('timeline webview: streaming turn and Tell the agent (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let tp: TimelinePage;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => browser?.close());
  beforeEach(async () => {
    tp = await openTimeline(browser, { theme: 'dark', width: 1000, height: 700 });
  });
  afterEach(async () => {
    assert.deepEqual(tp.errors, []);
    await tp.close();
  });

  it('the reply streams into the current turn row, thinking collapsed; the logged reply replaces it', async () => {
    await load(tp, start);
    const row = tp.page.locator('#stream-row');
    assert.equal(await row.isVisible(), false, 'nothing streams before the model answers');
    await tp.send({ type: 'stream', turn: 1, text: 'Let me look', thinking: 'The fee rounds down' });
    await tp.send({ type: 'stream', turn: 1, text: ' at ledger.js first.', thinking: ' at the half paisa; addFee must work in paise.' });
    await row.waitFor({ state: 'visible' });
    await tp.page.waitForFunction(() => document.querySelector('#stream-row .stream-text')?.textContent === 'Let me look at ledger.js first.');
    assert.equal(await row.locator('.stream-title').textContent(), 'Turn 1 · generating…');
    const thinking = row.locator('details.thinking');
    assert.equal(await thinking.evaluate((d) => (d as HTMLDetailsElement).open), false, 'thinking starts collapsed');
    assert.match((await thinking.locator('summary').textContent()) ?? '', /^Thinking · 65 characters$/);
    assert.equal(await thinking.locator('pre').isVisible(), false, 'the thinking text is not shown until opened');
    await thinking.locator('summary').click();
    assert.equal(await thinking.locator('pre').textContent(), THINKING);
    mkdirSync(join(RESULTS), { recursive: true });
    await tp.page.screenshot({ path: join(RESULTS, 'timeline-streaming.png') });

    // The logged reply arrives: the streaming row goes, the turn's row shows the reply.
    await tp.send({ type: 'append', events: [reply], problems: [], loading: false });
    await tp.waitForEvents(3);
    await row.waitFor({ state: 'hidden' });
    // A late delta of the finished turn does not bring it back.
    await tp.send({ type: 'stream', turn: 1, text: ' stale', thinking: '' });
    await tp.page.waitForTimeout(50); // a frame: the row would have been redrawn by now
    assert.equal(await row.isVisible(), false);
    const turnRow = tp.page.locator('.row.k-model', { hasText: 'Turn 1' }).first();
    assert.match((await turnRow.locator('.c-summary').textContent()) ?? '', /Let me look at ledger\.js first\./);
  });

  it("the next run's first turn streams after the view showed a run that got further (its turns say nothing about this one's)", async () => {
    const turn3 = ev.model({ seq: 2, turn: 3, stop: 'end_turn', content: [{ type: 'text', text: 'Done.' }] });
    await load(tp, [...start, turn3]);
    await tp.send({ type: 'snapshot', source: { log: '/ws/.kite/runs/r2.jsonl', title: 'r2', live: true }, total: start.length, events: start, problems: [], loading: false });
    await tp.waitForEvents(start.length);
    await tp.send({ type: 'stream', turn: 1, text: 'A new run, turn one.', thinking: '' });
    const row = tp.page.locator('#stream-row');
    await row.waitFor({ state: 'visible' });
    assert.equal(await row.locator('.stream-text').textContent(), 'A new run, turn one.');
    assert.equal(await row.locator('.stream-title').textContent(), 'Turn 1 · generating…');
  });

  it("the details of a reply show its thinking collapsed, apart from the reply's text", async () => {
    await load(tp, [...start, reply]);
    await tp.page.locator('.row.k-model', { hasText: 'Turn 1' }).first().click();
    const details = tp.page.locator('#details');
    await details.waitFor({ state: 'visible' });
    const block = details.locator('.thinking-blocks details.thinking');
    assert.equal(await block.count(), 1);
    assert.equal(await block.evaluate((d) => (d as HTMLDetailsElement).open), false);
    const body = (await details.locator('.body').textContent()) ?? '';
    assert.match(body, /Let me look at ledger\.js first\./);
    assert.equal(body.includes(THINKING), false, 'the thinking is not spread into the body');
    // Keyboard: the summary is focusable and Enter opens it.
    await block.locator('summary').focus();
    await tp.page.keyboard.press('Enter');
    assert.equal(await block.evaluate((d) => (d as HTMLDetailsElement).open), true);
    assert.equal(await block.locator('pre').textContent(), THINKING);
  });

  it('Tell the agent: a labelled box, Enter sends, the outcome is announced; Shift+Enter is a new line', async () => {
    await load(tp, start);
    const input = tp.page.getByRole('textbox', { name: 'Tell the agent', exact: true });
    assert.equal(await input.evaluate((el) => el.tagName), 'TEXTAREA', 'the label names the text box');
    await input.focus();
    await tp.page.keyboard.type('Keep the old function');
    await tp.page.keyboard.press('Shift+Enter');
    await tp.page.keyboard.type('and add a flag.');
    await tp.page.keyboard.press('Enter');
    const steer = (await tp.posted()).filter((m) => m.type === 'steer');
    assert.deepEqual(steer, [{ type: 'steer', text: 'Keep the old function\nand add a flag.' }]);
    const status = tp.page.locator('#steer-status');
    assert.equal(await status.getAttribute('role'), 'status');
    await tp.page.waitForFunction(() => document.getElementById('steer-status')?.textContent === 'Sending…');
    // A second Enter while it is on its way sends nothing more.
    await tp.page.keyboard.press('Enter');
    assert.equal((await tp.posted()).filter((m) => m.type === 'steer').length, 1);

    await tp.send({ type: 'steerResult', ok: true, message: 'Sent to F4: the agent reads it at its next turn.' });
    await tp.page.waitForFunction(() => document.getElementById('steer-status')?.textContent === 'Sent to F4: the agent reads it at its next turn.');
    assert.equal(await input.inputValue(), '', 'the box is empty again');
    await tp.page.screenshot({ path: join(RESULTS, 'timeline-tell-agent.png') });

    // Nothing sent: the words stay for another try, and the reason is said.
    await input.fill('Also update the changelog');
    await tp.page.locator('.steer-send').click();
    await tp.send({ type: 'steerResult', ok: false, message: 'No agent is running, so there is nobody to tell.' });
    await tp.page.waitForFunction(() => /nobody to tell/.test(document.getElementById('steer-status')?.textContent ?? ''));
    assert.equal(await input.inputValue(), 'Also update the changelog');
    // An empty message is not sent; the box says why.
    await input.fill('   ');
    await tp.page.keyboard.press('Enter');
    await tp.page.waitForFunction(() => /Type a message/.test(document.getElementById('steer-status')?.textContent ?? ''));
    assert.equal((await tp.posted()).filter((m) => m.type === 'steer').length, 2);
  });

  it('the box, the streaming row and a reply with thinking pass axe (WCAG 2.1 AA)', async () => {
    await load(tp, [...start, reply]);
    await tp.send({ type: 'stream', turn: 2, text: 'Now the test.', thinking: 'A half paisa case.' });
    await tp.page.locator('#stream-row').waitFor({ state: 'visible' });
    await tp.page.locator('.row.k-model', { hasText: 'Turn 1' }).first().click();
    await tp.page.locator('#details').waitFor({ state: 'visible' });
    const v = await axeViolations(tp.page);
    assert.equal(v.length, 0, describeViolations(v));
  });
});
