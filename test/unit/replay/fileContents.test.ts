// File content at an event (the debugger's write frames and virtual documents) is rebuilt from the
// last whole write at or before it plus the edits after it (issue 17): the same content as
// replaying every write since the start, reading only the events it needs.
import assert from 'node:assert/strict';
import { EventIndex } from '../../../src/harness/replay/eventIndex';
import { fileContentAt } from '../../../src/harness/replay/fileContents';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { RunBuilder, type CallSpec } from '../../helpers/events';

/** A run writing and editing one file (and an edit-only prelude), with the content after each tool event. */
function writesAndEdits(): { events: KiteEvent[]; truth: Map<number, string | null> } {
  const b = new RunBuilder('writes-edits').start();
  const steps: { spec: CallSpec; after: string | null }[] = [];
  let text = 'v = 1\n';
  let n = 0;
  const call = (name: string, args: Record<string, unknown>, before: string | null, after: string | null) => {
    steps.push({ spec: { id: `toolu_${++n}`, name, args: { path: 'a.py', ...args }, before, ...(after === null ? {} : { after }) }, after });
  };
  // Only edited at first (it existed before the run): unknown until the first whole write.
  call('edit_file', { old_string: 'x', new_string: 'y' }, 'x = 0\n', null);
  call('write_file', { content: text }, 'y = 0\n', text);
  for (let k = 2; k <= 4; k++) {
    const next = text.replace(`v = ${k - 1}`, `v = ${k}`);
    call('edit_file', { old_string: `v = ${k - 1}`, new_string: `v = ${k}` }, text, next);
    text = next;
  }
  const whole = 'w = 10\nw = 10\n';
  call('write_file', { content: whole }, text, whole);
  text = whole;
  const all = text.split('w = 10').join('w = 11');
  call('edit_file', { old_string: 'w = 10', new_string: 'w = 11', replace_all: true }, text, all);
  text = all;
  const last = text.replace('w = 11\n', 'w = 12\n');
  call('edit_file', { old_string: 'w = 11\n', new_string: 'w = 12\n' }, text, last);
  for (const s of steps) b.turnWithCalls(`Change a.py (${s.spec.id}).`, [s.spec]);
  const events = b.end().events();
  const truth = new Map<number, string | null>();
  let k = 0;
  events.forEach((e, i) => {
    if (e.kind === 'tool') truth.set(i, steps[k++].after);
  });
  return { events, truth };
}

describe('file content at an event', () => {
  it('equals the content the run left after every event, from the last whole write and the edits after it', () => {
    const { events, truth } = writesAndEdits();
    const index = new EventIndex(events);
    let expected: string | null = null;
    for (let i = 0; i < events.length; i++) {
      if (truth.has(i)) expected = truth.get(i) ?? null;
      const got = fileContentAt(index, 'a.py', i);
      if (expected === null) assert.equal(got.known, false, `event ${i}: not known before the first whole write`);
      else assert.deepEqual(got, { known: true, content: expected, writes: got.writes }, `event ${i}`);
    }
    const end = fileContentAt(index, 'a.py', events.length - 1);
    assert.deepEqual(end, { known: true, content: 'w = 12\nw = 11\n', writes: 8 });
  });

  it('reads only the writes from the last whole write on', () => {
    const { events } = writesAndEdits();
    const read = new Set<number>();
    const index = new EventIndex({ length: events.length, at: (i) => (read.add(i), events[i]) });
    read.clear(); // building the index reads every event once
    fileContentAt(index, 'a.py', events.length - 1);
    const tools = [...read].filter((i) => events[i].kind === 'tool');
    const writes = index.writesByPath.get('a.py') ?? [];
    assert.equal(writes.length, 8);
    assert.deepEqual(tools, writes.slice(5).map((w) => w.index).reverse(), 'the second whole write and the two edits after it');
  });
});
