// The harness server process over real JSON-RPC (Node IPC, as the extension's LanguageClient
// uses it), driving real runs with a scripted model in a temporary git copy of the sample.
import assert from 'node:assert/strict';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { ResolvedSettingsSchema, Rpc, type ApprovalRequested, type EventNotification, type RunEnded, type WireApprovalAnswer } from '../../../src/harness/protocol/rpc';

const repo = join(__dirname, '..', '..', '..');
const script = (name: string) => join(repo, 'test', 'fixtures', 'scripts', name);
/** The raw kite.model setting, as the extension sends it (the user's own value). */
const model = (spec: string) => ({ model: { globalValue: spec } });

function sampleRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kite-server-'));
  cpSync(join(repo, 'test', 'fixtures', 'sample'), dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'sample');
  return dir;
}

interface Harness {
  child: ChildProcess;
  conn: MessageConnection;
  events: EventNotification[];
  approvals: ApprovalRequested[];
  withdrawn: string[];
  ended: Promise<RunEnded>;
  onApproval(fn: (a: ApprovalRequested) => WireApprovalAnswer | null): void;
}

async function startServer(extraEnv: NodeJS.ProcessEnv = {}): Promise<Harness> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ANTHROPIC_API_KEY; // no key in this process (the missing_key test relies on it)
  const child = fork(join(repo, 'src', 'harness', 'server', 'main.ts'), ['--node-ipc'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...env, ...extraEnv, GIT_AUTHOR_NAME: 'Kite Test', GIT_AUTHOR_EMAIL: 'kite@test', GIT_COMMITTER_NAME: 'Kite Test', GIT_COMMITTER_EMAIL: 'kite@test' },
  });
  const conn = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  const h: Harness = { child, conn, events: [], approvals: [], withdrawn: [], ended: null as unknown as Promise<RunEnded>, onApproval: () => undefined };
  let answerer: (a: ApprovalRequested) => WireApprovalAnswer | null = () => null;
  h.onApproval = (fn) => (answerer = fn);
  conn.onNotification(Rpc.event, (n: EventNotification) => void h.events.push(n));
  conn.onNotification(Rpc.approvalWithdrawn, (n: { id: string }) => void h.withdrawn.push(n.id));
  conn.onNotification(Rpc.approvalRequested, (a: ApprovalRequested) => {
    h.approvals.push(a);
    const answer = answerer(a);
    if (answer) void conn.sendRequest(Rpc.answerApproval, { token: a.token, id: a.request.id, answer });
  });
  h.ended = new Promise((resolve) => conn.onNotification(Rpc.runEnded, (e: RunEnded) => resolve(e)));
  conn.listen();
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  return h;
}

