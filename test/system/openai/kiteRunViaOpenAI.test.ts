// Full `kite run --model openai:<id>` sessions: the bundled CLI (built here from source), the real
// `openai` SDK, and the local chat-completions server (test/fakeOpenAI) — on a temp git copy of the
// sample project. The session ends done; 429, 500 and a cut stream are survived with each tool run
// once; malformed tool calls are reported to the model; usage and cost are in the log; `kite cost`
// shows the provider; a replay of the OpenAI run reproduces it without calling the server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { costOf, priceOf } from '../../../src/harness/model/pricing';
import { loadScript, type ScriptEntry } from '../../fakeOpenAI/script';
import { FakeOpenAIServer } from '../../fakeOpenAI/server';
import type { Usage } from '../../fakeOpenAI/wire';

const root = join(__dirname, '..', '..', '..');
const SCRIPT = join(root, 'test', 'fixtures', 'scripts', 'demo.json');
const SAMPLE = join(root, 'test', 'fixtures', 'sample');
const KEY = 'sk-proj-kite-openai-run-test';
const MODEL = 'gpt-4.1-mini';

type Ev = Record<string, unknown> & { kind: string };

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const r = await run('git', args, cwd, process.env);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

describe('kite run through the OpenAI SDK against a local chat-completions server', function () {
  this.timeout(120_000);
  let tmp: string;
  let cli: string;
  let server: FakeOpenAIServer | undefined;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kite-openai-run-'));
    cli = join(tmp, 'cli.js');
    await build({ entryPoints: [join(root, 'src/harness/cli.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], logLevel: 'error' });
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function project(name: string, config?: object): Promise<string> {
    const dir = join(tmp, name);
    cpSync(SAMPLE, dir, { recursive: true });
    if (config) {
      const file = join(dir, '.kite', 'config.json');
      const base = JSON.parse(readFileSync(file, 'utf8')) as object;
      writeFileSync(file, JSON.stringify({ ...base, ...config }, null, 2));
    }
    await git(dir, 'init', '-q', '-b', 'main');
    await git(dir, 'config', 'user.name', 'Kite Test');
    await git(dir, 'config', 'user.email', 'test@kite.invalid');
    await git(dir, 'config', 'commit.gpgsign', 'false');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'initial');
    return dir;
  }

  function kite(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
    const e: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server?.url, ...env };
    for (const k of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'KITE_DEBUG', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID']) delete e[k];
    return run(process.execPath, [cli, ...args], dir, e);
  }

  function logs(dir: string): string[] {
    const runs = join(dir, '.kite', 'runs');
    return readdirSync(runs)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .map((f) => join(runs, f));
  }

  const events = (file: string): Ev[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Ev);

  function assertEachToolCallOnce(evs: Ev[]): void {
    const proposedIds = evs.filter((e) => e.kind === 'model').flatMap((e) => (e.content as { type: string; id?: string }[]).filter((b) => b.type === 'tool_use').map((b) => b.id));
    const toolIds = evs.filter((e) => e.kind === 'tool').map((e) => e.id as string);
    assert.deepEqual([...toolIds].sort(), [...proposedIds].sort());
    assert.equal(new Set(toolIds).size, toolIds.length, `duplicate tool executions: ${toolIds.join(', ')}`);
  }

  it('a scripted session ends done; usage with cached tokens and cost are in the log; kite cost shows the provider; a replay reproduces it', async () => {
    server = await FakeOpenAIServer.start({ script: loadScript(SCRIPT), apiKeys: [KEY] });
    const dir = await project('plain');
    const r = await kite(dir, ['run', '--unattended', '--model', `openai:${MODEL}`]);
    assert.equal(r.code, 0, `kite run failed:\n${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /F1: done in 7 turns/);
    assert.equal(server.requests.length, 7);
    for (const q of server.requests) assert.equal(q.outcome, 'served', `request ${q.n} was ${q.outcome}: ${q.error?.message ?? ''}`);
    for (const q of server.requests) assert.ok(q.keyPresented && q.stream);

    const [log] = logs(dir);
    const evs = events(log!);
    assert.equal(readFileSync(log!, 'utf8').includes(KEY), false, 'the API key is not in the log');
    assert.equal(evs[0]?.model, `openai:${MODEL}`, 'the run records provider and model');
    assert.deepEqual(
      evs.filter((e) => e.kind === 'gate').map((e) => e.passed),
      [false, true],
    );
    assertEachToolCallOnce(evs);
    const models = evs.filter((e) => e.kind === 'model');
    assert.ok(models.every((e) => e.model === `openai:${MODEL}`));
    // OpenAI counts cached tokens inside prompt_tokens; the log counts them apart.
    for (const [i, e] of models.entries()) {
      const u: Usage = server.requests[i]!.usage!;
      const cached: number = u.prompt_tokens_details.cached_tokens;
      assert.equal(e.cache_read_input_tokens, cached);
      assert.equal(e.input_tokens, u.prompt_tokens - cached);
      assert.equal(e.output_tokens, u.completion_tokens);
      const usage = { input_tokens: u.prompt_tokens - cached, output_tokens: u.completion_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: cached };
      assert.ok(Math.abs((e.cost_usd as number) - costOf(usage, priceOf(`openai:${MODEL}`))) < 1e-12);
      assert.ok((e.cost_usd as number) > 0);
    }
    assert.ok(models.some((e) => (e.cache_read_input_tokens as number) > 0), 'later turns read the cached prefix');

    const cost = await kite(dir, ['cost']);
    assert.equal(cost.code, 0, cost.stderr);
    assert.match(cost.stdout, /^Per model:\nPROVIDER\s+MODEL\s+RUNS\s+TOKENS\s+BILLED \$\nopenai\s+gpt-4\.1-mini\s+1\s+[\d,]+\s+\$\d+\.\d{4}$/m);

    const served = server.requests.length;
    const replay = await kite(dir, ['run', '--replay', log!, '--worktree']);
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.match(replay.stdout, /gates: recorded FAILED, PASSED; replay FAILED, PASSED \(reproduced\)/);
    assert.equal(server.requests.length, served, 'a replay never calls the model');
  });

  it('survives 429, 500 and a cut stream with each tool call executed exactly once', async () => {
    const script = loadScript(SCRIPT);
    script[0]!.faults = [{ kind: 'rate_limit', retry_after_s: 0 }];
    script[1]!.faults = [{ kind: 'drop', after_chunks: 20 }]; // inside the edit_file arguments
    script[3]!.faults = [{ kind: 'server_error' }, { kind: 'unavailable' }];
    script[4]!.faults = [{ kind: 'stream_error', after_chunks: 8 }];
    server = await FakeOpenAIServer.start({ script, apiKeys: [KEY] });
    const dir = await project('faults');
    const r = await kite(dir, ['run', '--unattended', '--model', `openai:${MODEL}`]);
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
    const evs = events(logs(dir)[0]!);
    assert.deepEqual(
      evs.filter((e) => e.kind === 'model_retry').map((e) => [e.turn, e.attempt, String(e.reason).split(':')[0]]),
      [
        [1, 1, 'rate_limited'],
        [2, 1, 'stream_cut'],
        [4, 1, 'server_error'],
        [4, 2, 'server_error'],
        [5, 1, 'server_error'],
      ],
    );
    assert.deepEqual(
      evs.filter((e) => e.kind === 'model').map((e) => e.retries),
      [1, 1, 0, 2, 1, 0, 0],
    );
    assertEachToolCallOnce(evs);
    const ledger = readFileSync(join(dir, 'src', 'ledger.js'), 'utf8');
    assert.equal(ledger.split('Work in paise').length - 1, 1, 'the edit ran once');
  });

  it('malformed tool calls (arguments not JSON, an unknown tool, a call written as text) are reported to the model and counted by the repetition guard', async () => {
    const badArgs: ScriptEntry = { content: [], stop_reason: 'tool_use', tool_calls: [{ name: 'read_file', arguments: '{"path": "src/ledger.js"' }] };
    const inText: ScriptEntry = { content: [{ type: 'text', text: 'Reading it now.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/ledger.js"}}\n</tool_call>' }], stop_reason: 'end_turn' };
    const unknown: ScriptEntry = { content: [], stop_reason: 'tool_use', tool_calls: [{ name: 'open_file', arguments: '{"path": "src/ledger.js"}' }], finish_reason: 'stop' };
    server = await FakeOpenAIServer.start({ script: [badArgs, badArgs, badArgs, unknown, inText, ...loadScript(SCRIPT)], apiKeys: [KEY] });
    const dir = await project('malformed');
    const r = await kite(dir, ['run', '--unattended', '--model', `openai:${MODEL}`]);
    assert.equal(r.code, 0, `kite run failed:\n${r.stdout}\n${r.stderr}`);
    assert.ok(server.requests.every((q) => q.outcome === 'served'), 'every request (with the malformed calls sent back) passed validation');

    const evs = events(logs(dir)[0]!);
    const tools = evs.filter((e) => e.kind === 'tool');
    for (const t of tools.slice(0, 5)) assert.equal(t.is_error, true, String(t.output));
    assert.match(String(tools[0]!.output), /^The arguments of this read_file call were not valid JSON \(.+\), so it was not run\./);
    assert.doesNotMatch(String(tools[1]!.output), /\[Kite\] Warning/);
    assert.match(String(tools[2]!.output), /\[Kite\] Warning: this is call number 3 of read_file/);
    assert.match(String(tools[3]!.output), /There is no tool named "open_file"\. Nothing was run\./);
    assert.match(String(tools[4]!.output), /You wrote a read_file call in your message text \(inside <tool_call> tags\) instead of making it through function calling, so it was not run\./);
    assert.ok(evs.some((e) => e.kind === 'warning' && e.code === 'repetition'));
    // The model saw each result: the next request carries it as a tool message.
    const toolMessages = (n: number) => ((server!.requests[n]!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool').map((m) => m.content));
    assert.match(toolMessages(1).at(-1)!, /^Error: The arguments of this read_file call were not valid JSON/);
    assert.match(toolMessages(5).at(-1)!, /^Error: You wrote a read_file call in your message text/);
    // The non-JSON arguments went back to the server exactly as the model sent them.
    const sentBack = (server.requests[1]!.body as { messages: { role: string; tool_calls?: { function: { arguments: string } }[] }[] }).messages.find((m) => m.tool_calls);
    assert.equal(sentBack?.tool_calls?.[0]?.function.arguments, '{"path": "src/ledger.js"');
    assert.equal(evs.at(-1)?.status, 'done');
  });

  it('a run killed mid-session resumes on the same provider and model, from the log, with each tool run once', async () => {
    // Where to crash: right after the 3rd model reply is on disk (its calls not yet run), found from a full run.
    server = await FakeOpenAIServer.start({ script: loadScript(SCRIPT), apiKeys: [KEY] });
    const full = await project('resume-probe');
    assert.equal((await kite(full, ['run', '--unattended', '--model', `openai:${MODEL}`])).code, 0);
    const crashAt = events(logs(full)[0]!).filter((e) => e.kind === 'model')[2]!.seq as number;
    await server.close();

    server = await FakeOpenAIServer.start({ script: loadScript(SCRIPT), apiKeys: [KEY] });
    const dir = await project('resume');
    const crashed = await kite(dir, ['run', '--unattended', '--model', `openai:${MODEL}`], { KITE_TEST_CRASH_AFTER_SEQ: String(crashAt) });
    assert.notEqual(crashed.code, 0, 'the run was killed');
    assert.equal(server.turnsServed, 3);
    const log = logs(dir)[0]!;
    const resumed = await kite(dir, ['resume', log]);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(server.turnsServed, 7, 'the resumed run asked only for the turns it had not had');
    assert.ok(server.requests.every((q) => q.outcome === 'served'));
    const evs = events(log);
    assert.equal(evs.filter((e) => e.kind === 'resumed').length, 1);
    assert.deepEqual(
      evs.filter((e) => e.kind === 'model').map((e) => [e.turn, e.model]),
      [1, 2, 3, 4, 5, 6, 7].map((t) => [t, `openai:${MODEL}`]),
    );
    assertEachToolCallOnce(evs);
    assert.equal(evs.at(-1)?.status, 'done');
  });

  it('a local preset with no known price refuses to start under a dollar budget (exit 2, the fix named); priced at 0 in config it runs', async () => {
    server = await FakeOpenAIServer.start({ script: loadScript(SCRIPT), apiKeys: null, forbiddenKeys: [KEY] });
    const dir = await project('local', { providers: { ollama: { base_url: server.url } } });
    const refused = await kite(dir, ['run', '--unattended', '--model', 'ollama:qwen2.5-coder'], { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /kite: ollama:qwen2\.5-coder has no known price, so the dollar budget \(\$1\) cannot be enforced; the run was not started\. Add its price to \.kite\/config\.json, e\.g\. "prices": \{"ollama:qwen2\.5-coder": \{"input": 0, "output": 0\}\}/);
    assert.equal(server.requests.length, 0);

    const priced = await project('local-priced', { providers: { ollama: { base_url: server.url } }, prices: { 'ollama:qwen2.5-coder': { input: 0, output: 0 } } });
    const r = await kite(priced, ['run', '--unattended', '--model', 'ollama:qwen2.5-coder'], { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: '' });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok(server.requests.every((q) => q.outcome === 'served'), 'the OpenAI key never went to the local server');
    assert.ok(server.requests.every((q) => (q.body as { max_tokens?: number }).max_tokens !== undefined), 'local servers get max_tokens');
    const evs = events(logs(priced)[0]!);
    assert.ok(evs.filter((e) => e.kind === 'model').every((e) => e.model === 'ollama:qwen2.5-coder' && e.cost_usd === 0 && e.price_unknown === undefined));
    const cost = await kite(priced, ['cost']);
    assert.match(cost.stdout, /^ollama\s+qwen2\.5-coder\s+1\s+[\d,]+\s+\$0\.0000$/m);
  });
});
