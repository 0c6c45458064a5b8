// MCP in a real VS Code (issue 16 part 3): a workspace whose .kite/config.json declares the REAL
// @modelcontextprotocol/server-everything (from node_modules, over stdio, in the sandbox). Refused
// in the trust prompt, the run starts without its tools and says so; trusted through the prompt
// (recorded where `kite trust` keeps it), the MCP Servers view lists it with its tools, the
// scripted model's call to mcp__everything__echo shows an approval prompt naming tool and server,
// the test accepts that quick pick in the UI, and the log holds the server's real answer.
import assert from 'node:assert/strict';
import { realpathSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadConfig } from '../../src/harness/config/config';
import { loadMcpServers } from '../../src/harness/mcp/mcpConfig';
import { approvalOf } from '../../src/harness/mcp/mcpTrust';
import type { TrustStatusWire } from '../../src/harness/protocol/rpc';
import type { Notice } from '../../src/extension/notices';
import type { ShownPrompt } from '../../src/extension/approvals/commandApproval';
import type { KiteParts } from '../../src/extension/wireKite';
import { git, kite, nextRunEnd, readEvents, resetWorkspace, stopRuns, useScript } from './extensionHelpers';
import { testEnv } from './env';
import { waitFor } from './waitFor';

const CALL = 'toolu_mcp_echo';

function everythingApproval(ws: string): string {
  const server = loadMcpServers(ws, loadConfig(ws).mcp).servers.find((s) => s.name === 'everything');
  assert.ok(server, 'the workspace declares the server');
  return approvalOf(ws, server);
}

async function mcpView(k: KiteParts): Promise<{ label: string; description: string; children: { label: string; description: string; tooltip: string }[] }[]> {
  const text = (t: vscode.TreeItem['tooltip']) => (typeof t === 'string' ? t : (t?.value ?? ''));
  return (await k.mcpItems()).map(({ item, children }) => ({
    label: String(item.label),
    description: String(item.description ?? ''),
    children: children.map((c) => ({ label: String(c.label), description: String(c.description ?? ''), tooltip: text(c.tooltip) })),
  }));
}

