// Hooks in Claude Code's format, inside the real loop (assembleLoop, the real sandboxed runner,
// real shell commands as hooks, a scripted model): a PreToolUse hook blocks a write with its
// reason, a hook that crashes / times out / answers garbage blocks and says so, a Stop hook
// refuses done; unapproved hooks block everything and `kite run` refuses to start.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig, type KiteConfigFile } from '../../../src/harness/config/config';
import { trustMain } from '../../../src/harness/cli/trustCommand';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { HooksConfig } from '../../../src/harness/hooks/hookConfig';
import { isTrusted, trustWorkspace } from '../../../src/harness/hooks/trust';
import { runLoop } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Message } from '../../../src/harness/protocol/content';
import { RunError, runFeature } from '../../../src/harness/run';
import { brief, FEATURE, git, makeDeps, tempDir, tempRepo } from '../loop/kit';

const textOf = (m: Message): string => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? String(b.content) : '')).join('\n');
const lastSeen = (model: ScriptedModel, i: number) => textOf(model.requests[i].messages.at(-1) as Message);
const feature = { ...FEATURE, verify: null };
const pre = (command: string, timeout?: number): HooksConfig => ({ PreToolUse: [{ matcher: 'write_file|edit_file', hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }] });

let stateDir: string;
const savedState = process.env.KITE_STATE_DIR;
before(() => {
  stateDir = tempDir('kite-state-');
  process.env.KITE_STATE_DIR = stateDir; // approvals of this test process live here, outside every workspace
});
after(() => {
  if (savedState === undefined) delete process.env.KITE_STATE_DIR;
  else process.env.KITE_STATE_DIR = savedState;
});

async function run(hooks: HooksConfig, script: ConstructorParameters<typeof ScriptedModel>[0], trusted = true) {
  const root = tempRepo({ 'src/a.js': 'a\n', 'README.md': 'hi\n' });
  if (trusted) trustWorkspace(root, hooks);
  const model = new ScriptedModel(script);
  const config: KiteConfigFile = { checks: ['test -d .git'], hooks };
  const { deps, sink } = makeDeps({ root, model, config, feature });
  brief(deps);
  const r = await runLoop(deps, new AbortController().signal);
  return { r, sink, model, root };
}

