import assert from 'node:assert/strict';
import { approvedIds, takeApprove } from '../../../src/harness/cli/approveFlag';
import { UsageError, type FlagSpec } from '../../../src/harness/cli/args';
import type { PendingCall } from '../../../src/harness/cli/pendingCalls';

const FLAGS: FlagSpec[] = [
  { name: 'approve', type: 'string', help: '' },
  { name: 'deny', type: 'string', help: '' },
  { name: 'max-turns', type: 'int', help: '' },
  { name: 'unattended', type: 'bool', help: '' },
];

const call = (id: string): PendingCall => ({ id, name: 'run', request: { kind: 'command', id, command: `echo ${id}`, cwd: '/w' }, note: '' });

describe('kite resume --approve IDS', () => {
  it('takes ids after the run (comma-separated, repeated, or with =); bare when a flag or nothing follows', () => {
    assert.deepEqual(takeApprove(['RUN', '--approve', 'toolu_1,toolu_2', '--approve=toolu_3'], FLAGS), { rest: ['RUN'], approve: ['toolu_1', 'toolu_2', 'toolu_3'] });
    assert.deepEqual(takeApprove(['RUN', '--approve', '--max-turns', '3'], FLAGS), { rest: ['RUN', '--max-turns', '3'], approve: [] });
    assert.deepEqual(takeApprove(['--approve', 'RUN'], FLAGS), { rest: ['RUN'], approve: [] }, 'before the run, the word is the run');
    assert.deepEqual(takeApprove(['--deny', 'why', 'RUN'], FLAGS), { rest: ['--deny', 'why', 'RUN'], approve: null });
    assert.throws(() => takeApprove(['RUN', '--approve='], FLAGS), UsageError);
  });

  it('a bare --approve approves the one waiting call, refuses with several (listing them), and named ids must be waiting', () => {
    assert.deepEqual(approvedIds([], [call('c1')], 'R'), ['c1']);
    assert.throws(() => approvedIds([], [call('c1'), call('c2')], 'R'), /2 calls are waiting[\s\S]*\$ echo c1[\s\S]*\$ echo c2/);
    assert.deepEqual(approvedIds(['c2', 'c2'], [call('c1'), call('c2')], 'R'), ['c2']);
    assert.throws(() => approvedIds(['c9'], [call('c1')], 'R'), /c9 is not waiting for approval; waiting: c1/);
  });
});