describe('extension: MCP servers (trust prompt, view, approval prompt)', function () {
  this.timeout(150_000);
  let k: KiteParts;
  let ws: string;
  let serverJs: string;
  let setup: string; // the commit with the server: each test starts from it (a done run commits F1 as done)

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
    const nodeModules = realpathSync(join(testEnv().repo, 'node_modules'));
    serverJs = join(nodeModules, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const cfgPath = join(ws, '.kite', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
    // node_modules is visible read-only in the sandbox; the env value is a stand-in secret.
    const mcp = { servers: { everything: { command: 'node', args: [serverJs, 'stdio'], env: { EVERYTHING_TOKEN: 'not-a-real-secret-42' } } } };
    writeFileSync(cfgPath, JSON.stringify({ ...cfg, sandbox: { mounts: { read_only: [nodeModules] } }, mcp }, null, 2));
    // A feature the echo call completes: no file to change, no verify command (the checks still run).
    const progressPath = join(ws, 'kite-progress.json');
    const progress = JSON.parse(readFileSync(progressPath, 'utf8')) as { features: Record<string, unknown>[] };
    progress.features = [{ id: 'F1', title: 'Greet through the MCP server', status: 'todo', verify: null, notes: '', expects_no_change: true }];
    writeFileSync(progressPath, JSON.stringify(progress, null, 2) + '\n');
    git(ws, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'test: an MCP server');
    setup = git(ws, 'rev-parse', 'HEAD');
    await useScript('extension-mcp-echo.json');
  });
  afterEach(() => k.answerTrustPromptWith(null));
  after(async () => {
    await stopRuns(k);
    await resetWorkspace();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it("Don't Trust: the run starts without the server's tools and its start says so", async () => {
    const asked: TrustStatusWire[] = [];
    k.answerTrustPromptWith(async (s) => (asked.push(s), false));
    const notes: Notice[] = [];
    const sub = k.onDidNotify((n) => notes.push(n));
    const ended = nextRunEnd(k, 90_000);
    try {
      assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'), 'the run starts: only servers were refused');
      const end = await ended;
      assert.ok(end.summary, end.error?.message);
      // The prompt named the exact command line, env variables by name only.
      assert.equal(asked.length, 1);
      const item = asked[0].items.find((i) => i.kind === 'mcp_server');
      assert.ok(item, JSON.stringify(asked[0].items));
      assert.equal(item.command, `EVERYTHING_TOKEN=… node ${serverJs} stdio`);
      assert.ok(!JSON.stringify(asked[0]).includes('not-a-real-secret-42'), 'the env value is never shown');
      assert.equal(everythingApproval(ws), 'not_approved', 'nothing was recorded');

      const events = readEvents(end.summary.logPath);
      const start = events.find((e) => e.kind === 'session_start');
      assert.ok(start?.kind === 'session_start' && !start.tools.some((t) => t.name.startsWith('mcp__')), 'no MCP tool was offered');
      const warning = events.find((e) => e.kind === 'warning' && e.code === 'mcp_unapproved');
      assert.ok(warning?.kind === 'warning' && warning.server === 'everything', 'the run start says the server is not approved');
      const tool = events.find((e) => e.kind === 'tool' && e.id === CALL);
      assert.ok(tool?.kind === 'tool' && tool.is_error, 'the call to the unoffered tool was refused');
      assert.ok(!events.some((e) => e.kind === 'approval_request' && e.id === CALL), 'nobody was asked to approve a call to it');
      assert.ok(notes.some((n) => /MCP server "everything".*not approved on this machine/.test(n.text) && n.actions.some((a) => a.command === 'kite.reviewMcpServers')), notes.map((n) => n.text).join('\n'));

      const view = await mcpView(k);
      assert.equal(view[0]?.label, 'everything');
      assert.equal(view[0]?.description, 'not approved');
      assert.match(view[0]?.children[0]?.label ?? '', /Not approved on this machine: its tools are not offered/);
    } finally {
      sub.dispose();
    }
    git(ws, 'reset', '-q', '--hard', setup);
    git(ws, 'clean', '-qfd');
  });

  it('trusted through the prompt: the view lists its tools; the approval prompt names tool and server, is accepted in the UI, and the log holds the real answer', async () => {
    let asks = 0;
    k.answerTrustPromptWith(async () => (asks++, true));
    await vscode.commands.executeCommand('kite.reviewMcpServers');
    assert.equal(asks, 1);
    assert.equal(everythingApproval(ws), 'approved', 'recorded in the store kite trust reads');

    const view = await mcpView(k);
    assert.equal(view[0]?.description, 'approved');
    const echo = view[0]?.children.find((c) => c.label === 'echo');
    assert.ok(echo, `the server's tools are listed: ${view[0]?.children.map((c) => c.label).join(', ')}`);
    assert.match(echo.tooltip, /mcp__everything__echo/);

    const shown = new Promise<ShownPrompt>((resolve, reject) => {
      const timer = setTimeout(() => (sub.dispose(), reject(new Error('no MCP approval prompt was shown within 60 s'))), 60_000);
      const sub = k.onDidShowApprovalPrompt((s) => (clearTimeout(timer), sub.dispose(), resolve(s)));
    });
    const ended = nextRunEnd(k, 120_000);
    ended.catch(() => undefined); // awaited below; a failure before that must not turn into an unhandled rejection
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'));
    const prompt = await shown;
    assert.match(prompt.title, /Tool `echo` from MCP server `everything`/);
    assert.match(prompt.placeHolder, /Arguments: \{"message":"hello from kite"\}/);
    assert.match(prompt.placeHolder, /policy rule ask:mcp/);
    // The run's mcp_started event came before its approval request (one ordered connection).
    assert.equal((await mcpView(k))[0]?.description, 'running', 'the MCP view shows the server running in the run');
    // The first item of the real quick pick is "Allow once": accept it as Enter would (again if
    // the workbench had not rendered the pick yet when the first Enter came).
    assert.equal(k.pendingApprovals().length, 1);
    for (let i = 0; i < 10 && k.pendingApprovals().length; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await waitFor('the approval answered from its quick pick', () => (k.pendingApprovals().length ? undefined : true), [k.onDidChangeApprovals], 2_000).catch(() => undefined);
    }
    assert.equal(k.pendingApprovals().length, 0, 'accepting the quick pick answered the approval');
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message ?? end.summary?.why);
    assert.equal(asks, 1, 'an approved server is not asked again');

    const events = readEvents(end.summary.logPath);
    const kinds = events.filter((e) => 'id' in e && e.id === CALL).map((e) => e.kind);
    assert.deepEqual(kinds, ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool']);
    const policy = events.find((e) => e.kind === 'policy' && e.id === CALL);
    assert.ok(policy?.kind === 'policy' && policy.rule === 'ask:mcp');
    const approval = events.find((e) => e.kind === 'approval' && e.id === CALL);
    assert.ok(approval?.kind === 'approval' && approval.decision === 'approve');
    const tool = events.find((e) => e.kind === 'tool' && e.id === CALL);
    assert.ok(tool?.kind === 'tool' && !tool.is_error && tool.output === 'Echo: hello from kite', JSON.stringify(tool));
    assert.ok(!readFileSync(end.summary.logPath, 'utf8').includes('not-a-real-secret-42'), 'the env value never reaches the log');
  });
});