describe('hooks (Claude Code format) in the loop', function () {
  this.timeout(60_000);

  it('a PreToolUse hook answering {"decision":"block"} blocks the write with its reason; the model sees it; stdin carries the event', async () => {
    const hooks = pre(`cat > .hook-input.json; echo '{"decision": "block", "reason": "src/ is frozen for the release"}'`);
    const { r, sink, model, root } = await run(hooks, [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), use('read_file', 'r1', { path: 'src/a.js' }), say('Done.')]);
    assert.equal(r.outcome, 'done');
    assert.equal(readFileSync(join(root, 'src/a.js'), 'utf8'), 'a\n');
    const t = sink.of('tool').find((e) => e.id === 'w1');
    assert.ok(t?.is_error && t.error_code === 'denied');
    assert.match(lastSeen(model, 1), /Blocked by a PreToolUse hook: src\/ is frozen for the release\. The file src\/a\.js was not modified\./);
    const h = sink.of('hook');
    assert.equal(h.length, 1, 'read_file is not matched by write_file|edit_file');
    assert.deepEqual({ ...h[0], seq: 0, t: 0, run: '', ms: 0 }, { ...h[0], seq: 0, t: 0, run: '', ms: 0, event: 'PreToolUse', matcher: 'write_file|edit_file', id: 'w1', decision: 'block', reason: 'src/ is frozen for the release' });
    const input = JSON.parse(readFileSync(join(root, '.hook-input.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'write_file');
    assert.deepEqual(input.tool_input, { path: 'src/a.js', content: 'b\n' });
    assert.equal(input.cwd, root);
    assert.equal(typeof input.session_id, 'string');
  });

  it('exit 2 with a reason on stderr blocks; exit 0 with no output allows (and is logged)', async () => {
    const blocked = await run(pre('echo "no writes on Fridays" >&2; exit 2'), [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), say('Done.')]);
    assert.match(lastSeen(blocked.model, 1), /Blocked by a PreToolUse hook: no writes on Fridays/);
    const allowed = await run(pre('cat > /dev/null'), [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), say('Done.')]);
    assert.equal(readFileSync(join(allowed.root, 'src/a.js'), 'utf8'), 'b\n');
    assert.deepEqual(allowed.sink.of('hook').map((h) => h.decision), ['allow']);
  });

  it('fails closed: a hook that crashes, times out or answers garbage blocks the call and says so', async () => {
    const cases: [HooksConfig, RegExp][] = [
      [pre('./hooks/not-there.sh'), /Blocked by a PreToolUse hook: the hook failed \(exit 127\)/],
      [pre('sleep 5', 1), /Blocked by a PreToolUse hook: the hook timed out after 1 s/],
      [pre('echo "looks fine to me"'), /Blocked by a PreToolUse hook: the hook answered something that is not JSON: "looks fine to me"/],
    ];
    for (const [hooks, said] of cases) {
      const { model, root, sink } = await run(hooks, [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), say('Done.')]);
      assert.match(lastSeen(model, 1), said);
      assert.equal(readFileSync(join(root, 'src/a.js'), 'utf8'), 'a\n');
      assert.equal(sink.of('hook')[0].decision, 'block');
    }
  });

  it('a Stop hook can refuse done: the reason goes to the model like gate feedback, the checks do not run', async () => {
    const hooks: HooksConfig = { Stop: [{ hooks: [{ type: 'command', command: `test -f lint.ok || echo '{"decision": "block", "reason": "run the linter first (lint.ok is missing)"}'` }] }] };
    const { r, sink, model } = await run(hooks, [say('Done.'), use('write_file', 'w1', { path: 'lint.ok', content: 'ok\n' }), say('Done now.')]);
    assert.equal(r.outcome, 'done');
    const gates = sink.of('gate');
    assert.deepEqual(gates.map((g) => g.passed), [false, true]);
    assert.deepEqual(gates[0].checks, []);
    assert.match(lastSeen(model, 1), /A Stop hook refused done: run the linter first \(lint\.ok is missing\)/);
    assert.deepEqual(sink.of('hook').map((h) => [h.event, h.decision]), [['Stop', 'block'], ['Stop', 'allow']]);
  });

  it('a PostToolUse hook sees the result; its block reason reaches the model with it (the call already ran)', async () => {
    const hooks: HooksConfig = { PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: `cat > .post-input.json; echo "format src/a.js with prettier" >&2; exit 2` }] }] };
    const { model, root, sink } = await run(hooks, [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), say('Done.')]);
    assert.equal(readFileSync(join(root, 'src/a.js'), 'utf8'), 'b\n');
    assert.match(lastSeen(model, 1), /\[Kite\] A PostToolUse hook reported: format src\/a\.js with prettier/);
    const input = JSON.parse(readFileSync(join(root, '.post-input.json'), 'utf8')) as { hook_event_name: string; tool_response: { is_error: boolean } };
    assert.equal(input.hook_event_name, 'PostToolUse');
    assert.equal(input.tool_response.is_error, false);
    assert.deepEqual(sink.of('hook').map((h) => [h.event, h.decision]), [['PostToolUse', 'block']]);
  });

  it('hooks nobody approved do not run and do not vanish: each call they match is blocked, naming kite trust', async () => {
    const { model, root, sink } = await run(pre(`touch ran.txt`), [use('write_file', 'w1', { path: 'src/a.js', content: 'b\n' }), say('Done.')], false);
    assert.match(lastSeen(model, 1), /not approved on this machine \(run `kite trust`/);
    assert.ok(!existsSync(join(root, 'ran.txt')), 'the hook command did not run');
    assert.equal(sink.of('hook')[0].decision, 'block');
  });
});

describe('hook approval (kite trust)', () => {
  function repoWithHooks(hooks: HooksConfig): string {
    const root = tempRepo();
    mkdirSync(join(root, '.kite'), { recursive: true });
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ checks: [], hooks }));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'hooks');
    return root;
  }
  const hooks = pre('cat > /dev/null');
  const out = () => {
    const lines: string[] = [];
    return { lines, out: { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) } };
  };

  it('a run of a workspace with unapproved hooks does not start (exit 2 naming kite trust); after kite trust --yes it does; a changed hook is asked again', async () => {
    const root = repoWithHooks(hooks);
    const start = () => runFeature({ root, mode: 'unattended', model: '', modelOverride: new ScriptedModel([say('Done.')]) }, new UnattendedHost());
    await assert.rejects(start(), (e: unknown) => e instanceof RunError && e.code === 'untrusted_hooks' && e.message.includes(`kite trust ${root}`));
    assert.ok(!existsSync(join(root, '.kite', 'runs')), 'nothing was started');

    const o = out();
    assert.equal(await trustMain([root], o.out, false), 2, 'without a terminal it needs --yes');
    assert.equal(await trustMain([root, '--yes'], o.out, false), 0);
    assert.ok(o.lines.some((l) => l.includes('PreToolUse [write_file|edit_file]: cat > /dev/null')), 'the exact command was shown');
    assert.ok(isTrusted(root, parseConfig(readFileSync(join(root, '.kite', 'config.json'), 'utf8')).hooks));
    const s = await start();
    assert.ok(s.logPath);

    const changed = pre('cat > /dev/null; true');
    assert.ok(!isTrusted(root, changed), 'approval is keyed to the hook config');
  });

  it('the approval is kept outside the workspace: a state folder inside it cannot approve', () => {
    const root = repoWithHooks(hooks);
    const env = { ...process.env, KITE_STATE_DIR: join(root, '.kite', 'state') };
    assert.throws(() => trustWorkspace(root, hooks, env), /cannot approve its own hooks/);
    assert.equal(isTrusted(root, hooks, env), false);
    assert.ok(!existsSync(join(root, 'trust.json')));
  });
});
