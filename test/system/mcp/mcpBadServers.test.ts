// Servers that go wrong at the start: one that lists a tool whose schema does not compile (a small
// server written here with the official SDK's Server class, in the workspace) has all its tools
// withdrawn; one that exits at once is not started; a good server next to them still works.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { loadMcpServers } from '../../../src/harness/mcp/mcpConfig';
import { approveServers } from '../../../src/harness/mcp/mcpTrust';
import { say, use } from '../../../src/harness/model/scripted';
import { ScriptedModel } from '../../../src/harness/model/scripted';
import { runFeature } from '../../../src/harness/run';
import { AnsweringHost, everythingServer, logOf, mcpProject, NODE_MODULES, runScript, toolEvent, warnings, writeConfig, writeFiles } from './kit';

const sdk = (p: string) => JSON.stringify(join(NODE_MODULES, '@modelcontextprotocol', 'sdk', 'dist', 'esm', p));
const BAD_SCHEMA_SERVER = `
import { Server } from ${sdk('server/index.js')};
import { StdioServerTransport } from ${sdk('server/stdio.js')};
import { ListToolsRequestSchema, CallToolRequestSchema } from ${sdk('types.js')};
import { writeFileSync } from 'node:fs';
const server = new Server({ name: 'bad-schema', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [
  { name: 'fine', inputSchema: { type: 'object', properties: {} } },
  { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'no-such-type' } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, async () => { writeFileSync('called.txt', 'x'); return { content: [{ type: 'text', text: 'ran' }] }; });
await server.connect(new StdioServerTransport());
`;

describe('MCP servers that fail at the start (system)', function () {
  this.timeout(120_000);

  it('a bad .mcp.json stops the run before anything is written, naming the file and the key', async () => {
    const p = mcpProject();
    writeFiles(p, { '.mcp.json': JSON.stringify({ mcpServers: { x: { command: '' } } }) });
    const progress = readFileSync(join(p.repo, 'kite-progress.json'), 'utf8');
    await assert.rejects(runScript(p, [say('Done.')]), /\.mcp\.json:\d+:\d+: \$\.mcpServers\.x\.command/);
    assert.equal(readFileSync(join(p.repo, 'kite-progress.json'), 'utf8'), progress, 'the progress file is untouched');
    assert.equal(existsSync(join(p.repo, '.kite', 'runs')), false, 'no log was started');
  });

  it('an invalid schema withdraws that server, an exiting server is not started, the others work', async () => {
    const p = mcpProject();
    writeFiles(p, { 'tools/bad-server.mjs': BAD_SCHEMA_SERVER });
    writeConfig(p, { mcp: { servers: { bad: { command: process.execPath, args: ['tools/bad-server.mjs'] }, dead: { command: '/bin/sh', args: ['-c', 'echo dying >&2; exit 3'] }, everything: everythingServer() } } });
    approveServers(p.repo, loadMcpServers(p.repo, loadConfig(p.repo).mcp).servers, p.env);
    const model = new ScriptedModel([use('mcp__bad__fine', 'f1', {}), use('mcp__everything__echo', 'e1', { message: 'still here' }), say('Done.')]);
    const r = await runFeature({ root: p.repo, mode: 'attended', model: '', modelOverride: model, env: p.env }, new AnsweringHost());
    assert.equal(r.outcome, 'done', r.summary);
    const events = await logOf(r.logPath);
    const withdrawn = warnings(events, 'mcp_withdrawn');
    assert.equal(withdrawn.length, 1);
    assert.match(withdrawn[0].message, /MCP server "bad" .* lists a tool Kite cannot offer \("broken": its input schema does not compile: .*\), so all its tools are withdrawn/);
    const dead = warnings(events, 'mcp_not_started');
    assert.equal(dead.length, 1);
    assert.match(dead[0].message, /MCP server "dead" .*: it did not start: .*Its tools are not offered/);
    assert.ok(!model.requests[0].tools.some((t) => t.name.startsWith('mcp__bad__')));
    assert.equal(toolEvent(events, 'f1')?.error_code, 'unknown_tool');
    assert.equal(toolEvent(events, 'e1')?.output, 'Echo: still here');
  });
});
