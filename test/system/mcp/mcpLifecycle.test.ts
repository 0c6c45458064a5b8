// Servers that hang, as real processes (test/fixtures/mcp/misbehavingServer.mjs, copied into the
// workspace and run in the sandbox): one never answers initialize, one never answers tools/list —
// both stopped at their start timeout, their tools not offered, the run goes on. A call that takes
// longer than its call timeout is an is_error result; the server keeps its tools while it still
// answers a ping, and is withdrawn once it does not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { say, use } from '../../../src/harness/model/scripted';
import { logOf, mcpProject, pidsRunning, runScript, toolEvent, warnings, writeConfig, writeFiles } from './kit';

const FIXTURE = readFileSync(join(__dirname, '..', '..', 'fixtures', 'mcp', 'misbehavingServer.mjs'), 'utf8');

async function gone(needle: string, withinMs: number): Promise<number[]> {
  const until = Date.now() + withinMs;
  let left = pidsRunning(needle);
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = pidsRunning(needle);
  }
  return left;
}

describe('MCP servers that hang (system)', function () {
  this.timeout(120_000);

  it('hung starts and listings are stopped at their timeout; a slow call is an error, a deaf server is withdrawn', async () => {
    const p = mcpProject();
    const script = join(p.repo, 'tools', 'misbehaving.mjs');
    writeFiles(p, { 'tools/misbehaving.mjs': FIXTURE });
    const server = (mode: string, extra: Record<string, number>) => ({ command: process.execPath, args: [script, mode], ...extra });
    writeConfig(p, {
      mcp: {
        servers: {
          mute: server('hang-initialize', { start_timeout_s: 2 }),
          nolist: server('hang-list', { start_timeout_s: 2 }),
          odd: server('ok', { call_timeout_s: 2 }),
        },
      },
    });
    approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
    const started = Date.now();
    const r = await runScript(p, [
      use('mcp__odd__slow', 's1', {}),
      use('mcp__odd__fine', 'f1', {}),
      use('mcp__odd__freeze', 'z1', {}),
      use('mcp__odd__fine', 'f2', {}),
      say('Done.'),
    ]);
    assert.equal(r.outcome, 'done', r.summary);
    assert.ok(Date.now() - started < 60_000, 'nothing waited for Kite\'s long defaults');
    const events = await logOf(r.logPath);

    const notStarted = warnings(events, 'mcp_not_started').map((w) => w.message);
    assert.equal(notStarted.length, 2, notStarted.join('\n'));
    assert.ok(notStarted.some((m) => /MCP server "mute" .*it did not start: starting the server took longer than 2 s\. Its tools are not offered/.test(m)), notStarted.join('\n'));
    assert.ok(notStarted.some((m) => /MCP server "nolist" .*did not list its tools: it did not answer tools\/list within 2 s\. It was stopped/.test(m)), notStarted.join('\n'));
    const start = events.find((e) => e.kind === 'session_start');
    assert.ok(start?.kind === 'session_start');
    assert.deepEqual(start.tools.filter((t) => t.name.startsWith('mcp__')).map((t) => t.name).sort(), ['mcp__odd__fine', 'mcp__odd__freeze', 'mcp__odd__slow']);

    const s1 = toolEvent(events, 's1');
    assert.equal(s1?.error_code, 'timeout');
    assert.match(s1?.output ?? '', /did not answer the call to slow within 2 s.*still responds, so its tools remain available/);
    assert.equal(toolEvent(events, 'f1')?.output, 'fine here', 'a slow call does not cost the server its tools');

    const z1 = toolEvent(events, 'z1');
    assert.equal(z1?.error_code, 'timeout');
    assert.match(z1?.output ?? '', /did not answer within 2 s and no longer responds\. It may not have completed/);
    const withdrawn = warnings(events, 'mcp_withdrawn');
    assert.equal(withdrawn.length, 1);
    assert.match(withdrawn[0].message, /MCP server "odd" was withdrawn: it did not answer a call to freeze within 2 s, nor a ping after it\..*the run continues/);
    const f2 = toolEvent(events, 'f2');
    assert.equal(f2?.is_error, true);
    assert.notEqual(f2?.output, 'fine here', 'a withdrawn server is not called');

    assert.deepEqual(await gone(script, 10_000), [], 'every hung server process was stopped');
  });
});
