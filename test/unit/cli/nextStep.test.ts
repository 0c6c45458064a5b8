// After a run that did not end done, `kite run` says what to do next as commands a person can paste:
// a failed feature is skipped by the next plain `kite run`, so without this line it looks locked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CapturedLines } from '../../helpers/capturedLines';
import { nextStep } from '../../../src/harness/cli/nextStep';
import { report } from '../../../src/harness/cli/runCommand';
import { usdLimitText } from '../../../src/harness/budget/usdLimitText';
import { describeStop } from '../../../src/harness/budget/budget';
import type { RunSummary } from '../../../src/harness/run';

const log = join(__dirname, '..', '..', 'fixtures', 'logs', 'demo-run.jsonl');
const summary = (outcome: RunSummary['outcome'], feature = 'F1'): RunSummary => ({ feature, outcome, turns: 2, tokens: 100, cost_usd: 0, commit: null, logPath: log, proposals: [] });


describe('kite run: the next step after a run that did not end done', () => {
  it('a failed gate: diagnose, retry with --feature, reset to todo — and it is the last stderr line', async () => {
    const c = new CapturedLines();
    assert.equal(await report(summary('gate_failed'), c, true), 1);
    assert.equal(c.stderr.at(-1), 'Next: kite diagnose demo-run explains it; kite run --feature F1 retries it; kite reset F1 puts it back to todo.');
  });

  it('a done run prints no next step', async () => {
    const c = new CapturedLines();
    assert.equal(await report(summary('done'), c, true), 0);
    assert.ok(!c.stderr.some((l) => l.startsWith('Next:')), c.stderr.join('\n'));
  });

  it('names the project folder and the log path when the run was not in the current folder', () => {
    const n = nextStep(summary('error'), 'my project')!;
    assert.match(n, /kite run 'my project' --feature F1 retries it/);
    assert.match(n, /kite reset F1 'my project' puts it back/);
    assert.match(n, /kite diagnose \S*demo-run\.jsonl explains it/);
  });

  it('unverified says how to give the gate a check', () => {
    assert.match(nextStep(summary('unverified'), undefined)!, /a check in \.kite\/config\.json "checks".*"verify" command on F1.*kite run --feature F1\.$/);
  });

  it('a budget stop suggests a larger limit; a cancelled run is picked up again by kite run', () => {
    assert.match(nextStep(summary('budget_exceeded'), undefined)!, /--max-usd/);
    assert.match(nextStep(summary('cancelled'), undefined)!, /^Next: kite run picks F1 up again/);
  });

  it('quotes a feature id a shell would split', () => {
    assert.match(nextStep(summary('stuck', 'F 1; rm -rf ~'), undefined)!, /--feature 'F 1; rm -rf ~' retries/);
  });
});

describe('dollar limits are shown as the person gave them', () => {
  it('under a cent stays exact, whole cents keep two decimals', () => {
    assert.equal(usdLimitText(0.005), '$0.005');
    assert.equal(usdLimitText(2), '$2.00');
    assert.equal(usdLimitText(0.07), '$0.07');
    assert.equal(describeStop({ limit: 'usd', used: 0.0061, max: 0.005 } as Parameters<typeof describeStop>[0]), 'dollar budget reached: $0.0061 of $0.005 spent');
  });
});
