// The command line around MCP, through the bundled CLI: `kite mcp list` shows each declared server,
// its command and whether it is approved; `kite trust --yes` approves them (in the person's own
// state, outside the workspace) and a changed server shows as changed; a run's start prints which
// servers started and which were not approved; a bad server entry is an error naming file and key.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCli, kite } from '../resume/kit';
import { everythingServer, mcpProject, writeConfig, writeFiles } from './kit';

describe('kite mcp list / kite trust / kite run with MCP servers (system)', function () {
  this.timeout(180_000);
  let cli = '';
  before(async () => {
    cli = await buildCli();
  });

  it('lists, approves, notices a change, and the run prints what started', () => {
    const p = mcpProject();
    writeConfig(p, { mcp: { servers: { everything: everythingServer({ TOKEN_NAME: 'x' }) } } });
    writeFiles(p, { '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'npx', args: ['-y', 'some-mcp-server'] } } }) });
    const env = { KITE_STATE_DIR: p.stateDir };

    const list1 = kite(cli, p.repo, ['mcp', 'list'], env);
    assert.equal(list1.status, 0, list1.stderr);
    assert.match(list1.stdout, /everything\s+not approved\s+TOKEN_NAME=… \S*node \S*server-everything\/dist\/index\.js stdio {2}\(\.kite\/config\.json\)/);
    assert.match(list1.stdout, /other\s+not approved\s+npx -y some-mcp-server {2}\(\.mcp\.json\)/);
    assert.match(list1.stdout, /Review and approve them with: kite trust /);

    const noYes = kite(cli, p.repo, ['trust'], env);
    assert.equal(noYes.status, 2);
    assert.match(noYes.stdout, /MCP servers of .*\n {2}everything \(\.kite\/config\.json\): .*\[not approved\]/);
    const yes = kite(cli, p.repo, ['trust', '--yes'], env);
    assert.equal(yes.status, 0, yes.stderr);
    assert.match(yes.stdout, new RegExp(`Approved \\(recorded in ${join(p.stateDir, 'trust.json')}\\)`));
    const json = JSON.parse(kite(cli, p.repo, ['mcp', 'list', '--json'], env).stdout) as { server: string; state: string }[];
    assert.deepEqual(json.map((r) => [r.server, r.state]), [['everything', 'approved'], ['other', 'approved']]);

    // Running: the start says which server started (and its tools); `other` is approved but cannot start here (no npx package, no network).
    writeFiles(p, { '.mcp.json': '{"mcpServers": {}}' });
    const script = join(p.stateDir, 'script.json');
    writeFileSync(script, JSON.stringify([{ content: [{ type: 'tool_use', id: 'e1', name: 'mcp__everything__echo', input: { message: 'cli' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } }, { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } }]));
    writeConfig(p, { mcp: { servers: { everything: everythingServer({ TOKEN_NAME: 'x' }) } }, policy: { rules: [{ decision: 'allow', tool: 'mcp__everything__echo' }] } });
    const run = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${script}`], env);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /mcp {3}MCP server "everything" \(\.kite\/config\.json: .*\) started; its tools: mcp__everything__echo, /);
    assert.match(run.stdout, /mcp__everything__echo/);

    // A changed command line is no longer approved.
    writeConfig(p, { mcp: { servers: { everything: everythingServer({ TOKEN_NAME: 'x', SECOND: 'y' }) } } });
    const list2 = kite(cli, p.repo, ['mcp', 'list'], env);
    assert.match(list2.stdout, /everything\s+changed since approval \(not approved\)/);
    assert.equal(existsSync(join(p.repo, '.kite', 'trust.json')), false, 'nothing is stored in the workspace');
  });

  it('a bad server entry is an error naming the file and the key', () => {
    const p = mcpProject();
    writeFiles(p, { '.vscode/mcp.json': JSON.stringify({ servers: { broken: { command: 'x', args: 'not-a-list' } } }) });
    const r = kite(cli, p.repo, ['mcp', 'list'], { KITE_STATE_DIR: p.stateDir });
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /\.vscode\/mcp\.json:\d+:\d+: \$\.servers\.broken/);
    writeFiles(p, { '.vscode/mcp.json': '{}' });
    writeConfig(p, { mcp: { servers: { ok: { command: 'x', cwd: '/elsewhere' } } } });
    const r2 = kite(cli, p.repo, ['mcp', 'list'], { KITE_STATE_DIR: p.stateDir });
    assert.equal(r2.status, 2);
    assert.match(r2.stderr, /\.kite\/config\.json:\d+:\d+: \$\.mcp\.servers\.ok.*cwd/);
  });
});
