// Per-hunk Reject says what happens next before the person confirms (issue 18 item 8): more
// changes to decide, or — on the last one — that Kite answers the agent now, and how.
import assert from 'node:assert/strict';
import { nextAfterReject } from '../../../src/extension/approvals/rejectText';

describe('per-hunk Reject: what happens next', () => {
  it('with changes still undecided: says how many are left before Kite answers', () => {
    assert.match(nextAfterReject(2, 0), /2 more changes to decide before Kite answers the agent/);
    assert.match(nextAfterReject(1, 3), /1 more change to decide/);
  });

  it('the last change: Kite writes what was accepted, or leaves the file and tells the agent', () => {
    assert.match(nextAfterReject(0, 1), /last undecided change: Kite then writes the changes you accepted/);
    assert.match(nextAfterReject(0, 0), /rejected them all, so Kite leaves the file as it is and tells the agent why/);
  });
});
