// What a case expects, against what its run did: each unmet expectation is one sentence naming
// the field (what `kite eval` prints after ✗ and puts in the JUnit failure).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExpectSchema, loadCase, SuiteError } from '../../../src/harness/evals/evalCase';
import { unmetExpectations, type RunFacts } from '../../../src/harness/evals/expectations';
import { ev } from '../../helpers/events';
import { tempDir } from '../loop/kit';

function facts(o: Partial<RunFacts> = {}): RunFacts {
  const root = tempDir();
  writeFileSync(join(root, 'a.js'), 'const fee = Math.round(x);\n');
  return {
    events: [ev.gate({ passed: false }), ev.gate({ passed: true })],
    outcome: 'done',
    turns: 7,
    tokens: 1200,
    cost_usd: 0.02,
    changed: new Set(['a.js']),
    root,
    diagnosis: { headline: '', findings: [{ kind: 'gate_failure', severity: 'warning', message: 'The gate failed (attempt 1)', cause: 'command not found: pdf', seqs: [1] }] },
    contracts: [{ id: 'read-first', action: 'forbid', status: 'held', seq: null, message: 'read first' }, { id: 'ran-tests', action: 'require', status: 'unmet', seq: null, message: 'run the tests: it never happened' }],
    ...o,
  };
}

describe('eval expectations', () => {
  it('all met: nothing unmet', () => {
    const e = ExpectSchema.parse({ outcome: 'done', gates: ['failed', 'passed'], files: [{ path: 'a.js', changed: true, contains: 'Math.round', matches: 'round\\(x\\)' }, { path: 'b.js', changed: false }], diagnosis: 'not found: pdf', max_turns: 7, max_tokens: 1200, max_usd: 0.02, contracts: ['read-first'] });
    assert.deepEqual(unmetExpectations(e, facts()), []);
  });

  it('each unmet expectation names its field and what happened instead', () => {
    const e = ExpectSchema.parse({ outcome: 'gate_failed', gates: ['passed'], files: [{ path: 'a.js', changed: false, matches: 'toFixed' }, { path: 'gone.js', contains: 'x' }, { path: 'new.js', changed: true }], diagnosis: 'ENOSPC', max_turns: 5, max_tokens: 1000, max_usd: 0.01, contracts: ['ran-tests', 'nope'] });
    assert.deepEqual(unmetExpectations(e, facts()), [
      'outcome: expected gate_failed, got done',
      'gates: expected [passed], got [failed, passed]',
      'files: a.js: must not change, it changed',
      'files: a.js: does not match /toFixed/',
      'files: gone.js: does not exist at the end',
      'files: new.js: expected a change, it was not changed',
      'diagnosis: no finding matches /ENOSPC/ (command not found: pdf)',
      'contracts: ran-tests: unmet: run the tests: it never happened',
      "contracts: nope: no such contract in the case's config or feature (known: read-first, ran-tests)",
      'max_turns: 7 turns, more than 5',
      'max_tokens: 1200 tokens, more than 1000',
      'max_usd: $0.0200, more than $0.01',
    ]);
  });

  it('a malformed case names the file and the field', () => {
    const dir = join(tempDir(), 'bad-case');
    mkdirSync(dir);
    writeFileSync(join(dir, 'case.json'), JSON.stringify({ start: { folder: 'p' }, feature: { id: 'F1', title: 'x' }, expect: { outcome: 'finished', diagnosis: '(' } }));
    assert.throws(
      () => loadCase(dir),
      (e: unknown) => e instanceof SuiteError && e.message.startsWith(join(dir, 'case.json')) && /\$\.expect\.outcome/.test(e.message) && /\$\.expect\.diagnosis: not a valid regular expression/.test(e.message),
    );
  });
});
