// Which diffs "Open diff" offers for one write (issue 18 item 5): fixed titles, only sides that
// were rebuilt, and a reason (not an empty side) when the content before is unknown.
import assert from 'node:assert/strict';
import { cannotRebuild, diffViews } from '../../../src/extension/timeline/diffViews';
import type { WriteVersions } from '../../../src/harness/events/writeResolver';

const v = (o: Partial<WriteVersions>): WriteVersions => ({ path: 'a.txt', before: 'b\n', proposed: 'p\n', applied: 'p\n', edited: false, notes: [], ...o });

describe('the diffs Open diff offers for a write', () => {
  it('an unedited write: one diff, before ↔ as applied', () => {
    assert.deepEqual(diffViews(v({})).map((d) => [d.title, d.left.text, d.right.text]), [['before ↔ as applied', 'b\n', 'p\n']]);
  });

  it('an edited write: before ↔ as applied first, then before ↔ as proposed, then the person\'s edit', () => {
    const views = diffViews(v({ applied: 'kept\n', edited: true }));
    assert.deepEqual(views.map((d) => [d.title, d.left.text, d.right.text]), [
      ['before ↔ as applied', 'b\n', 'kept\n'],
      ['before ↔ as proposed', 'b\n', 'p\n'],
      ['as proposed ↔ as applied', 'p\n', 'kept\n'],
    ]);
  });

  it('a write that was never applied (denied, or the run stopped): before ↔ as proposed', () => {
    assert.deepEqual(diffViews(v({ applied: null, notes: ['the write was not applied'] })).map((d) => d.title), ['before ↔ as proposed']);
  });

  it('content before unknown: no diff (never an empty left side), and the reason', () => {
    const w = v({ before: null, notes: ['the content of a.txt before this write is not known (no git commit or file matching the logged hash)'] });
    assert.deepEqual(diffViews(w), []);
    assert.match(cannotRebuild(w), /before this write is not known/);
  });

  it('no title ever carries a note', () => {
    const views = diffViews(v({ edited: true, applied: 'k\n', notes: ['the edit does not apply to the rebuilt content: old_string was not found'] }));
    for (const d of views) assert.doesNotMatch(d.title, /apply|rebuilt|not found/);
  });
});
