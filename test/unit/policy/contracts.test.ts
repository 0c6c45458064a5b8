// Trajectory contracts: each pattern checked live (the monitor folding events one by one and
// looking ahead at each step before it happens, as the loop does) and offline (checkContracts over
// the finished log) on the same events; and the two agree on every log in test/fixtures.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { checkContracts, ContractMonitor, ContractsSchema, stepOf, type Contract, type ContractStatus } from '../../../src/harness/policy/contracts';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { ev } from '../../helpers/events';

let seq = 0;
const at = <E extends KiteEvent>(e: E): E => ({ ...e, seq: seq++ });
const tool = (name: string, path: string | null, args: Record<string, unknown> = path ? { path } : {}) => at(ev.tool({ name, args, path }));
const refused = (name: string, path: string) => at(ev.tool({ name, args: { path }, path, is_error: true, error_code: 'denied', output: 'Denied by policy.' }));
const gate = (passed: boolean) => at(ev.gate({ passed }));
const says = (text: string) => at(ev.model({ content: [{ type: 'text', text }] }));
const personDenies = () => at(ev.approval({ decision: 'deny', reason: 'no' }));

const contract = (c: unknown): Contract => ContractsSchema.parse([c])[0];

interface Checked {
  live: ContractStatus;
  offline: ContractStatus;
  /** Seqs of the events the live lookahead said would break the contract. */
  flagged: number[];
}

/** Live: lookahead at each step, then fold it in; offline: the finished log. */
function both(c: Contract, events: readonly KiteEvent[]): Checked {
  const m = new ContractMonitor([c]);
  const flagged: number[] = [];
  for (const e of events) {
    const s = stepOf(e);
    if (s && m.wouldViolate(s).length) flagged.push(e.seq);
    m.observe(e);
  }
  return { live: m.verdicts()[0].status, offline: checkContracts([c], events)[0].status, flagged };
}

