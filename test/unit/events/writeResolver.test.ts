import assert from 'node:assert/strict';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { WriteIndex, resolveWrite, type WriteSources } from '../../../src/harness/events/writeResolver';
import { MONEY_AFTER, MONEY_BEFORE, TEST_KEPT, TEST_PROPOSED, buildRun, sha } from '../../helpers/events';

function setup(base: (path: string, preHash: string | null | undefined) => string | null) {
  const events = buildRun();
  const index = new WriteIndex();
  for (const e of events) index.add(e);
  const bySeq = new Map<number, KiteEvent>(events.map((e) => [e.seq, e]));
  const src: WriteSources = { event: async (s) => bySeq.get(s) ?? null, base: async (p, h) => base(p, h) };
  return { events, index, src };
}

describe('write versions for the timeline diff', () => {
  it('rebuilds before / as proposed / as applied for an edited new file', async () => {
    const { events, index, src } = setup((_p, h) => (h === null ? '' : null));
    const approval = events.find((e) => e.kind === 'approval' && e.decision === 'edit')!;
    const call = index.callOf(approval)!;
    const v = await resolveWrite(index, call, src);
    assert.equal(v.path, 'tests/test_rounding.py');
    assert.equal(v.before, '');
    assert.equal(v.proposed, TEST_PROPOSED);
    assert.equal(v.applied, TEST_KEPT);
    assert.equal(v.edited, true);
    assert.deepEqual(v.notes, []);
  });

  it('replays earlier writes to the same path, from the file before the run', async () => {
    const { events, index, src } = setup((p, h) => (p === 'ledgerly/money.py' && h === sha(MONEY_BEFORE) ? MONEY_BEFORE : null));
    const edit = events.find((e) => e.kind === 'tool' && e.name === 'edit_file')!;
    const v = await resolveWrite(index, index.callOf(edit)!, src);
    assert.equal(v.before, MONEY_AFTER);
    assert.ok(v.applied?.includes('"""Fee rounded half-up to the paisa."""'));
    assert.equal(v.applied, v.proposed);
    assert.equal(v.edited, false);
    const first = events.find((e) => e.kind === 'intent' && e.name === 'write_file')!;
    const w = await resolveWrite(index, index.callOf(first)!, src);
    assert.equal(w.before, MONEY_BEFORE);
    assert.equal(w.applied, MONEY_AFTER);
  });

  it('says so when the content before the run is unknown, and still rebuilds what follows a full write', async () => {
    const { events, index, src } = setup(() => null);
    const first = events.find((e) => e.kind === 'intent' && e.name === 'write_file')!;
    const w = await resolveWrite(index, index.callOf(first)!, src);
    assert.equal(w.before, null);
    assert.equal(w.applied, MONEY_AFTER);
    assert.match(w.notes[0] ?? '', /before this write is not known/);
    // The edit after it applies to what the write_file left, which the log holds in full.
    const edit = events.find((e) => e.kind === 'tool' && e.name === 'edit_file')!;
    const v = await resolveWrite(index, index.callOf(edit)!, src);
    assert.equal(v.before, MONEY_AFTER);
    assert.ok(v.applied?.startsWith('from decimal import'));
  });

  it('notes a file changed outside the run: the rebuilt content does not match the logged pre_hash', async () => {
    const { events, index, src } = setup((p) => (p === 'ledgerly/money.py' ? 'changed by hand\n' : null));
    const first = events.find((e) => e.kind === 'intent' && e.name === 'write_file')!;
    const w = await resolveWrite(index, index.callOf(first)!, src);
    assert.equal(w.before, 'changed by hand\n');
    assert.equal(w.applied, MONEY_AFTER);
    assert.deepEqual(w.notes, ['the rebuilt content before the write does not match the hash recorded in the log; the file was changed outside the run']);
  });

  it('a proposal that never reached its intent (the run stopped first) is shown as not applied', async () => {
    const events = buildRun().filter((e) => !((e.kind === 'intent' || e.kind === 'tool') && e.id === 'toolu_04'));
    const index = new WriteIndex();
    for (const e of events) index.add(e);
    const bySeq = new Map<number, KiteEvent>(events.map((e) => [e.seq, e]));
    const src: WriteSources = { event: async (s) => bySeq.get(s) ?? null, base: async () => '' };
    const approval = events.find((e) => e.kind === 'approval' && e.decision === 'edit')!;
    const v = await resolveWrite(index, index.callOf(approval)!, src);
    assert.equal(v.proposed, TEST_PROPOSED);
    assert.equal(v.applied, null);
    assert.equal(v.edited, true);
    assert.deepEqual(v.notes, ['the write was not applied']);
  });

  it('ignores events that are not about a write', () => {
    const { events, index } = setup(() => null);
    const read = events.find((e) => e.kind === 'tool' && e.name === 'read_file')!;
    assert.equal(index.callOf(read), null);
    assert.equal(index.callOf(events[0]!), null);
  });
});
