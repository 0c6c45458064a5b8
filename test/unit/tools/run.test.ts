import { strict as assert } from 'node:assert';
import { hostSandbox } from '../../helpers/sandbox';
import type { RunRequest, RunResult } from '../../../src/harness/sandbox/types';
import { makeWorkspace, type Workspace } from './_workspace';

describe('run tool', () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('runs in the workspace root and reports exit code, stdout and stderr', async () => {
    ws.write('hello.txt', 'hi\n');
    const ok = await ws.call('run', { command: 'pwd; cat hello.txt' });
    assert.equal(ok.is_error, false);
    assert.equal(ok.exit_code, 0);
    assert.match(ok.output, new RegExp(`^exit code 0 \\(\\d+\\.\\d s\\)\\n--- stdout ---\\n${ws.root}\\nhi\\n--- stderr: \\(empty\\) ---$`));
    const bad = await ws.call('run', { command: 'echo oops >&2; exit 4' });
    assert.equal(bad.is_error, true);
    assert.equal(bad.error_code, 'failed');
    assert.equal(bad.exit_code, 4);
    assert.match(bad.output, /^exit code 4 .*\n--- stdout: \(empty\) ---\n--- stderr ---\noops$/);
  });

  it('reports a timeout as such, with what was printed before it', async () => {
    ws.ctx.commandTimeoutS = 1;
    const out = await ws.call('run', { command: 'echo started; sleep 20' });
    assert.equal(out.error_code, 'timeout');
    assert.equal(out.exit_code, null);
    assert.match(out.output, /timed out after 1 s and its whole process group was killed/);
    assert.match(out.output, /started/);
  });

  it('clamps timeout_s to the configured maximum and says so', async () => {
    const seen: RunRequest[] = [];
    ws.ctx.runner = {
      run: async (req: RunRequest): Promise<RunResult> => {
        seen.push(req);
        return { exit_code: 0, stdout: '', stderr: '', timed_out: false, cancelled: false, ms: 5, sandbox: hostSandbox().info };
      },
    };
    ws.ctx.commandTimeoutS = 30;
    const out = await ws.call('run', { command: 'make', timeout_s: 600 });
    assert.equal(seen[0].timeout_s, 30);
    assert.equal(seen[0].cwd, ws.root);
    assert.match(out.output, /^\(timeout_s 600 is over the maximum of 30 s; 30 s was used\)/);
    await ws.call('run', { command: 'make', timeout_s: 5 });
    assert.equal(seen[1].timeout_s, 5);
  });
});
