import assert from 'node:assert/strict';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { WriteIndex, resolveWrite, type WriteSources } from '../../../src/harness/events/writeResolver';
import { MONEY_AFTER, MONEY_BEFORE, RunBuilder, TEST_KEPT, TEST_PROPOSED, buildRun, sha } from '../../helpers/events';
import { A_BEFORE_RUN, writesAndEdits } from '../../helpers/writesAndEdits';

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

describe('write versions of edit_file and write_file, edited or not, with later writes to the same file', () => {
  const BASE = 'a = 1\nb = 2\nc = 3\n';
  const AFTER_1 = 'a = 1\nb = 20\nc = 3\n'; // edit_file as proposed and applied
  const PROPOSED_2 = 'a = 1\nb = 20\nc = 30\n'; // edit_file as the model proposed it
  const KEPT_2 = 'a = 1\nb = 20\nc = 33  # the person\'s value\n'; // the person's version of the whole file
  const WHOLE_3 = 'a = 100\nb = 20\nc = 33  # the person\'s value\n'; // write_file, unedited
  const PROPOSED_4 = '# header\na = 100\nb = 20\nc = 33  # the person\'s value\n'; // write_file as proposed
  const KEPT_4 = '# header, reworded\na = 100\nb = 20\nc = 33  # the person\'s value\n';
  const AFTER_5 = '# header, reworded\na = 100\nb = 20\nc = 33  # the person\'s value\nd = 4\n';

  function run() {
    const b = new RunBuilder().start();
    b.turnWithCalls('Change b.', [{ id: 'w1', name: 'edit_file', args: { path: 'calc.py', old_string: 'b = 2\n', new_string: 'b = 20\n' }, before: BASE, after: AFTER_1 }]);
    b.turnWithCalls('Change c.', [
      {
        id: 'w2',
        name: 'edit_file',
        args: { path: 'calc.py', old_string: 'c = 3\n', new_string: 'c = 30\n' },
        approval: { decision: 'edit', edited_args: { path: 'calc.py', content: KEPT_2 }, diff: '(diff)' },
        before: AFTER_1,
        after: KEPT_2,
      },
    ]);
    b.turnWithCalls('Rewrite a.', [{ id: 'w3', name: 'write_file', args: { path: 'calc.py', content: WHOLE_3 }, before: KEPT_2 }]);
    b.turnWithCalls('Add a header.', [
      { id: 'w4', name: 'write_file', args: { path: 'calc.py', content: PROPOSED_4 }, approval: { decision: 'edit', edited_args: { path: 'calc.py', content: KEPT_4 } }, before: WHOLE_3 },
    ]);
    b.turnWithCalls('Add d.', [{ id: 'w5', name: 'edit_file', args: { path: 'calc.py', old_string: 'value\n', new_string: 'value\nd = 4\n' }, before: KEPT_4, after: AFTER_5 }]);
    const events = b.events();
    const index = new WriteIndex();
    for (const e of events) index.add(e);
    const bySeq = new Map<number, KiteEvent>(events.map((e) => [e.seq, e]));
    // The file before the run, as git holds it at the run's starting commit.
    const src: WriteSources = { event: async (s) => bySeq.get(s) ?? null, base: async (p, h) => (p === 'calc.py' && h === sha(BASE) ? BASE : null) };
    const versions = async (id: string) => {
      const tool = events.find((e) => e.kind === 'tool' && e.id === id)!;
      return resolveWrite(index, index.callOf(tool)!, src);
    };
    return { versions };
  }

  it('an unedited edit_file of a file that existed before the run: before from git, proposed = applied', async () => {
    const v = await run().versions('w1');
    assert.deepEqual({ before: v.before, proposed: v.proposed, applied: v.applied, edited: v.edited, notes: v.notes }, { before: BASE, proposed: AFTER_1, applied: AFTER_1, edited: false, notes: [] });
  });

  it('an edit_file the person edited: as proposed = the model\'s edit, as applied = the person\'s version, no error note', async () => {
    const v = await run().versions('w2');
    assert.deepEqual({ before: v.before, proposed: v.proposed, applied: v.applied, edited: v.edited, notes: v.notes }, { before: AFTER_1, proposed: PROPOSED_2, applied: KEPT_2, edited: true, notes: [] });
  });

  it('a write_file after an edited edit_file starts from the person\'s version', async () => {
    const v = await run().versions('w3');
    assert.deepEqual({ before: v.before, proposed: v.proposed, applied: v.applied, edited: v.edited, notes: v.notes }, { before: KEPT_2, proposed: WHOLE_3, applied: WHOLE_3, edited: false, notes: [] });
  });

  it('an edited write_file: as proposed = the model\'s content, as applied = the person\'s', async () => {
    const v = await run().versions('w4');
    assert.deepEqual({ before: v.before, proposed: v.proposed, applied: v.applied, edited: v.edited, notes: v.notes }, { before: WHOLE_3, proposed: PROPOSED_4, applied: KEPT_4, edited: true, notes: [] });
  });

  it('an edit_file after edited writes applies to what the person kept', async () => {
    const v = await run().versions('w5');
    assert.deepEqual({ before: v.before, proposed: v.proposed, applied: v.applied, edited: v.edited, notes: v.notes }, { before: KEPT_4, proposed: AFTER_5, applied: AFTER_5, edited: false, notes: [] });
  });
});

describe('write versions: from the last whole write (issue 17)', () => {
  it('rebuilds every write as the run left it, reading the file before the run and earlier writes only when needed', async () => {
    const { events, after, wholeWrites } = writesAndEdits();
    const index = new WriteIndex();
    for (const e of events) index.add(e);
    const read = new Set<number>();
    const bases: string[] = [];
    const src: WriteSources = {
      event: async (s) => (read.add(s), events[s] ?? null),
      base: async (p, h) => (bases.push(p), h === sha(A_BEFORE_RUN) ? A_BEFORE_RUN : null),
    };
    let prev: string | null = A_BEFORE_RUN;
    for (const [i, content] of after) {
      read.clear();
      bases.length = 0;
      const v = await resolveWrite(index, index.callOf(events[i])!, src);
      assert.deepEqual([v.before, v.applied, v.notes], [prev, content, []], `write at event ${i}`);
      // The file before the run is read only while no whole write precedes this one.
      assert.deepEqual(bases, i <= (wholeWrites[0] ?? 0) ? ['a.py'] : [], `base read for the write at event ${i}`);
      const lastWhole = wholeWrites.filter((w) => w < i).at(-1);
      if (lastWhole !== undefined) assert.ok([...read].every((s) => s >= lastWhole - 4), `write at event ${i} read only from the last whole write on: ${[...read].join(' ')}`);
      prev = content;
    }
  });
});
