// Resume after a crash in the middle of an MCP call (kill -9 right after its intent is on disk,
// through the bundled CLI): the call is never sent again, its result says it may have run, and the
// run goes on to its end with the servers started again.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCli, kite } from '../resume/kit';
import { fsServer, latestLog, logOf, mcpProject, toolEvent, warnings, writeConfig, type McpProject } from './kit';

function scripted(p: McpProject): string {
  const script = join(p.stateDir, 'script.json');
  const usage = { input_tokens: 10, output_tokens: 5 };
  writeFileSync(
    script,
    JSON.stringify([
      { content: [{ type: 'tool_use', id: 'w1', name: 'mcp__fs__write_file', input: { path: join(p.repo, 'once.txt'), content: 'x' } }], stop_reason: 'tool_use', usage },
      { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage },
    ]),
  );
  return script;
}

function project(): McpProject {
  const p = mcpProject();
  writeConfig(p, { mcp: { servers: { fs: fsServer('.') } }, policy: { rules: [{ decision: 'allow', server: 'fs' }] } });
  return p;
}

describe('resume after a crash during an MCP call (system)', function () {
  this.timeout(180_000);

  it('never re-sends the interrupted call; the model is told it may have run', async () => {
    const cli = await buildCli();
    // Where the intent lands, from an uninterrupted run of the same project.
    const a = project();
    const env = (p: McpProject) => ({ KITE_STATE_DIR: p.stateDir });
    assert.equal(kite(cli, a.repo, ['trust', '--yes'], env(a)).status, 0);
    const ok = kite(cli, a.repo, ['run', '--unattended', '--model', `script:${scripted(a)}`], env(a));
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.equal(existsSync(join(a.repo, 'once.txt')), true, 'the uninterrupted run wrote through the server');
    const intent = (await logOf(latestLog(a.repo))).find((e) => e.kind === 'intent' && e.id === 'w1');
    assert.ok(intent);

    const b = project();
    assert.equal(kite(cli, b.repo, ['trust', '--yes'], env(b)).status, 0);
    const crashed = kite(cli, b.repo, ['run', '--unattended', '--model', `script:${scripted(b)}`], { ...env(b), KITE_TEST_CRASH_AFTER_SEQ: String(intent.seq) });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stdout + crashed.stderr);
    assert.equal(existsSync(join(b.repo, 'once.txt')), false, 'the crash came before the call was sent');
    const log = latestLog(b.repo);
    const resumed = kite(cli, b.repo, ['resume', log, '--unattended'], env(b));
    assert.equal(resumed.status, 0, resumed.stdout + resumed.stderr);
    assert.equal(existsSync(join(b.repo, 'once.txt')), false, 'resume sent the interrupted call again');
    const events = await logOf(log);
    const w1 = toolEvent(events, 'w1');
    assert.equal(w1?.recovered, true);
    assert.equal(w1?.error_code, 'interrupted');
    assert.match(w1?.output ?? '', /MCP tool call \(mcp__fs__write_file\).*may have run on the server.*NOT sent again/);
    assert.equal(warnings(events, 'mcp_started').length, 2, 'the servers started again for the resumed part');
    const end = events.find((e) => e.kind === 'session_end');
    assert.ok(end?.kind === 'session_end' && end.status === 'done', JSON.stringify(end));
  });
});
