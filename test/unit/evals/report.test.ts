// The suite's reports: the table, the cases × models matrix (pass rate, mean cost, mean turns per
// model), JUnit XML that CI parses (one testcase per case, escaped), Markdown.
import assert from 'node:assert/strict';
import { formatSuite, modelStats, suiteJunit, suiteMarkdown } from '../../../src/harness/evals/report';
import type { CaseResult } from '../../../src/harness/evals/runCase';
import type { SuiteResult } from '../../../src/harness/evals/runSuite';

const result = (o: Partial<CaseResult>): CaseResult => ({ case: 'c', model: 'script:a.json', status: 'pass', outcome: 'done', turns: 4, tokens: 1000, cost_usd: 0.01, ms: 1200, unmet: [], notes: '', log: null, error: null, ...o });

const matrix: SuiteResult = {
  models: ['anthropic:m1', 'anthropic:m2'],
  jobs: 2,
  wall_ms: 3000,
  results: [
    result({ case: 'fees', model: 'anthropic:m1', turns: 6, cost_usd: 0.02 }),
    result({ case: 'fees', model: 'anthropic:m2', status: 'fail', outcome: 'gate_failed', turns: 10, cost_usd: 0.04, unmet: ['outcome: expected done, got gate_failed'] }),
    result({ case: 'fizz', model: 'anthropic:m1', turns: 2, cost_usd: 0.01 }),
    result({ case: 'fizz', model: 'anthropic:m2', turns: 4, cost_usd: 0.02 }),
  ],
};

describe('eval reports', () => {
  it('several models: a matrix with pass rate, mean cost and mean turns per model, and each unmet expectation named with its model', () => {
    assert.deepEqual(modelStats(matrix).map((m) => [m.model, m.passed, m.cases, m.mean_turns, Number(m.mean_cost_usd.toFixed(4))]), [
      ['anthropic:m1', 2, 2, 4, 0.015],
      ['anthropic:m2', 1, 2, 7, 0.03],
    ]);
    const text = formatSuite(matrix);
    assert.match(text, /^fees\s+pass done\s+FAIL gate_failed$/m);
    assert.match(text, /^pass rate\s+2\/2 \(100%\)\s+1\/2 \(50%\)$/m);
    assert.match(text, /^mean turns\s+4\.0\s+7\.0$/m);
    assert.match(text, /^✗ fees \[anthropic:m2\]: outcome: expected done, got gate_failed$/m);
    assert.match(suiteMarkdown(matrix), /^\| anthropic:m2 \| 1\/2 \| \$0\.0300 \| 7\.0 \|$/m);
  });

  it('JUnit: one testcase per case, failures and errors counted, text escaped for XML', () => {
    const s: SuiteResult = {
      models: [],
      jobs: 1,
      wall_ms: 1000,
      results: [
        result({ case: 'a<b>&"c"', status: 'fail', unmet: ['files: x.js: does not match /<[a-z]>/'], notes: 'exit 1 & \u0007bell' }),
        result({ case: 'broken', status: 'error', outcome: 'not run', error: 'case.json: $.start: git worktree add failed' }),
        result({ case: 'ok' }),
      ],
    };
    const x = suiteJunit(s);
    assert.match(x, /<testsuites name="kite eval" tests="3" failures="1" errors="1"/);
    assert.match(x, /<testcase classname="kite.eval" name="a&lt;b&gt;&amp;&quot;c&quot;"/);
    assert.match(x, /<failure message="files: x\.js: does not match \/&lt;\[a-z\]&gt;\/">/);
    assert.ok(!x.includes('\u0007'), 'no control characters XML cannot carry');
    assert.match(x, /<testcase classname="kite.eval" name="broken"[^>]*>\s*<error message="case\.json: \$\.start: git worktree add failed">/);
  });
});
