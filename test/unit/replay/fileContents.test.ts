// File content at an event (the debugger's "files touched" variables) is rebuilt from the last
// whole write at or before it plus the edits after it (issue 17): the same content as replaying
// every write since the start, reading only the events it needs.
import assert from 'node:assert/strict';
import { EventIndex } from '../../../src/harness/replay/eventIndex';
import { fileContentAt } from '../../../src/harness/replay/fileContents';
import { writesAndEdits } from '../../helpers/writesAndEdits';

describe('file content at an event', () => {
  it('equals the content the run left after every event, from the last whole write and the edits after it', () => {
    const { events, after, wholeWrites } = writesAndEdits();
    const index = new EventIndex(events);
    let expected: string | null = null;
    for (let i = 0; i < events.length; i++) {
      if (after.has(i)) expected = after.get(i) ?? null;
      const got = fileContentAt(index, 'a.py', i);
      // Before the first whole write only edits of a file the log never held whole: unknown.
      if (i < (wholeWrites[0] ?? 0)) assert.equal(got.known, false, `event ${i}`);
      else assert.deepEqual(got, { known: true, content: expected, writes: got.writes }, `event ${i}`);
    }
    assert.deepEqual(fileContentAt(index, 'a.py', events.length - 1), { known: true, content: 'w = 12\nw = 11\n', writes: 8 });
  });

  it('reads only the writes from the last whole write on', () => {
    const { events, wholeWrites } = writesAndEdits();
    const read = new Set<number>();
    const index = new EventIndex({ length: events.length, at: (i) => (read.add(i), events[i]) });
    read.clear(); // building the index reads every event once
    fileContentAt(index, 'a.py', events.length - 1);
    const tools = [...read].filter((i) => events[i].kind === 'tool').sort((a, b) => a - b);
    const writes = (index.writesByPath.get('a.py') ?? []).map((w) => w.index);
    assert.equal(writes.length, 8);
    assert.deepEqual(tools, writes.filter((i) => i >= (wholeWrites[1] ?? 0)), 'the second whole write and the two edits after it');
  });
});
