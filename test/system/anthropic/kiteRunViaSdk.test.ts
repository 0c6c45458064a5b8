// Full `kite run` sessions on Claude's path: the bundled CLI (built here from source into a temp
// folder), the real SDK, and the local Messages API server — on a temp git copy of the sample
// project. The session runs tools, fails the gate once, fixes it and ends done; every request
// passes the server's validation; injected transport faults never run a tool twice.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { costOf, priceOf } from '../../../src/harness/model/pricing';
import { loadScript } from '../../fakeAnthropic/script';
import { FakeAnthropicServer } from '../../fakeAnthropic/server';

const root = join(__dirname, '..', '..', '..');
const SCRIPT = join(root, 'test', 'fixtures', 'scripts', 'demo.json');
const SAMPLE = join(root, 'test', 'fixtures', 'sample');
const KEY = 'sk-ant-kite-run-test';
const MODEL = 'claude-sonnet-5-5';

type Ev = Record<string, unknown> & { kind: string };

function git(cwd: string, ...args: string[]): Promise<string> {
  return run('git', args, cwd, process.env).then((r) => {
    if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  });
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, onChild?: (c: ChildProcess) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('kite run through the Anthropic SDK against the local Messages API', function () {
  this.timeout(120_000);
  let tmp: string;
  let cli: string;
  let server: FakeAnthropicServer | undefined;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kite-sdk-run-'));
    cli = join(tmp, 'cli.js');
    // A private bundle, built like esbuild.mjs builds dist/cli.js, so parallel builds never interfere.
    await build({ entryPoints: [join(root, 'src/harness/cli.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], logLevel: 'error' });
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function project(name: string): Promise<string> {
    const dir = join(tmp, name);
    cpSync(SAMPLE, dir, { recursive: true });
    await git(dir, 'init', '-q', '-b', 'main');
    await git(dir, 'config', 'user.name', 'Kite Test');
    await git(dir, 'config', 'user.email', 'test@kite.invalid');
    await git(dir, 'config', 'commit.gpgsign', 'false');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'initial');
    return dir;
  }

  function kite(dir: string, key: string, onChild?: (c: ChildProcess) => void) {
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: server!.url };
    delete env.ANTHROPIC_AUTH_TOKEN;
    delete env.KITE_DEBUG;
    return run(process.execPath, [cli, 'run', '--unattended', '--model', `anthropic:${MODEL}`], dir, env, onChild);
  }

  function logOf(dir: string): Ev[] {
    const runs = join(dir, '.kite', 'runs');
    const file = readdirSync(runs).find((f) => f.endsWith('.jsonl'));
    assert.ok(file, 'a run log was written');
    return readFileSync(join(runs, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Ev);
  }

  /** Each tool call the model proposed ran exactly once. */
  function assertEachToolCallOnce(events: Ev[]): void {
    const proposedIds = events.filter((e) => e.kind === 'model').flatMap((e) => (e.content as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => b.id));
    const toolIds = events.filter((e) => e.kind === 'tool').map((e) => e.id as string);
    assert.deepEqual([...toolIds].sort(), [...proposedIds].sort());
    assert.equal(new Set(toolIds).size, toolIds.length, `duplicate tool executions: ${toolIds.join(', ')}`);
  }

  it('runs a multi-turn session with tools and a failing-then-passing gate to done; every request passes validation and reads the cache', async () => {
    server = await FakeAnthropicServer.start({ script: loadScript(SCRIPT), apiKeys: [KEY] });
    const dir = await project('plain');
    const r = await kite(dir, KEY);
    assert.equal(r.code, 0, `kite run failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /F1: done in 7 turns/);
    const progress = JSON.parse(readFileSync(join(dir, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[] };
    assert.equal(progress.features.find((f) => f.id === 'F1')?.status, 'done');

    assert.equal(server.requests.length, 7);
    for (const q of server.requests) {
      assert.equal(q.outcome, 'served', `request ${q.n} was ${q.outcome}: ${q.error?.message ?? ''}`);
      assert.ok(q.cacheControlBlocks >= 3 && q.cacheControlBlocks <= 4, `request ${q.n}: ${q.cacheControlBlocks} breakpoints`);
    }
    // The harness keeps the prefix byte-stable: tools and system are identical in every request.
    const prefixes = new Set(server.requests.map((q) => JSON.stringify([(q.body as { tools: unknown }).tools, (q.body as { system: unknown }).system])));
    assert.equal(prefixes.size, 1, 'tools + system changed between turns');
    const reads = server.requests.map((q) => q.usage!.cache_read_input_tokens);
    for (let i = 1; i < reads.length; i++) assert.ok(reads[i]! > reads[i - 1]!, `cache reads grow turn by turn: ${reads.join(', ')}`);

    const events = logOf(dir);
    const gates = events.filter((e) => e.kind === 'gate').map((e) => e.passed);
    assert.deepEqual(gates, [false, true]);
    assertEachToolCallOnce(events);
    // The log holds the usage the server reported and the cost priced from it.
    const models = events.filter((e) => e.kind === 'model');
    assert.deepEqual(
      models.map((e) => e.cache_read_input_tokens),
      server.requests.map((q) => q.usage!.cache_read_input_tokens),
    );
    for (const [i, e] of models.entries()) {
      const u = server.requests[i]!.usage!;
      assert.ok(Math.abs((e.cost_usd as number) - costOf(u, priceOf(MODEL))) < 1e-12);
    }
  });

  it('survives 429, a dropped stream, 529, 500 and a mid-stream error with each tool call executed exactly once', async () => {
    const script = loadScript(SCRIPT);
    script[0]!.faults = [{ kind: 'rate_limit', retry_after_s: 0 }];
    script[1]!.faults = [{ kind: 'drop', after_events: 30 }]; // inside the edit_file arguments
    script[3]!.faults = [{ kind: 'overloaded' }, { kind: 'server_error' }];
    script[4]!.faults = [{ kind: 'stream_error', after_events: 10 }]; // inside the run arguments
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const dir = await project('faults');
    const r = await kite(dir, KEY);
    assert.equal(r.code, 0, `kite run failed:\n${r.stdout}\n${r.stderr}`);

    assert.deepEqual(
      server.requests.map((q) => [q.turn, q.outcome]),
      [
        [1, 'fault'],
        [1, 'served'],
        [2, 'fault'],
        [2, 'served'],
        [3, 'served'],
        [4, 'fault'],
        [4, 'fault'],
        [4, 'served'],
        [5, 'fault'],
        [5, 'served'],
        [6, 'served'],
        [7, 'served'],
      ],
    );
    assert.ok(server.requests.every((q) => q.outcome !== 'rejected'));
    const events = logOf(dir);
    assert.deepEqual(
      events.filter((e) => e.kind === 'model_retry').map((e) => [e.turn, e.attempt, String(e.reason).split(':')[0]]),
      [
        [1, 1, 'rate_limited'],
        [2, 1, 'stream_cut'],
        [4, 1, 'overloaded'],
        [4, 2, 'server_error'],
        [5, 1, 'overloaded'],
      ],
    );
    assert.deepEqual(
      events.filter((e) => e.kind === 'model').map((e) => e.retries),
      [1, 1, 0, 2, 1, 0, 0],
    );
    assertEachToolCallOnce(events);
    // The non-idempotent edit ran once: its new comment is in the file exactly once.
    const ledger = readFileSync(join(dir, 'src', 'ledger.js'), 'utf8');
    assert.equal(ledger.split('Work in paise').length - 1, 1);
    assert.ok(events.filter((e) => e.kind === 'tool' && e.name === 'edit_file').every((e) => e.is_error === false));
  });

  it('Ctrl-C while Claude is answering aborts the HTTP request and ends the run cancelled', async () => {
    const script = loadScript(SCRIPT);
    script[1]!.faults = [{ kind: 'slow', delay_ms: 60_000 }];
    server = await FakeAnthropicServer.start({ script, apiKeys: [KEY] });
    const dir = await project('cancel');
    let child: ChildProcess | undefined;
    server.on('arrived', (r: { turn: number }) => r.turn === 2 && child?.kill('SIGINT'));
    const closed = new Promise<{ outcome: string; turn: number | null }>((resolve) => server!.on('request', (r: { outcome: string; turn: number | null }) => r.turn === 2 && resolve(r)));
    const r = await kite(dir, KEY, (c) => (child = c));
    assert.equal(r.code, 1, `exit code ${r.code}\n${r.stdout}\n${r.stderr}`);
    assert.equal((await closed).outcome, 'client_closed', 'the server saw the request go away');
    const events = logOf(dir);
    assert.equal(events.at(-1)?.kind, 'session_end');
    assert.equal(events.at(-1)?.status, 'cancelled');
    assert.equal(events.filter((e) => e.kind === 'tool').length, 1, 'only the first turn’s tool ran');
  });

  it('a rejected key ends the run with the clear message and its fix, no stack trace', async () => {
    server = await FakeAnthropicServer.start({ script: loadScript(SCRIPT), apiKeys: [KEY] });
    const dir = await project('badkey');
    const r = await kite(dir, 'sk-ant-not-the-key');
    assert.ok(r.code === 1 || r.code === 2, `exit code ${r.code}`);
    // The whole reason is on stderr (the timeline's `end` row on stdout may clip it).
    assert.match(r.stderr, /^kite: .*The Anthropic API rejected the API key; set the ANTHROPIC_API_KEY environment variable/m);
    // A key problem is not the feature's failure: it stays in_progress so the next run picks it up.
    const progress = JSON.parse(readFileSync(join(dir, 'kite-progress.json'), 'utf8')) as { features: { id: string; status: string }[] };
    assert.equal(progress.features[0].status, 'in_progress');
    const end = logOf(dir).at(-1);
    assert.equal(end?.kind, 'session_end');
    assert.match(String(end?.error), /rejected the API key; set the ANTHROPIC_API_KEY .* \(401 authentication_error: invalid x-api-key/);
    assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .+:\d+:\d+/, 'no stack trace');
    assert.doesNotMatch(r.stderr + r.stdout, /sk-ant-not-the-key/, 'the key is never printed');
    assert.equal(server.requests.length, 1, 'an auth failure is not retried');
  });
});
