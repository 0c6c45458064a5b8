import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { NO_FILTER } from '../../../webview-ui/model/filters';
import { describeTokens, rowLabel } from '../../../webview-ui/model/rowColumns';
import { rowFromEvent, type RowContext } from '../../../webview-ui/model/rows';
import { TimelineStore } from '../../../webview-ui/model/timelineStore';
import { ev } from '../../helpers/events';

const ctx: RowContext = { group: 1, turn: 3, head: false, toolNameOf: () => null };
const demo = readFileSync(join(__dirname, '../../fixtures/logs/demo-run.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);

describe('timeline row labels (what a screen reader says for a row)', () => {
  it('names every figure, and each token kind instead of its dot colour', () => {
    const row = rowFromEvent(ev.model({ turn: 3, t: 11.2, ms: 2031, stop: 'tool_use', input_tokens: 410, cache_read_input_tokens: 2200, cache_creation_input_tokens: 0, output_tokens: 70, cost_usd: 0.0021 }), 0, { ...ctx, head: true });
    assert.equal(rowLabel(row, 'Turn 3', 'Reading.'), 'Turn 3, tool_use. Reading. time 0:11.2, turn 3, duration 2.03s, tokens: input 410, cache read 2.2k, cache write 0, output 70, cost $0.0021');
    assert.equal(describeTokens({ input: 1, cacheRead: 2, cacheWrite: 3, output: 4, estimated: false }, String), 'input 1, cache read 2, cache write 3, output 4');
  });

  it('estimated token counts (VS Code language models) are marked "~", in the row and in what is said, also when read back from the row table', () => {
    const model = ev.model({ turn: 1, t: 1, ms: 900, stop: 'end_turn', input_tokens: 1200, output_tokens: 40, cost_usd: 0 });
    const row = rowFromEvent({ ...model, estimated: true }, 0, { ...ctx, head: true });
    assert.equal(describeTokens(row.tokens!), 'input ~1.2k, cache read ~0, cache write ~0, output ~40 (estimated)');
    const s = new TimelineStore();
    s.append([{ ...model, estimated: true }, { ...model, seq: model.seq + 1, turn: 2 }]);
    assert.equal(s.row(0)?.tokens?.estimated, true);
    assert.equal(s.row(1)?.tokens?.estimated, false);
  });

  it('says a problem in words, and leaves out the figures a row does not have', () => {
    const denied = rowFromEvent(ev.policy({ t: 1, decision: 'deny', name: 'run', rule: 'deny:x', reason: '' }), 0, { ...ctx, turn: 0 });
    assert.equal(rowLabel(denied, denied.title, denied.summary), 'Policy: deny, error. run · deny:x. time 0:01.0');
    const gateFailed = rowFromEvent(ev.gate({ t: 2, passed: false }), 0, ctx);
    assert.match(rowLabel(gateFailed, gateFailed.title, gateFailed.summary), /^Gate failed, error\. /);
  });
});

describe('timeline tree positions (aria-posinset / aria-setsize of the virtualized rows)', () => {
  it('counts turns among the shown turns and events within their turn, with and without a filter', () => {
    const s = new TimelineStore();
    s.append(demo);
    assert.deepEqual(s.treePosition(0), { posinset: 1, setsize: 9 });
    assert.deepEqual(s.treePosition(14), { posinset: 4, setsize: 9 });
    assert.deepEqual(s.treePosition(17), { posinset: 3, setsize: 3 });
    s.setFilter({ ...NO_FILTER, errorsOnly: true });
    assert.deepEqual(s.treePosition(14), { posinset: 1, setsize: 2 });
    assert.deepEqual(s.treePosition(16), { posinset: 1, setsize: 2 });
    assert.deepEqual(s.treePosition(18), { posinset: 2, setsize: 2 });
    assert.equal(s.treePosition(3), null, 'a hidden row has no place');
  });

  it('keeps counting as a filtered live run appends (a new turn shown by its first match)', () => {
    const s = new TimelineStore();
    s.setFilter({ ...NO_FILTER, errorsOnly: true });
    s.append(demo.slice(0, 18));
    assert.deepEqual(s.treePosition(14), { posinset: 1, setsize: 1 });
    s.append(demo.slice(18));
    assert.deepEqual(s.treePosition(18), { posinset: 2, setsize: 2 });
    assert.deepEqual(s.treePosition(14), { posinset: 1, setsize: 2 });
  });

  it('drops collapsed events from the tree', () => {
    const s = new TimelineStore();
    s.append(demo);
    s.setCollapsed(3, true);
    assert.equal(s.treePosition(16), null);
    assert.deepEqual(s.treePosition(14), { posinset: 4, setsize: 9 });
  });
});