describe('trajectory contracts: each pattern, live and offline on the same events', () => {
  it('never: "never write package-lock.json" is broken by the write that ran, not by a refused one', () => {
    const c = contract({ id: 'no-lockfile', never: { tool: 'write_file|edit_file', path: '^package-lock\\.json$' } });
    const clean = [tool('read_file', 'package-lock.json'), refused('write_file', 'package-lock.json'), tool('write_file', 'src/a.js')];
    assert.deepEqual(both(c, clean), { live: 'held', offline: 'held', flagged: [] });
    const bad = [tool('read_file', 'src/a.js'), tool('edit_file', 'package-lock.json')];
    assert.deepEqual(both(c, bad), { live: 'violated', offline: 'violated', flagged: [bad[1].seq] });
    assert.equal(checkContracts([c], bad)[0].seq, bad[1].seq, 'the verdict names the event');
  });

  it('always … when: every write stays under src/ or test/', () => {
    const c = contract({ id: 'scoped-writes', always: { path: '^(src|test)/' }, when: { tool: 'write_file|edit_file' } });
    const ok = [tool('read_file', 'README.md'), tool('write_file', 'src/a.js'), tool('edit_file', 'test/a.test.js'), gate(true)];
    assert.deepEqual(both(c, ok), { live: 'held', offline: 'held', flagged: [] });
    const bad = [tool('write_file', 'src/a.js'), tool('write_file', 'Makefile'), tool('write_file', 'docs/x.md')];
    assert.deepEqual(both(c, bad), { live: 'violated', offline: 'violated', flagged: [bad[1].seq] }, 'violated is absorbing: the first breach is the one named');
  });

  it('eventually: "run the verify command yourself" is unmet until a run with that command happens', () => {
    const c = contract({ id: 'ran-verify', eventually: { tool: 'run', arg: { command: '^node --test' } }, action: 'require' });
    const without = [tool('write_file', 'src/a.js'), tool('run', null, { command: 'ls' }), says('Done.')];
    assert.deepEqual(both(c, without), { live: 'unmet', offline: 'unmet', flagged: [] });
    const withIt = [...without, tool('run', null, { command: 'node --test test/a.test.js' })];
    assert.deepEqual(both(c, withIt), { live: 'held', offline: 'held', flagged: [] });
  });

  it('before … then: a test file is written before the gate passes', () => {
    const c = contract({ id: 'test-first', before: { tool: 'write_file|edit_file', path: '^test/' }, then: { gate: 'passed' }, action: 'require' });
    const good = [tool('write_file', 'src/a.js'), gate(false), tool('write_file', 'test/a.test.js'), gate(true)];
    assert.deepEqual(both(c, good), { live: 'held', offline: 'held', flagged: [] }, 'a failing gate before the test is no breach');
    const bad = [tool('write_file', 'src/a.js'), gate(true)];
    assert.deepEqual(both(c, bad), { live: 'violated', offline: 'violated', flagged: [bad[1].seq] });
  });

  it('before … then with same_path: read a file before editing it (each file on its own)', () => {
    const c = contract({ id: 'read-first', before: { tool: 'read_file' }, then: { tool: 'edit_file' }, same_path: true });
    const good = [tool('read_file', 'src/a.js'), tool('edit_file', 'src/a.js'), tool('read_file', 'src/b.js'), tool('edit_file', 'src/b.js')];
    assert.deepEqual(both(c, good), { live: 'held', offline: 'held', flagged: [] });
    const bad = [tool('read_file', 'src/a.js'), tool('edit_file', 'src/b.js')];
    assert.deepEqual(both(c, bad), { live: 'violated', offline: 'violated', flagged: [bad[1].seq] });
  });

  it('predicates: text, denied, not, any, all', () => {
    const noClaim = contract({ id: 'no-claim', never: { all: [{ text: 'all tests pass' }, { not: { text: 'after running' } }] } });
    assert.equal(both(noClaim, [says('Done, all tests pass after running them.')]).offline, 'held');
    assert.equal(both(noClaim, [says('Done, all tests pass.')]).offline, 'violated');
    const noDenial = contract({ id: 'no-denial', never: { any: [{ denied: true }, { gate: 'failed' }] } });
    assert.deepEqual(both(noDenial, [tool('read_file', 'a'), personDenies()]).live, 'violated');
    assert.deepEqual(both(noDenial, [gate(true)]).live, 'held');
  });

  it('a malformed contract names the field', () => {
    const r = ContractsSchema.safeParse([{ id: 'x', never: { tool: '(' } }, { id: 'x', eventually: {} }]);
    assert.ok(!r.success);
    const text = JSON.stringify(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    assert.match(text, /not a valid regular expression/);
  });
});

describe('trajectory contracts: live and offline agree on every log in test/fixtures', () => {
  // Chosen so the fixtures break some (a write outside ledgerly/, code before tests, a command,
  // a failed gate), keep others, and leave an `eventually` unmet: the agreement is not vacuous.
  const CONTRACTS = ContractsSchema.parse([
    { id: 'no-lockfile', never: { tool: 'write_file|edit_file', path: 'package(-lock)?\\.json$' } },
    { id: 'scoped-writes', always: { path: '^ledgerly/' }, when: { tool: 'write_file|edit_file' }, action: 'warn' },
    { id: 'ran-tests', eventually: { tool: 'run', arg: { command: 'pytest' } }, action: 'require' },
    { id: 'says-why', eventually: { text: 'because the test names it' }, action: 'require' },
    { id: 'test-first', before: { tool: 'write_file|edit_file', path: '^tests/' }, then: { gate: 'passed' }, action: 'require' },
    { id: 'tests-before-code', before: { tool: 'write_file', path: '^tests/' }, then: { tool: 'write_file|edit_file', path: '^ledgerly/' } },
    { id: 'read-before-write', before: { tool: 'read_file' }, then: { tool: 'write_file|edit_file' }, same_path: true },
    { id: 'no-commands', never: { tool: 'run' } },
    { id: 'no-gate-failure', never: { gate: 'failed' }, action: 'warn' },
    { id: 'no-denial', never: { denied: true }, action: 'warn' },
  ]);
  const seen = new Set<string>();
  const dirs = [join(__dirname, '..', '..', 'fixtures', 'logs')];
  const logs = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.jsonl')).map((f) => join(d, f)));

  it('finds the fixture logs (the original Python Kite format among them)', () => {
    assert.ok(logs.some((l) => l.endsWith('python-kite.jsonl')));
    assert.ok(logs.length >= 5);
  });

  for (const log of logs) {
    it(`${log.split('/').pop()}: final verdicts agree, and the live lookahead flags exactly the steps that break a contract`, async () => {
      let events: KiteEvent[];
      try {
        events = (await readLog(log)).events;
      } catch {
        events = []; // a log from a newer Kite cannot be read: no events on either side
      }
      const m = new ContractMonitor(CONTRACTS);
      for (const e of events) {
        const s = stepOf(e);
        const before = checkContracts(CONTRACTS, events.slice(0, events.indexOf(e))).map((v) => v.status);
        const after = checkContracts(CONTRACTS, events.slice(0, events.indexOf(e) + 1)).map((v) => v.status);
        const broken = CONTRACTS.filter((_, i) => before[i] !== 'violated' && after[i] === 'violated').map((c) => c.id);
        assert.deepEqual(s ? m.wouldViolate(s).map((h) => h.contract.id) : [], broken, `at seq ${e.seq}`);
        if (broken.length) seen.add('flagged');
        m.observe(e);
      }
      assert.deepEqual(m.verdicts(), checkContracts(CONTRACTS, events));
      for (const v of m.verdicts()) seen.add(v.status);
    });
  }

  it('across the fixtures, contracts were held, violated (flagged live at the breaking step) and left unmet', () => {
    assert.deepEqual([...seen].sort(), ['flagged', 'held', 'unmet', 'violated']);
  });
});
