// MCP tools with the REAL reference servers from npm, started in the real sandbox: a scripted run
// calls server-filesystem's and server-everything's tools through validation, policy, approval and
// the log; denied calls, invalid arguments and unapproved servers never reach a server; a killed
// server's tools are withdrawn and the run still ends cleanly; the servers see no secrets.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { say, use } from '../../../src/harness/model/scripted';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { loadConfig } from '../../../src/harness/config/config';
import { ScriptedModel } from '../../../src/harness/model/scripted';
import { runFeature } from '../../../src/harness/run';
import { writeConfig, AnsweringHost, everythingServer, fsServer, kindsFor, logOf, mcpProject, pidsRunning, runScript, toolEvent, warnings, type McpProject } from './kit';

function approveAll(p: McpProject): void {
  approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
}

describe('MCP tools from real servers (system)', function () {
  this.timeout(120_000);

  it('calls server-filesystem and server-everything tools through policy, approval and the log', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { fs: fsServer(p.repo), everything: everythingServer() } } });
    approveAll(p);
    const model = new ScriptedModel([
      use('mcp__fs__write_file', 'w1', { path: join(p.repo, 'notes.txt'), content: 'written over MCP\n' }),
      use('mcp__everything__echo', 'e1', { message: 'hello from kite' }),
      use('mcp__everything__get_tiny_image', 'i1', {}),
      use('mcp__everything__get_resource_links', 'r1', { count: 2 }),
      say('Done.'),
    ]);
    const host = new AnsweringHost();
    const r = await runFeature({ root: p.repo, mode: 'attended', model: '', modelOverride: model, env: p.env }, host);
    assert.equal(r.outcome, 'done', r.summary);
    assert.equal(readFileSync(join(p.repo, 'notes.txt'), 'utf8'), 'written over MCP\n');
    const events = await logOf(r.logPath);
    // Every call: proposed → policy (ask:mcp) → approval_request → approval → intent → tool.
    for (const id of ['w1', 'e1', 'i1', 'r1']) assert.deepEqual(kindsFor(events, id), ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool'], id);
    const policy = events.find((e) => e.kind === 'policy' && e.id === 'w1');
    assert.ok(policy && policy.kind === 'policy' && policy.rule === 'ask:mcp', JSON.stringify(policy));
    assert.equal(host.asked.length, 4);
    const asked = host.asked[0];
    assert.ok(asked.kind === 'command' && asked.command.includes('MCP server "fs", tool write_file'), JSON.stringify(asked));
    assert.equal(toolEvent(events, 'e1')?.output, 'Echo: hello from kite');
    assert.match(toolEvent(events, 'i1')?.output ?? '', /\[image: image\/png, \d+ bytes; not shown to the model\]/);
    assert.doesNotMatch(toolEvent(events, 'i1')?.output ?? '', /iVBOR/); // the bytes never reach the model
    assert.match(toolEvent(events, 'r1')?.output ?? '', /\[resource link: .*<demo:\/\/resource\//);
    // The tools are recorded in session_start and were sent on the wire.
    const start = events.find((e) => e.kind === 'session_start');
    assert.ok(start && start.kind === 'session_start');
    const names = start.tools.map((t) => t.name);
    for (const n of ['mcp__fs__write_file', 'mcp__fs__read_text_file', 'mcp__everything__echo', 'mcp__everything__get_env']) assert.ok(names.includes(n), `${n} in ${names.join(',')}`);
    assert.deepEqual(model.requests[0].tools.map((t) => t.name), names);
    const echo = start.tools.find((t) => t.name === 'mcp__everything__echo');
    assert.deepEqual(echo?.input_schema.required, ['message']);
    assert.equal(warnings(events, 'mcp_started').length, 2);
    assert.equal(pidsRunning(EVERYTHING_MARK).length, 0, 'the servers are stopped when the run ends');
  });

  it('a call the person denies never reaches the server (no file), and a policy rule can deny a whole server without asking', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { fs: fsServer(p.repo) } } });
    approveAll(p);
    const host = new AnsweringHost(() => ({ decision: 'deny', reason: 'not that file' }));
    const r = await runScript(p, [use('mcp__fs__write_file', 'w1', { path: join(p.repo, 'denied.txt'), content: 'x' }), say('Done.')], host);
    assert.equal(r.outcome, 'done', r.summary);
    assert.equal(existsSync(join(p.repo, 'denied.txt')), false);
    const events = await logOf(r.logPath);
    assert.deepEqual(kindsFor(events, 'w1'), ['proposed', 'policy', 'approval_request', 'approval', 'tool']);
    assert.match(toolEvent(events, 'w1')?.output ?? '', /denied this call.*not that file/);

    writeConfig(p, { mcp: { servers: { fs: fsServer(p.repo) } }, policy: { rules: [{ id: 'no-fs', decision: 'deny', server: 'fs', reason: 'No filesystem server here.' }] } });
    const host2 = new AnsweringHost();
    const r2 = await runScript(p, [use('mcp__fs__write_file', 'w2', { path: join(p.repo, 'denied2.txt'), content: 'x' }), say('Done.')], host2);
    assert.equal(r2.outcome, 'done', r2.summary);
    assert.equal(existsSync(join(p.repo, 'denied2.txt')), false);
    assert.equal(host2.asked.length, 0);
    const e2 = await logOf(r2.logPath);
    assert.deepEqual(kindsFor(e2, 'w2'), ['proposed', 'policy', 'tool']);
    assert.match(toolEvent(e2, 'w2')?.output ?? '', /Denied by policy \(rule no-fs\): No filesystem server here/);
  });

  it('arguments that fail the server\'s schema are refused before anyone is asked and never reach the server', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { fs: fsServer(p.repo), everything: everythingServer() } } });
    approveAll(p);
    const host = new AnsweringHost();
    const r = await runScript(p, [use('mcp__fs__write_file', 'w1', { path: join(p.repo, 'bad.txt') }), use('mcp__everything__get_sum', 's1', { a: 'one', b: 2 }), say('Done.')], host);
    assert.equal(r.outcome, 'done', r.summary);
    assert.equal(existsSync(join(p.repo, 'bad.txt')), false);
    assert.equal(host.asked.length, 0);
    const events = await logOf(r.logPath);
    assert.deepEqual(kindsFor(events, 'w1'), ['proposed', 'tool']);
    assert.match(toolEvent(events, 'w1')?.output ?? '', /Invalid arguments for mcp__fs__write_file; it was not run\.\n- content: must have required property 'content'/);
    assert.match(toolEvent(events, 's1')?.output ?? '', /- a: must be number/);
  });

  it('an unapproved server is not started and its tools are not offered; the start says so', async () => {
    const p = mcpProject();
    // Would leave started.txt in the workspace if it ever ran.
    writeConfig(p, { mcp: { servers: { fs: { command: '/bin/sh', args: ['-c', `echo started > started.txt; exec ${process.execPath} ${fsServerArg()} .`] } } } });
    const model = new ScriptedModel([use('mcp__fs__list_directory', 'l1', { path: p.repo }), say('Done.')]);
    const host = new AnsweringHost();
    const r = await runFeature({ root: p.repo, mode: 'attended', model: '', modelOverride: model, env: p.env }, host);
    assert.equal(r.outcome, 'done', r.summary);
    assert.equal(existsSync(join(p.repo, 'started.txt')), false, 'the server never started');
    const events = await logOf(r.logPath);
    const w = warnings(events, 'mcp_unapproved');
    assert.equal(w.length, 1);
    assert.match(w[0].message, /MCP server "fs" \(\.kite\/config\.json: .*\) is not approved on this machine, so it was not started.*kite trust /);
    assert.ok(!model.requests[0].tools.some((t) => t.name.startsWith('mcp__')));
    assert.equal(toolEvent(events, 'l1')?.error_code, 'unknown_tool');
    assert.equal(host.asked.length, 0);
  });

  it('a server changed since its approval is asked again (not started)', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: everythingServer() } } });
    approveAll(p);
    writeConfig(p, { mcp: { servers: { everything: everythingServer({ EXTRA_NAME: 'v' }) } } });
    const r = await runScript(p, [say('Done.')]);
    const w = warnings(await logOf(r.logPath), 'mcp_unapproved');
    assert.equal(w.length, 1);
    assert.match(w[0].message, /changed since it was approved/);
  });

  it('a killed server withdraws its tools (off the wire, the model told) and the run still ends done', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: everythingServer() } } });
    approveAll(p);
    let killed = 0;
    const host = new AnsweringHost((req) => {
      if (req.id === 'e2') {
        for (const pid of pidsRunning(EVERYTHING_MARK)) {
          try {
            process.kill(pid, 'SIGKILL');
            killed++;
          } catch {
            // gone with its sandbox already
          }
        }
      }
      return { decision: 'approve' };
    });
    const model = new ScriptedModel([use('mcp__everything__echo', 'e1', { message: 'one' }), use('mcp__everything__echo', 'e2', { message: 'two' }), use('mcp__everything__echo', 'e3', { message: 'three' }), say('Done.')]);
    const r = await runFeature({ root: p.repo, mode: 'attended', model: '', modelOverride: model, env: p.env }, host);
    assert.ok(killed > 0, 'the test found the server process');
    assert.equal(r.outcome, 'done', r.summary);
    const events = await logOf(r.logPath);
    assert.equal(toolEvent(events, 'e1')?.output, 'Echo: one');
    assert.equal(toolEvent(events, 'e2')?.is_error, true);
    assert.match(toolEvent(events, 'e2')?.output ?? '', /MCP server "everything" (stopped during the call|was withdrawn)/);
    assert.match(toolEvent(events, 'e3')?.output ?? '', /was withdrawn .* no longer available\. Nothing was run\./);
    assert.equal(host.asked.filter((a) => a.id === 'e3').length, 0, 'a withdrawn tool is refused before anyone is asked');
    const w = warnings(events, 'mcp_withdrawn');
    assert.equal(w.length, 1);
    assert.match(w[0].message, /MCP server "everything" was withdrawn: .*the run continues/);
    assert.ok(events.some((e) => e.kind === 'user' && e.reason === 'notice' && e.text.includes('The MCP server "everything" stopped')));
    const last = model.requests[model.requests.length - 1];
    assert.ok(!last.tools.some((t) => t.name.startsWith('mcp__everything__')), 'withdrawn tools are no longer sent');
    assert.ok(last.tools.some((t) => t.name === 'read_file'));
  });

  it("the servers get the allowlisted environment plus their own configured variables, never Kite's secrets", async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: everythingServer({ GREETING: 'hello-mcp' }) } } });
    approveAll(p);
    p.env = { ...p.env, MCP_SUITE_DB_PASSWORD: 'hunter2-mcp-suite', ANTHROPIC_API_KEY: 'sk-ant-api03-mcp-suite-0000000000000000' };
    const r = await runScript(p, [use('mcp__everything__get_env', 'g1', {}), say('Done.')]);
    assert.equal(r.outcome, 'done', r.summary);
    const out = toolEvent(await logOf(r.logPath), 'g1')?.output ?? '';
    assert.match(out, /GREETING/);
    assert.match(out, /hello-mcp/);
    assert.match(out, /KITE_SANDBOX/);
    assert.doesNotMatch(out, /MCP_SUITE_DB_PASSWORD|hunter2|ANTHROPIC_API_KEY|KITE_STATE_DIR/);
  });
});

const EVERYTHING_MARK = 'server-everything/dist/index.js';
function fsServerArg(): string {
  return fsServer('.').args?.[0] ?? '';
}