describe('harness server (JSON-RPC over Node IPC)', function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let dir: string | undefined;
  afterEach(() => {
    h?.conn.dispose();
    h?.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs a feature: approvals go out as notifications, answers come back, the run ends done with a commit', async () => {
    dir = sampleRepo();
    h = await startServer();
    h.onApproval((a) => (a.request.kind === 'command' ? { decision: 'approve', always: true } : { decision: 'approve' }));
    const { token } = await h.conn.sendRequest<{ token: string }>(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${script('extension-accept.json')}`) });
    const ended = await h.ended;
    assert.equal(ended.token, token);
    assert.equal(ended.error, null, ended.error?.message);
    assert.equal(ended.summary?.outcome, 'done');
    assert.match(ended.summary?.commit ?? '', /^[0-9a-f]{7,40}$/);
    assert.deepEqual(
      h.approvals.map((a) => (a.request.kind === 'command' ? a.request.command : a.request.path)),
      ['src/ledger.js', 'test/fees.test.js', 'node --version'],
    );
    assert.equal(h.approvals[0]!.root, dir);
    const kinds = h.events.map((e) => e.event.kind);
    assert.equal(kinds[0], 'session_start');
    assert.equal(kinds.at(-1), 'session_end');
    assert.ok(h.events.every((e) => e.log === ended.summary?.logPath), 'every event names the log');
    // "Always allow" wrote a rule for the command to the workspace policy.
    const config = JSON.parse(readFileSync(join(dir, '.kite', 'config.json'), 'utf8')) as { policy?: { rules?: { command?: string; decision?: string }[] } };
    assert.deepEqual(
      config.policy?.rules?.map((r) => [r.decision, r.command]),
      [['allow', 'node --version']],
    );
    assert.match(readFileSync(join(dir, 'src', 'ledger.js'), 'utf8'), /Math\.round\(paise\)/);
  });

  it('"Always allow" answers the same command later in the run without asking again', async () => {
    dir = sampleRepo();
    const twice = join(dir, '..', `${basename(dir)}-always.json`);
    const use = (id: string) => ({ content: [{ type: 'tool_use', id, name: 'run', input: { command: 'node --version' } }], stop_reason: 'tool_use', usage: { input_tokens: 10, output_tokens: 5 } });
    writeFileSync(twice, JSON.stringify([use('toolu_a1'), use('toolu_a2'), { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } }]));
    h = await startServer();
    h.onApproval(() => ({ decision: 'approve', always: true }));
    await h.conn.sendRequest(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${twice}`) });
    const ended = await h.ended;
    rmSync(twice, { force: true });
    assert.equal(h.approvals.length, 1, 'asked once');
    const tools = h.events.flatMap((e) => (e.event.kind === 'tool' ? [e.event] : []));
    assert.deepEqual(tools.map((t) => [t.id, t.is_error]), [['toolu_a1', false], ['toolu_a2', false]]);
    assert.ok(ended.summary);
  });

  it('stopRun during a pending approval withdraws it and ends the run cancelled', async () => {
    dir = sampleRepo();
    h = await startServer();
    const asked = new Promise<ApprovalRequested>((resolve) => h!.onApproval((a) => (resolve(a), null)));
    const { token } = await h.conn.sendRequest<{ token: string }>(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${script('extension-reject-stop.json')}`) });
    const a = await asked;
    assert.deepEqual(await h.conn.sendRequest(Rpc.stopRun, { token }), { stopped: true });
    const ended = await h.ended;
    assert.equal(ended.summary?.outcome, 'cancelled');
    assert.deepEqual(h.withdrawn, [a.request.id]);
    assert.equal(readFileSync(join(dir, 'src', 'ledger.js'), 'utf8'), readFileSync(join(repo, 'test', 'fixtures', 'sample', 'src', 'ledger.js'), 'utf8'), 'nothing was written');
  });

  it('kite/steer during a pending approval reaches the next turn; the reply streams as kite/stream (text and thinking), not into the log', async () => {
    dir = sampleRepo();
    h = await startServer();
    const streamed: { turn: number; text: string; thinking: string }[] = [];
    h.conn.onNotification(Rpc.stream, (n: { turn: number; text: string; thinking: string }) => void streamed.push(n));
    const first = new Promise<ApprovalRequested>((resolve) => h!.onApproval((a) => (resolve(a), null)));
    const { token } = await h.conn.sendRequest<{ token: string }>(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${script('extension-steer.json')}`) });
    const a = await first;
    const words = 'Keep the old rounding behind a LEGACY_ROUNDING flag.';
    assert.deepEqual(await h.conn.sendRequest(Rpc.steer, { token, text: words }), { queued: true, waiting: 1 });
    const second = new Promise<ApprovalRequested>((resolve) => h!.onApproval((x) => (resolve(x), null)));
    await h.conn.sendRequest(Rpc.answerApproval, { token, id: a.request.id, answer: { decision: 'approve' } });
    await second;
    const kinds = h.events.map((n) => (n.event.kind === 'user' ? `user:${n.event.reason}` : n.event.kind));
    const steerAt = kinds.indexOf('user:steer');
    assert.ok(steerAt > kinds.indexOf('tool') && steerAt < kinds.lastIndexOf('model'), kinds.join(' '));
    const steer = h.events[steerAt]!.event;
    assert.equal(steer.kind === 'user' ? steer.text : null, words);
    assert.ok(streamed.some((n) => n.turn === 2 && n.thinking.includes('flag') && n.text.includes('LEGACY_ROUNDING')), JSON.stringify(streamed));
    const log = readFileSync(h.events[0]!.log, 'utf8');
    assert.equal((log.match(/LEGACY_ROUNDING/g) ?? []).length, 2, 'once in the steer event, once in the reply: nothing streamed was logged');
    await h.conn.sendRequest(Rpc.stopRun, { token });
    await h.ended;
    assert.deepEqual(await h.conn.sendRequest(Rpc.steer, { token, text: 'too late' }), { queued: false, waiting: 0 });
  });

  it('an Anthropic run without a key ends with missing_key, not a crash', async () => {
    dir = sampleRepo();
    h = await startServer({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    await h.conn.sendRequest(Rpc.startRun, { root: dir, mode: 'attended', settings: model('anthropic:claude-sonnet-5-5') });
    const ended = await h.ended;
    assert.equal(ended.error?.code, 'missing_key', ended.error?.message);
  });

  it('answers bad params with InvalidParams naming the field', async () => {
    h = await startServer();
    await assert.rejects(h.conn.sendRequest(Rpc.startRun, { root: '', mode: 'sometimes', settings: model('x') }), (e: Error & { code?: number }) => {
      assert.equal(e.code, -32602);
      assert.match(e.message, /root/);
      assert.match(e.message, /mode/);
      return true;
    });
  });

  it('resolveSettings answers what the harness makes of the raw settings for a workspace', async () => {
    dir = sampleRepo();
    h = await startServer();
    const settings = { ...model('script:scripts/demo.json'), 'policy.denyCommands': { globalValue: ['(x'] }, sandbox: { workspaceValue: 'off' } };
    const r = ResolvedSettingsSchema.parse(await h.conn.sendRequest(Rpc.resolveSettings, { root: dir, settings }));
    assert.equal(r.model, `script:${join(dir, 'scripts', 'demo.json')}`);
    assert.match(r.summary, /\(model from setting; .*; sandbox on\)$/);
    assert.deepEqual(r.problems.map((p) => p.setting), ['kite.policy.denyCommands[0]']);
    assert.match(r.warnings.join('\n'), /kite\.sandbox in the workspace settings is ignored/);
  });

  it('a run refused for uncommitted changes names the paths on the wire (the editor says it its own way)', async () => {
    dir = sampleRepo();
    writeFileSync(join(dir, 'src', 'ledger.js'), '// a change the person has not committed\n');
    h = await startServer();
    await h.conn.sendRequest(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${script('extension-accept.json')}`) });
    const ended = await h.ended;
    assert.equal(ended.summary, null);
    assert.equal(ended.error?.code, 'dirty_tree');
    assert.deepEqual(ended.error?.paths, ['src/ledger.js']);
  });

  it('a run that cannot start ends with a typed error, not a crash', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kite-server-empty-'));
    h = await startServer();
    await h.conn.sendRequest(Rpc.startRun, { root: dir, mode: 'attended', settings: model(`script:${script('extension-accept.json')}`) });
    const ended = await h.ended;
    assert.equal(ended.summary, null);
    assert.ok(ended.error);
    assert.match(ended.error.message, /kite-progress\.json|progress/);
  });
});
