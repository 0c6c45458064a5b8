// Reads the policy asks about (rule ask:secret-file: .env, keys, .npmrc) reach the host as a read
// approval naming the file and the reason — not as a pseudo-command "read_file {...}".
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLoop } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { ApprovalAnswer } from '../../../src/harness/host';
import type { ToolResultBlock } from '../../../src/harness/protocol/content';
import { brief, CannedHost, makeDeps, ScriptedGate, tempRepo } from './kit';

async function readEnv(answer: ApprovalAnswer) {
  const root = tempRepo();
  writeFileSync(join(root, '.env'), 'DB_PASSWORD=hunter22\n');
  const host = new CannedHost([answer]);
  const model = new ScriptedModel([use('read_file', 'r1', { path: '.env' }), say('done')]);
  const { deps, sink } = makeDeps({ root, model, host, mode: 'attended', gate: new ScriptedGate([true]) });
  brief(deps, 'go');
  await runLoop(deps, new AbortController().signal);
  const result = model.requests[1].messages.flatMap((m) => (m.role === 'user' ? m.content : [])).find((b): b is ToolResultBlock => b.type === 'tool_result');
  return { root, host, sink, result };
}

describe('loop: read approvals', () => {
  it('a read of .env asks the host with kind "read", the file, the tool and why; approved, the model gets the content', async () => {
    const { host, sink, result } = await readEnv({ decision: 'approve' });
    assert.deepEqual(host.requests, [{ kind: 'read', id: 'r1', tool: 'read_file', path: '.env', reason: '".env" usually holds secrets, so reading it needs a person\'s approval.' }]);
    const req = sink.of('approval_request')[0];
    assert.equal(req.path, '.env');
    assert.equal(req.cwd, null);
    assert.equal(sink.of('policy')[0].rule, 'ask:secret-file');
    assert.match(String(result?.content), /DB_PASSWORD/);
    assert.notEqual(result?.is_error, true);
  });

  it('denied, the model is told the person said no and that nothing was read', async () => {
    const { result } = await readEnv({ decision: 'deny', reason: 'not the database password' });
    assert.equal(result?.is_error, true);
    assert.match(String(result?.content), /The person denied this call and said: "not the database password"\. The tool did not run\./);
  });

  it('"always" allows reading that file from now on (a path rule in .kite/config.json)', async () => {
    const { root } = await readEnv({ decision: 'approve', always: true });
    const config = JSON.parse(readFileSync(join(root, '.kite', 'config.json'), 'utf8')) as { policy: { rules: { decision: string; tool: string; path: string }[] } };
    assert.deepEqual(
      config.policy.rules.map((r) => [r.decision, r.tool, r.path]),
      [['allow', 'read_file', '.env']],
    );
  });
});
