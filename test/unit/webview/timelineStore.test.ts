import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { NO_FILTER } from '../../../webview-ui/model/filters';
import { TOOL_NAMES_KEPT, TimelineStore } from '../../../webview-ui/model/timelineStore';
import { ev } from '../../helpers/events';

const demo = readFileSync(join(__dirname, '../../fixtures/logs/demo-run.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);
const titles = (s: TimelineStore) => s.visible.map((i) => s.row(i)?.title);

function loaded(events: KiteEvent[] = demo): TimelineStore {
  const s = new TimelineStore();
  s.append(events);
  return s;
}

describe('timeline store', () => {
  it('groups rows by model turn: setup first, then one group per model reply', () => {
    const s = loaded();
    assert.equal(s.rowCount, 45);
    assert.deepEqual(s.groups.map((g) => g.turn), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(s.groups.map((g) => g.count), [3, 4, 7, 4, 4, 7, 7, 5, 4]);
    // The gate after turn 4 belongs to turn 4; every row carries its turn.
    const gate = s.row(19);
    assert.equal(gate?.kind, 'gate');
    assert.equal(gate?.turn, 4);
    const rows = Array.from({ length: s.rowCount }, (_, i) => s.row(i)!);
    assert.ok(rows.filter((r) => r.head).every((r) => r.kind === 'model' || r.index === 0));
    assert.equal(s.totals.turns, 8);
    assert.equal(s.totals.errors, 3);
    assert.equal(s.totals.outcome, 'done');
    assert.equal(s.matchCount, 45);
  });

  it('filters errors only, showing each matching row under its turn row', () => {
    const s = loaded();
    s.setFilter({ ...NO_FILTER, errorsOnly: true });
    assert.deepEqual(titles(s), ['Turn 3', 'Policy: deny', 'run', 'Turn 4', 'Gate failed']);
    assert.equal(s.matchCount, 3);
    assert.equal(s.rowPasses(s.row(14)!), false); // Turn 3 is context, not a match
  });

  it('filters by kind, by tool and by text, and combines them', () => {
    const s = loaded();
    s.setFilter({ ...NO_FILTER, kind: 'policy' });
    assert.equal(s.matchCount, 12); // 6 policy decisions + 3 approval requests + 3 approvals
    s.setFilter({ ...NO_FILTER, tool: 'edit_file' });
    assert.deepEqual(titles(s), ['Turn 6', 'edit_file', 'Policy: ask', 'Approval asked', 'Approved', 'Intent', 'edit_file']);
    s.setFilter({ ...NO_FILTER, tool: 'write_file', kind: 'tools' });
    assert.equal(s.matchCount, 6);
    s.setFilter({ ...NO_FILTER, text: 'PIPE-TO-SHELL' });
    assert.deepEqual(titles(s), ['Turn 3', 'Policy: deny', 'run']);
    s.setFilter({ ...NO_FILTER, text: 'no such text anywhere' });
    assert.deepEqual(s.visible, []);
    s.setFilter(NO_FILTER);
    assert.equal(s.visible.length, 45);
  });

  it('collapses and expands turns', () => {
    const s = loaded();
    s.setCollapsed(1, true);
    assert.equal(s.visible.length, 42);
    assert.equal(s.positionOf(4), -1);
    s.setAllCollapsed(true);
    assert.equal(s.visible.length, 9);
    s.setAllCollapsed(false);
    assert.equal(s.visible.length, 45);
    // A collapsed turn that has matches still shows its turn row.
    s.setCollapsed(3, true);
    s.setFilter({ ...NO_FILTER, errorsOnly: true });
    assert.deepEqual(titles(s), ['Turn 3', 'Turn 4', 'Gate failed']);
    assert.equal(s.groups[3]?.matches, 2);
  });

  it('appends at the end in O(1): a new row is filtered on its own, and its turn row comes with it', () => {
    const s = loaded(demo.slice(0, 14)); // up to the end of turn 2
    s.setFilter({ ...NO_FILTER, errorsOnly: true });
    assert.deepEqual(s.visible, []);
    let r = s.append(demo.slice(14, 16)); // Turn 3 + proposed: no error yet
    assert.equal(r.visibleFrom, -1);
    r = s.append(demo.slice(16, 17)); // the deny
    assert.equal(r.visibleFrom, 0);
    assert.deepEqual(titles(s), ['Turn 3', 'Policy: deny']);
    // Collapsed turn: the new match counts but stays hidden.
    s.setCollapsed(3, true);
    s.append(demo.slice(17, 18));
    assert.deepEqual(titles(s), ['Turn 3']);
    assert.equal(s.groups[3]?.matches, 2);
    assert.equal(s.matchCount, 2);
  });

  it('skips events it already has (a duplicate after a reload) and reports new tool names once', () => {
    const s = new TimelineStore();
    const r1 = s.append(demo.slice(0, 10));
    assert.deepEqual(r1.newTools, ['read_file', 'write_file']);
    const r2 = s.append(demo.slice(5, 20));
    assert.equal(r2.skipped, 5);
    assert.equal(r2.rowsAdded, 10);
    assert.deepEqual(r2.newTools, ['run']);
    assert.deepEqual(s.tools, ['read_file', 'write_file', 'run']);
  });

  it('finds rows by seq and by turn for reveal and chart clicks', () => {
    const s = loaded();
    assert.equal(s.rowOfSeq(19), 19);
    assert.equal(s.rowOfSeq(999), -1);
    assert.equal(s.rowOfTurnIndex(0), 3);
    assert.equal(s.rowOfTurnIndex(7), 41);
    assert.equal(s.rowOfTurnIndex(8), -1);
  });

  it('starts a new group when a log begins with a model reply (a resumed or partial log)', () => {
    const s = loaded([{ ...ev.model({ turn: 5 }), seq: 0 }, { ...ev.tool(), seq: 1 }]);
    assert.deepEqual(s.groups.map((g) => [g.turn, g.count]), [[5, 2]]);
    assert.equal(s.row(1)?.turn, 5);
  });

  it('names an approval\'s tool from its call for the latest calls (at least TOOL_NAMES_KEPT), and forgets older ones: memory bounded', () => {
    const s = new TimelineStore();
    const calls = 3 * TOOL_NAMES_KEPT + 10;
    const events: KiteEvent[] = [];
    for (let i = 0; i < calls; i++) events.push({ ...ev.intent({ id: `call_${i}`, name: i % 2 ? 'run_command' : 'write_file' }), seq: i, t: i });
    s.append(events);
    const approvalOf = (i: number, seq: number) => {
      s.append([{ ...ev.approval({ id: `call_${i}` }), seq, t: seq }]);
      return s.row(s.rowCount - 1);
    };
    let seq = calls;
    for (const back of [1, 2, TOOL_NAMES_KEPT]) {
      const i = calls - back;
      assert.equal(approvalOf(i, seq++)?.tool, i % 2 ? 'run_command' : 'write_file', `the call ${back} calls back is named`);
    }
    const oldest = approvalOf(0, seq++);
    assert.equal(oldest?.tool, null, 'the first call, 3 generations back, is forgotten');
    assert.equal(oldest?.summary, 'call_0', 'its approval names the call by id');
  });
});
