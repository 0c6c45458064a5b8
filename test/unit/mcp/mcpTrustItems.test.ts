// MCP servers in the one trust list (hooks/trustItems.ts) behind VS Code's trust modal: each server
// not approved here is an item with its exact command line (env NAMES, never values); approving
// what was shown records it in the store `kite trust` and `kite mcp list` read; a command line
// changed after the question approves nothing; approved servers are not asked again.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpMain } from '../../../src/harness/cli/mcpCommand';
import { loadConfig } from '../../../src/harness/config/config';
import { TrustChangedError, trustShown, trustStatus } from '../../../src/harness/hooks/trustItems';
import { isTrusted } from '../../../src/harness/hooks/trust';
import { trustPromptText } from '../../../src/extension/trust/trustPromptText';

const server = { command: 'node', args: ['srv.js', '--root', 'my dir'], env: { API_TOKEN: 'sekrit-value-123' } };
const hooks = { Stop: [{ hooks: [{ type: 'command', command: 'npm run lint' }] }] };

describe('trust items: MCP servers join the hooks in one prompt and one store', () => {
  let state: string;
  let env: NodeJS.ProcessEnv;
  const roots: string[] = [];
  const workspace = (config: unknown, files: Record<string, string> = {}) => {
    const root = mkdtempSync(join(tmpdir(), 'kite-mcp-trust-'));
    roots.push(root);
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify(config));
    for (const [rel, text] of Object.entries(files)) writeFileSync(join(root, rel), text);
    return root;
  };
  beforeEach(() => {
    state = mkdtempSync(join(tmpdir(), 'kite-mcp-trust-state-'));
    env = { ...process.env, KITE_STATE_DIR: state };
  });
  afterEach(() => {
    for (const r of [state, ...roots.splice(0)]) rmSync(r, { recursive: true, force: true });
  });

  it('lists each unapproved server with its exact command line, env variables by name only', () => {
    const root = workspace({ mcp: { servers: { tools: server } } }, { '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'uvx', args: ['mcp-server-git'] } } }) });
    const s = trustStatus(root, env);
    assert.equal(s.trusted, false);
    assert.equal(s.hooks_trusted, true, 'no hooks: refusing the servers still lets a run start');
    assert.deepEqual(
      s.items.map((i) => [i.kind, i.label, i.command, i.state]),
      [
        ['mcp_server', 'MCP server tools (.kite/config.json)', "API_TOKEN=… node srv.js --root 'my dir'", 'not_approved'],
        ['mcp_server', 'MCP server other (.mcp.json)', 'uvx mcp-server-git', 'not_approved'],
      ],
    );
    assert.ok(!JSON.stringify(s).includes('sekrit-value-123'), 'the env value is never part of what is shown');
    const t = trustPromptText(s);
    assert.equal(t.message, 'Trust the 2 MCP servers of this workspace?');
    assert.match(t.detail, /• MCP server tools \(\.kite\/config\.json\): API_TOKEN=… node srv\.js --root 'my dir'\n/);
    assert.match(t.detail, /Without trust in the servers, runs start without their tools\./);
    assert.doesNotMatch(t.detail, /no run starts here/);
  });

  it('trusting what was shown records the servers where kite mcp list reads them; they are not asked again', async () => {
    const root = workspace({ mcp: { servers: { tools: server } } });
    const file = trustShown(root, trustStatus(root, env).digest, env);
    assert.equal(file, join(state, 'trust.json'));
    const after = trustStatus(root, env);
    assert.equal(after.trusted, true);
    assert.deepEqual(after.items, []);
    const out: string[] = [];
    assert.equal(await mcpMain(['list', root, '--json'], { out: (l) => out.push(l), err: () => undefined }, env), 0);
    assert.deepEqual((JSON.parse(out.join('\n')) as { server: string; state: string }[]).map((r) => [r.server, r.state]), [['tools', 'approved']]);
  });

  it('a server whose command line changed is asked again, marked changed; one changed after the question approves nothing', () => {
    const root = workspace({ mcp: { servers: { tools: server } } });
    trustShown(root, trustStatus(root, env).digest, env);
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ mcp: { servers: { tools: { ...server, args: ['evil.js'] } } } }));
    const s = trustStatus(root, env);
    assert.equal(s.items[0]?.state, 'changed');
    assert.match(trustPromptText(s).detail, /CHANGED since you approved it: API_TOKEN=… node evil\.js/);
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ mcp: { servers: { tools: { ...server, args: ['worse.js'] } } } }));
    assert.throws(() => trustShown(root, s.digest, env), (e: unknown) => e instanceof TrustChangedError);
    assert.equal(trustStatus(root, env).items[0]?.state, 'changed', 'still not approved');
  });

  it('hooks and servers in one prompt: refusing it keeps the run from starting (hooks_trusted false); trusting records both', () => {
    const root = workspace({ hooks, mcp: { servers: { tools: server } } });
    const s = trustStatus(root, env);
    assert.equal(s.hooks_trusted, false);
    assert.deepEqual(s.items.map((i) => i.kind), ['hook', 'mcp_server']);
    const t = trustPromptText(s);
    assert.equal(t.message, 'Trust the 1 hook command and 1 MCP server of this workspace?');
    assert.match(t.detail, /Without trust in the hooks, no run starts here\. Without trust in the server, runs start without its tools\./);
    trustShown(root, s.digest, env);
    assert.equal(isTrusted(root, loadConfig(root).hooks, env), true);
    assert.equal(trustStatus(root, env).trusted, true);
  });

  it('trusted hooks are not asked again when only a server is new: the prompt names just the server', () => {
    const root = workspace({ hooks });
    trustShown(root, trustStatus(root, env).digest, env);
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ hooks, mcp: { servers: { tools: server } } }));
    const s = trustStatus(root, env);
    assert.equal(s.hooks_trusted, true);
    assert.equal(trustPromptText(s).message, 'Trust the 1 MCP server of this workspace?');
    assert.doesNotMatch(trustPromptText(s).detail, /npm run lint/);
  });
});
