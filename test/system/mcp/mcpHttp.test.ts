// A Streamable HTTP MCP server: the REAL server-everything in its streamableHttp mode on 127.0.0.1,
// reached through a small recording proxy (to see the headers Kite sends). A scripted run lists its
// tools and calls one through policy, approval and log; the Authorization header takes its token from
// Kite's environment and the token is never written to the log; the approval is keyed on the URL
// and the header names (and the variables they take), so changing either asks again.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { say, use } from '../../../src/harness/model/scripted';
import { AnsweringHost, EVERYTHING_SERVER, kindsFor, logOf, mcpProject, runScript, toolEvent, warnings, writeConfig, type McpProject } from './kit';

const TOKEN = 'remote-mcp-token-7f3a9c21d4e8b6'; // what the person's environment holds

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** server-everything over Streamable HTTP on `port`; resolves once it says it listens. */
async function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${err}`)));
  });
  return child;
}

/** Forwards to 127.0.0.1:`target`, keeping the headers of every request it saw. */
async function recordingProxy(target: number): Promise<{ server: Server; port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const up = request({ host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe('a Streamable HTTP MCP server (system)', function () {
  this.timeout(120_000);
  let everything: ChildProcess | null = null;
  let proxy: Awaited<ReturnType<typeof recordingProxy>> | null = null;

  before(async () => {
    const port = await freePort();
    everything = await startEverything(port);
    proxy = await recordingProxy(port);
  });
  after(async () => {
    everything?.kill();
    proxy?.server.closeAllConnections();
    await new Promise<void>((r) => (proxy ? proxy.server.close(() => r()) : r()));
  });

  const remote = (headerValue: string) => ({ mcp: { servers: { remote: { type: 'http', url: `http://127.0.0.1:${proxy?.port}/mcp`, headers: { Authorization: headerValue } } } } });
  const approve = (p: McpProject) => approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);

  it('lists its tools and runs a call through policy, approval and log; the token reaches the server, never the log', async () => {
    const p = mcpProject();
    p.env.REMOTE_MCP_TOKEN = TOKEN;
    writeConfig(p, remote('Bearer ${env:REMOTE_MCP_TOKEN}'));
    approve(p);
    const host = new AnsweringHost();
    const r = await runScript(p, [use('mcp__remote__echo', 'e1', { message: 'over http' }), say('Done.')], host);
    assert.equal(r.outcome, 'done', r.summary);
    const events = await logOf(r.logPath);
    const started = warnings(events, 'mcp_started');
    assert.equal(started.length, 1);
    assert.match(started[0].message, /MCP server "remote" \(\.kite\/config\.json: http:\/\/127\.0\.0\.1:\d+\/mcp Authorization: …\) started; its tools: .*mcp__remote__echo/);
    assert.deepEqual(kindsFor(events, 'e1'), ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool']);
    assert.equal(toolEvent(events, 'e1')?.output, 'Echo: over http');
    assert.equal(host.asked.length, 1);
    const asked = host.asked[0];
    assert.ok(asked.kind === 'command' && asked.command.includes('MCP server "remote", tool echo'), JSON.stringify(asked));
    assert.ok(proxy?.seen.length, 'the requests went through the proxy');
    assert.ok(proxy?.seen.every((h) => h.authorization === `Bearer ${TOKEN}`), 'every request carried the header from the environment');
    assert.doesNotMatch(readFileSync(r.logPath, 'utf8'), new RegExp(TOKEN), 'the token is not in the log');
  });

  it('is approved for its URL and header names: a header taking another variable asks again; Kite\'s own key is never sent', async () => {
    const p = mcpProject();
    p.env.REMOTE_MCP_TOKEN = TOKEN;
    p.env.OTHER_TOKEN = 'another-token-value-123456';
    writeConfig(p, remote('Bearer ${env:REMOTE_MCP_TOKEN}'));
    approve(p);
    writeConfig(p, remote('Bearer ${env:OTHER_TOKEN}'));
    const r = await runScript(p, [say('Done.')]);
    const unapproved = warnings(await logOf(r.logPath), 'mcp_unapproved');
    assert.equal(unapproved.length, 1);
    assert.match(unapproved[0].message, /MCP server "remote" .* is changed since it was approved on this machine, so it was not started/);

    p.env.ANTHROPIC_API_KEY = 'sk-ant-not-for-mcp-servers-000000';
    const before = proxy?.seen.length;
    writeConfig(p, remote('Bearer ${env:ANTHROPIC_API_KEY}'));
    approve(p);
    const r2 = await runScript(p, [say('Done.')]);
    const refused = warnings(await logOf(r2.logPath), 'mcp_not_started');
    assert.equal(refused.length, 1);
    assert.match(refused[0].message, /it was not contacted: its header Authorization uses \$\{env:ANTHROPIC_API_KEY\}, Kite's own credential, which is never sent to an MCP server/);
    assert.equal(proxy?.seen.length, before, 'no request was made');
  });
});
