// results.json beside each suite run's logs: the Evals view's "last result per case" is the newest
// result of each case of this suite, whichever run (VS Code or kite eval) produced it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastResults, writeSuiteResults } from '../../../src/harness/evals/suiteResults';
import type { CaseResult } from '../../../src/harness/evals/runCase';

const result = (name: string, status: CaseResult['status'], outcome: string): CaseResult => ({ case: name, model: 'script:replies.json', status, outcome, turns: 2, tokens: 300, cost_usd: 0, ms: 10, unmet: status === 'fail' ? ['outcome: expected done, got error'] : [], notes: '', log: `/logs/${name}.jsonl`, error: null });

describe('eval results (results.json)', () => {
  let logs: string;
  beforeEach(() => (logs = mkdtempSync(join(tmpdir(), 'kite-eval-results-'))));
  afterEach(() => rmSync(logs, { recursive: true, force: true }));

  it('keeps the newest result of each case of the suite, from every run folder', () => {
    writeSuiteResults(join(logs, 'eval-1'), '/ws/.kite/evals', { results: [result('a', 'fail', 'error'), result('b', 'pass', 'done')], models: [], jobs: 1, wall_ms: 5 }, new Date('2026-01-01T00:00:00Z'));
    writeSuiteResults(join(logs, 'eval-2'), '/ws/.kite/evals', { results: [result('a', 'pass', 'done')], models: [], jobs: 1, wall_ms: 5 }, new Date('2026-01-02T00:00:00Z'));
    writeSuiteResults(join(logs, 'eval-3'), '/elsewhere/suite', { results: [result('b', 'fail', 'gate_failed')], models: [], jobs: 1, wall_ms: 5 }, new Date('2026-01-03T00:00:00Z'));
    const last = lastResults(logs, '/ws/.kite/evals');
    assert.equal(last.get('a')?.status, 'pass', 'the newer run wins');
    assert.equal(last.get('b')?.outcome, 'done', "another suite's result is not this case's");
    assert.equal(last.get('b')?.finished_at, '2026-01-01T00:00:00.000Z');
  });

  it('skips a torn results file and a missing log folder instead of failing', () => {
    mkdirSync(join(logs, 'eval-torn'));
    writeFileSync(join(logs, 'eval-torn', 'results.json'), '{"suite": "/ws/.kite/ev');
    assert.equal(lastResults(logs, '/ws/.kite/evals').size, 0);
    assert.equal(lastResults(join(logs, 'nope'), '/ws/.kite/evals').size, 0);
  });
});
