import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoggedGate } from '../../../src/harness/events/loggedGate';
import { Gate, tail } from '../../../src/harness/gate/gate';
import { createRunner } from '../../../src/harness/sandbox/runner';
import { hostSandbox } from '../../helpers/sandbox';
import { MemorySink, tempDir } from '../loop/kit';

describe('gate', function () {
  const runner = createRunner({ sandbox: hostSandbox() });
  let root: string;
  before(() => {
    root = tempDir();
    writeFileSync(join(root, 'noisy.js'), "for (let i = 0; i < 2000; i++) console.log('line ' + i); console.error('the real error is here'); process.exit(3);\n");
  });

  it('passes when every check and the verify command exit 0', async () => {
    const g = new Gate({ root, checks: ['true', 'node -e "process.exit(0)"'], verify: 'test -d .', timeoutS: 10, runner });
    const v = await g.check({ attempt: 1, maxAttempts: 3 });
    assert.equal(v.passed, true);
    assert.equal(v.feedback, '');
    assert.deepEqual(v.checks.map((c) => [c.command, c.source, c.exit_code]), [
      ['true', 'check', 0],
      ['node -e "process.exit(0)"', 'check', 0],
      ['test -d .', 'verify', 0],
    ]);
  });

  it('names the failing command, its exit code and the clipped tail of its output; passing ones are listed', async () => {
    const g = new Gate({ root, checks: ['true', 'node noisy.js'], verify: null, timeoutS: 10, runner, tailChars: 500 });
    const v = await g.check({ attempt: 2, maxAttempts: 3 });
    assert.equal(v.passed, false);
    const failed = v.checks[1];
    assert.equal(failed.exit_code, 3);
    assert.ok(failed.output_tail.length < 700, `tail is clipped (${failed.output_tail.length})`);
    assert.match(failed.output_tail, /earlier characters cut/);
    assert.match(failed.output_tail, /the real error is here/);
    assert.match(v.feedback, /FAILED: `node noisy\.js` \(a project check\) exited with code 3/);
    assert.match(v.feedback, /the real error is here/);
    assert.match(v.feedback, /Passed: `true`/);
    assert.match(v.feedback, /attempt 2 of 3/);
    assert.match(v.feedback, /One more failed gate ends this session as gate_failed/);
  });

  it("a missing verify target fails as the feature's verify command", async () => {
    const g = new Gate({ root, checks: [], verify: 'node --test test/missing.test.js', timeoutS: 10, runner });
    const v = await g.check({ attempt: 1, maxAttempts: 3 });
    assert.equal(v.passed, false);
    assert.match(v.feedback, /`node --test test\/missing\.test\.js` \(the feature's verify command\) exited with code 1/);
    assert.match(v.feedback, /Could not find/);
  });

  it('a check that runs too long is killed and reported as timed out', async () => {
    const g = new Gate({ root, checks: ['sleep 5'], verify: null, timeoutS: 0.3, runner });
    const v = await g.check({ attempt: 1, maxAttempts: 3 });
    assert.equal(v.passed, false);
    assert.equal(v.checks[0].timed_out, true);
    assert.match(v.feedback, /timed out after 0\.3 s and was killed/);
  });

  it('the logged gate writes one gate event per verdict with per-check results', async () => {
    const sink = new MemorySink();
    const g = new LoggedGate(new Gate({ root, checks: ['false'], verify: null, timeoutS: 10, runner }), sink);
    await g.check({ attempt: 1, maxAttempts: 3 });
    const [e] = sink.of('gate');
    assert.equal(e.passed, false);
    assert.equal(e.attempt, 1);
    assert.equal(e.checks[0].exit_code, 1);
    assert.match(e.feedback, /`false`/);
  });

  it('tail keeps short text whole and cuts long text at a line boundary', () => {
    assert.equal(tail('abc', 10), 'abc');
    const t = tail('aaaa\nbbbb\ncccc\n', 8);
    assert.match(t, /^\[… \d+ earlier characters cut …\]\n/);
    assert.ok(t.endsWith('cccc\n'));
  });
});
