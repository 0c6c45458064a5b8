// The notification of a failed gate attempt the run goes on from (issue 18 leftover): it names the
// check (its command), how it failed and the line of its output that says what broke.
import assert from 'node:assert/strict';
import { gateAttemptSentence } from '../../../src/harness/events/whyEnded';
import type { CheckResult } from '../../../src/harness/protocol/events';

const check = (over: Partial<CheckResult>): CheckResult => ({ command: 'npm test', exit_code: 1, ms: 40, timed_out: false, output_tail: '', source: 'check', ...over });

describe('gate attempt notification', () => {
  it('names the failing check, its exit code and the output line that says what failed', () => {
    const out = '> sample@1.0.0 test\n> node --test\n\nnot ok 1 - adds a late fee\n  AssertionError: expected 102 to equal 102.5\n';
    const s = gateAttemptSentence('F1', { attempt: 1, checks: [check({ output_tail: out }), check({ command: 'npm run lint', exit_code: 0 })], feedback: 'x' }, 3);
    assert.equal(s, 'F1: gate attempt 1 of 3 failed: `npm test` (a project check) exited with code 1 ("not ok 1 - adds a late fee"); the agent was told and tries again.');
  });

  it('a verify command that printed nothing says only how it failed; a long line is clipped', () => {
    assert.equal(
      gateAttemptSentence('F2', { attempt: 2, checks: [check({ command: 'make verify', source: 'verify', exit_code: 127 })], feedback: '' }, null),
      "F2: gate attempt 2 failed: `make verify` (the feature's verify command) exited with code 127 (command not found); the agent was told and tries again.",
    );
    const long = gateAttemptSentence('F3', { attempt: 1, checks: [check({ output_tail: `Error: ${'x'.repeat(300)}` })], feedback: '' }, 2);
    assert.match(long, /\("Error: x+…"\); the agent/);
    assert.ok(long.length < 260, long);
  });
});
