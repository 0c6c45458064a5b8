// MCP in the other ways a run happens: a replay reproduces a recorded run from its log without
// starting any server; an unattended run uses only pre-approved servers and runs an MCP call only
// when a policy rule allows it; a call past its timeout is an error and the run goes on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { say, use } from '../../../src/harness/model/scripted';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { AnsweringHost, EVERYTHING_SERVER, fsServer, kindsFor, logOf, mcpProject, runScript, toolEvent, warnings, writeConfig, type McpProject } from './kit';

function approveAll(p: McpProject): void {
  approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
}

/** server-everything, started through a shell that counts its starts in starts.log (in the workspace). */
const countedEverything = { command: '/bin/sh', args: ['-c', `echo started >> starts.log; exec ${process.execPath} ${EVERYTHING_SERVER} stdio`] };
const starts = (p: McpProject) => readFileSync(join(p.repo, 'starts.log'), 'utf8').split('\n').filter(Boolean).length;

describe('MCP in replay, unattended runs and timeouts (system)', function () {
  this.timeout(120_000);

  it('a replay reproduces the run from the recorded MCP results without starting any server', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything, fs: fsServer('.') } } }); // ".": the server starts in the workspace
    approveAll(p);
    const r = await runScript(p, [
      use('mcp__everything__echo', 'e1', { message: 'recorded' }),
      use('mcp__fs__list_directory', 'l1', { path: p.repo }),
      use('mcp__everything__get_sum', 's1', { a: 2, b: 'x' }), // invalid: refused the same way live
      say('Done.'),
    ]);
    assert.equal(r.outcome, 'done', r.summary);
    assert.equal(starts(p), 1);
    const recorded = await logOf(r.logPath);

    const replay = await replayRun({ log: r.logPath, root: p.repo, onDivergence: 'continue', env: p.env }, new UnattendedHost());
    assert.equal(replay.divergences, 0, JSON.stringify(replay.divergence));
    assert.equal(replay.outcome, 'done');
    assert.equal(starts(p), 1, 'the replay started no server');
    const replayed = await logOf(replay.logPath);
    for (const id of ['e1', 'l1', 's1']) {
      assert.equal(toolEvent(replayed, id)?.output, toolEvent(recorded, id)?.output, id);
      assert.deepEqual(kindsFor(replayed, id), kindsFor(recorded, id), id);
    }
    assert.equal(toolEvent(replayed, 'e1')?.output, 'Echo: recorded');
    assert.equal(warnings(replayed, 'mcp_started').length, 0);
    const start = (es: typeof recorded) => es.find((e) => e.kind === 'session_start');
    const a = start(recorded);
    const b = start(replayed);
    assert.ok(a?.kind === 'session_start' && b?.kind === 'session_start');
    assert.deepEqual(b.tools, a.tools, 'the replay offers exactly the recorded tools');
  });

  it('unattended: an MCP call that would ask is refused; a policy rule allowing the server lets it run', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything } } });
    approveAll(p);
    const r = await runScript(p, [use('mcp__everything__echo', 'e1', { message: 'hi' }), say('Done.')], new UnattendedHost(), 'unattended');
    assert.equal(r.outcome, 'done', r.summary);
    const e1 = await logOf(r.logPath);
    assert.deepEqual(kindsFor(e1, 'e1'), ['proposed', 'policy', 'tool']);
    assert.match(toolEvent(e1, 'e1')?.output ?? '', /unattended.*"server": "everything"/);

    writeConfig(p, { mcp: { servers: { everything: countedEverything } }, policy: { rules: [{ decision: 'allow', server: 'everything' }] } });
    const r2 = await runScript(p, [use('mcp__everything__echo', 'e2', { message: 'allowed' }), say('Done.')], new UnattendedHost(), 'unattended');
    const e2 = await logOf(r2.logPath);
    assert.deepEqual(kindsFor(e2, 'e2'), ['proposed', 'policy', 'intent', 'tool']);
    assert.equal(toolEvent(e2, 'e2')?.output, 'Echo: allowed');
  });

  it('readOnlyHint lifts the ask only with mcp.allow_read_only, and never over a deny rule', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything }, allow_read_only: true }, policy: { rules: [{ id: 'no-env', decision: 'deny', tool: 'mcp__everything__get_env' }] } });
    approveAll(p);
    const host = new AnsweringHost();
    const r = await runScript(p, [use('mcp__everything__echo', 'e1', { message: 'ro' }), use('mcp__everything__get_env', 'g1', {}), use('mcp__everything__toggle_simulated_logging', 't1', {}), say('Done.')], host);
    assert.equal(r.outcome, 'done', r.summary);
    const events = await logOf(r.logPath);
    const rule = (id: string) => {
      const e = events.find((x) => x.kind === 'policy' && x.id === id);
      return e?.kind === 'policy' ? e.rule : null;
    };
    assert.equal(rule('e1'), 'allow:mcp-read-only');
    assert.equal(rule('g1'), 'no-env', 'the deny rule wins over readOnlyHint');
    assert.equal(rule('t1'), 'ask:mcp', 'not read-only: asked');
    assert.deepEqual(host.asked.map((a) => a.id), ['t1']);
  });

  it('a call past its timeout is an error; the server keeps its tools while it still answers', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: countedEverything }, timeout_s: 4 } });
    approveAll(p);
    const r = await runScript(p, [use('mcp__everything__trigger_long_running_operation', 'h1', { duration: 30, steps: 2 }), use('mcp__everything__echo', 'e1', { message: 'after' }), say('Done.')]);
    assert.equal(r.outcome, 'done', r.summary);
    const events = await logOf(r.logPath);
    const h1 = toolEvent(events, 'h1');
    assert.equal(h1?.error_code, 'timeout');
    assert.match(h1?.output ?? '', /did not answer the call to trigger-long-running-operation within 4 s; Kite stopped waiting.*It may still complete on the server/);
    assert.ok((h1?.ms ?? 0) < 20_000, `gave up at the timeout, not after the operation (${h1?.ms} ms)`);
    assert.equal(warnings(events, 'mcp_withdrawn').length, 0, 'server-everything still answers a ping');
    assert.equal(toolEvent(events, 'e1')?.output, 'Echo: after');
  });
});
