// Where MCP servers are declared and how a bad declaration is reported; how approvals are keyed.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { describeServer, loadMcpServers, resolveHeaders, timeoutsOf } from '../../../src/harness/mcp/mcpConfig';
import { approvalOf, approveServers, serverDigest } from '../../../src/harness/mcp/mcpTrust';
import { tempDir } from '../loop/kit';

function workspace(files: Record<string, string>): string {
  const root = tempDir('kite-mcp-cfg-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe('MCP server configuration', () => {
  it("the README's MCP example is a valid config under which its npx servers can start (network for the download, time to start)", () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### MCP tools'));
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '';
    const root = workspace({ '.kite/config.json': example });
    const config = loadConfig(root);
    const { servers } = loadMcpServers(root, config.mcp);
    const npx = servers.filter((s) => 'command' in s.spec && s.spec.command === 'npx');
    assert.ok(npx.length > 0, 'the example shows npx servers');
    assert.equal(config.sandbox.network, 'host', 'npx must reach the registry from inside the sandbox');
    for (const s of npx) assert.ok(timeoutsOf(s, config.mcp?.timeout_s).startMs >= 60_000, `${s.name}: npx needs time to download the server`);
  });

  it('reads all three files, Kite first; a name declared twice keeps the first and says so', () => {
    const root = workspace({
      '.kite/config.json': JSON.stringify({ mcp: { servers: { a: { command: 'node', args: ['a.js'], env: { TOKEN: 's3cret' } } } } }),
      '.vscode/mcp.json': JSON.stringify({ inputs: [], servers: { b: { type: 'http', url: 'http://127.0.0.1:9/mcp' }, a: { command: 'other' } } }),
      '.mcp.json': JSON.stringify({ mcpServers: { c: { command: 'npx', args: ['-y', 'pkg with space'] } } }),
    });
    const { servers, shadowed } = loadMcpServers(root, loadConfig(root).mcp);
    assert.deepEqual(servers.map((s) => [s.name, s.source]), [['a', '.kite/config.json'], ['b', '.vscode/mcp.json'], ['c', '.mcp.json']]);
    assert.equal(shadowed.length, 1);
    assert.match(shadowed[0], /"a" in \.vscode\/mcp\.json is ignored: \.kite\/config\.json declares/);
    // The env value is never shown, only its name.
    assert.equal(describeServer(servers[0].spec), 'TOKEN=… node a.js');
    assert.equal(describeServer(servers[2].spec), "npx -y 'pkg with space'");
  });

  it('a bad entry is an error naming the file and the JSON path', () => {
    const bad = (files: Record<string, string>) => {
      const root = workspace(files);
      return () => loadMcpServers(root, loadConfig(root).mcp);
    };
    assert.throws(bad({ '.mcp.json': JSON.stringify({ mcpServers: { x: { args: ['a'] } } }) }), /\.mcp\.json:\d+:\d+: \$\.mcpServers\.x/);
    assert.throws(bad({ '.vscode/mcp.json': '{"servers": {"x": {"command": "a",}' }), /\.vscode\/mcp\.json/);
    assert.throws(bad({ '.kite/config.json': JSON.stringify({ mcp: { servers: { 'bad name!': { command: 'a' } } } }) }), /config\.json:\d+:\d+: \$\.mcp\.servers/);
    assert.throws(bad({ '.kite/config.json': JSON.stringify({ mcp: { servers: { x: { command: 'a', env: { 'NOT-A-NAME': 'v' } } } } }) }), /\$\.mcp\.servers\.x\.env/);
    assert.throws(bad({ '.kite/config.json': JSON.stringify({ mcp: { severs: {} } }) }), /\$\.mcp/);
  });

  it('approval is keyed to command, args and env names (not values), and kept outside the workspace', () => {
    const spec = { command: 'node', args: ['s.js'], env: { TOKEN: 'one' } };
    assert.equal(serverDigest(spec), serverDigest({ ...spec, env: { TOKEN: 'two' } }), 'a new token value is the same server');
    assert.notEqual(serverDigest(spec), serverDigest({ ...spec, env: { TOKEN: 'one', MORE: 'x' } }));
    assert.notEqual(serverDigest(spec), serverDigest({ ...spec, args: ['s.js', '--unsafe'] }));
    const root = workspace({});
    const env = { KITE_STATE_DIR: tempDir('kite-mcp-state-') };
    const entry = { name: 's', source: '.mcp.json', spec };
    assert.equal(approvalOf(root, entry, env), 'not_approved');
    approveServers(root, [entry], env);
    assert.equal(approvalOf(root, entry, env), 'approved');
    assert.equal(approvalOf(root, { ...entry, spec: { ...spec, args: ['other.js'] } }, env), 'changed');
    assert.equal(approvalOf(workspace({}), entry, env), 'not_approved', 'another workspace is not approved');
  });

  it('a URL server: header values from the environment, never shown; approval keyed on URL, header names and the variables they take', () => {
    const spec = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:MCP_TOKEN}', 'X-Team': 'core' } };
    assert.equal(describeServer(spec), 'https://mcp.example.com/mcp Authorization: … X-Team: …');
    assert.deepEqual(resolveHeaders(spec.headers, { MCP_TOKEN: 'abc' }), { ok: true, headers: { Authorization: 'Bearer abc', 'X-Team': 'core' } });
    assert.deepEqual(resolveHeaders(spec.headers, {}), { ok: false, problem: 'its header Authorization uses ${env:MCP_TOKEN}, and MCP_TOKEN is not set in Kite\'s environment' });
    assert.match(JSON.stringify(resolveHeaders({ Authorization: '${env:OPENAI_API_KEY}' }, { OPENAI_API_KEY: 'sk-x' })), /Kite's own credential/);
    assert.deepEqual(resolveHeaders({ Authorization: 'Bearer ${input:token}' }, {}), { ok: false, problem: "its header Authorization uses ${input:token}, which Kite cannot fill in (only ${env:NAME}, from Kite's environment)" });
    assert.equal(serverDigest({ url: spec.url, headers: {} }), serverDigest({ url: spec.url, headers: {} }));
    assert.equal(serverDigest(spec), serverDigest({ ...spec, headers: { ...spec.headers, 'X-Team': 'other' } }), 'a literal value is not part of it');
    assert.notEqual(serverDigest(spec), serverDigest({ ...spec, headers: { ...spec.headers, Authorization: 'Bearer ${env:HOME}' } }), 'another variable asks again');
    assert.notEqual(serverDigest(spec), serverDigest({ ...spec, url: 'https://evil.example.com/mcp' }));
  });

  it('timeouts: the server\'s own, else mcp.timeout_s, else 10 s to start and 60 s per call', () => {
    const root = workspace({ '.kite/config.json': JSON.stringify({ mcp: { servers: { a: { command: 'a', start_timeout_s: 2 }, b: { url: 'http://127.0.0.1:9/mcp', call_timeout_s: 5 } } } }) });
    const [a, b] = loadMcpServers(root, loadConfig(root).mcp).servers;
    assert.deepEqual(timeoutsOf(a, undefined), { startMs: 2000, callMs: 60_000 });
    assert.deepEqual(timeoutsOf(b, undefined), { startMs: 10_000, callMs: 5000 });
    assert.deepEqual(timeoutsOf(b, 3), { startMs: 3000, callMs: 5000 });
  });
});
