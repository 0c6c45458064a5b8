// What the Kite view's MCP Servers list gets from the harness server (mcp/mcpServerList.ts, behind
// kite/mcpServers): every declared server with its state; with tools asked for, the REAL
// server-everything is started in the sandbox to list its tools (name, description, readOnlyHint)
// — but only once approved: an unapproved server is never started to be listed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { listMcpServers } from '../../../src/harness/mcp/mcpServerList';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { EVERYTHING_SERVER, mcpProject, writeConfig } from './kit';

/** server-everything behind a shell that leaves started.txt in the workspace when it starts. */
const marked = { command: '/bin/sh', args: ['-c', `echo started > started.txt; exec ${process.execPath} ${EVERYTHING_SERVER} stdio`], env: { DEMO_TOKEN: 'value-not-shown' } };

describe('MCP servers for the Kite view (system)', function () {
  this.timeout(120_000);

  it('an unapproved server is listed with its command line and state, and never started to list tools', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: marked } } });
    const r = await listMcpServers(p.repo, { tools: true, env: p.env });
    assert.equal(r.error, null);
    assert.equal(r.servers.length, 1);
    const s = r.servers[0];
    assert.deepEqual([s.name, s.source, s.state, s.tools, s.tools_error], ['everything', join('.kite', 'config.json'), 'not_approved', null, null]);
    assert.match(s.command, /^DEMO_TOKEN=… \/bin\/sh -c /);
    assert.ok(!JSON.stringify(r).includes('value-not-shown'), 'env values are not sent to the view');
    assert.equal(existsSync(join(p.repo, 'started.txt')), false, 'the server did not start');
  });

  it('an approved server is started in the sandbox to list its real tools, with their read-only annotation', async () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: marked } } });
    approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
    const without = await listMcpServers(p.repo, { tools: false, env: p.env });
    assert.equal(without.servers[0].state, 'approved');
    assert.equal(without.servers[0].tools, null, 'tools only when asked (it starts the server)');
    const r = await listMcpServers(p.repo, { tools: true, env: p.env });
    const s = r.servers[0];
    assert.equal(s.tools_error, null);
    const echo = s.tools?.find((t) => t.tool === 'echo');
    assert.ok(echo, (s.tools ?? []).map((t) => t.tool).join(', '));
    assert.equal(echo.name, 'mcp__everything__echo');
    assert.match(echo.description, /echo/i);
    assert.ok(s.tools?.some((t) => t.read_only), 'server-everything marks some tools readOnlyHint');
    assert.equal(existsSync(join(p.repo, 'started.txt')), true, 'it was really started (from the workspace root)');
  });
});
