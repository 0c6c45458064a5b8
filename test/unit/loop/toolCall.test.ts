import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/harness/config/config';
import { runLoop, type LoopDeps } from '../../../src/harness/loop/session';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { ToolResultBlock } from '../../../src/harness/protocol/content';
import { sha256 } from '../../../src/harness/tools/hash';
import { brief, CannedHost, makeDeps, MemorySink, ScriptedGate, tempRepo } from './kit';

/** The loop's deps, briefed like a new run. */
function start(deps: LoopDeps, _sink: MemorySink): LoopDeps {
  brief(deps, 'go');
  return deps;
}

/** The tool_result blocks the model received, by tool_use id. */
function results(model: ScriptedModel): Map<string, ToolResultBlock> {
  const out = new Map<string, ToolResultBlock>();
  for (const req of model.requests)
    for (const m of req.messages) if (m.role === 'user') for (const b of m.content) if (b.type === 'tool_result') out.set(b.tool_use_id, b);
  return out;
}

async function run(root: string, replies: ReturnType<typeof use>[], opts: Partial<Parameters<typeof makeDeps>[0]> = {}) {
  const model = new ScriptedModel([...replies, say('done')]);
  const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]), ...opts });
  const r = await runLoop(start(deps, sink), new AbortController().signal);
  return { r, sink, model, res: results(model) };
}

describe('loop: one tool call from proposal to result', function () {
  let root: string;
  beforeEach(() => {
    root = tempRepo();
  });

  it('invalid arguments and unknown tools become is_error results that say precisely what was wrong', async () => {
    const { res, sink } = await run(root, [use('read_file', 'a', { file: 'src/ledger.js' }), use('delete_file', 'b', { path: 'x' })]);
    assert.equal(res.get('a')?.is_error, true);
    assert.match(String(res.get('a')?.content), /path/);
    assert.equal(res.get('b')?.is_error, true);
    assert.match(String(res.get('b')?.content), /read_file/); // lists the tools that exist
    // invalid calls never reach the policy
    assert.deepEqual(sink.kinds().filter((k) => k === 'policy'), []);
  });

  it('unattended: the configured check runs, git push is denied by policy with its rule, other commands are refused', async () => {
    const { res, sink } = await run(root, [use('run', 'a', { command: 'npm test' }), use('run', 'b', { command: 'git push origin main' }), use('run', 'c', { command: 'ls' })]);
    assert.equal(res.get('a')?.is_error, undefined);
    const pol = new Map(sink.of('policy').map((p) => [p.id, p]));
    assert.equal(pol.get('a')?.rule, 'allow:checks');
    assert.equal(pol.get('b')?.decision, 'deny');
    assert.equal(pol.get('b')?.rule, 'deny:git-push');
    assert.match(String(res.get('b')?.content), /Denied by policy \(rule deny:git-push\).*not run/);
    assert.equal(pol.get('c')?.rule, 'unattended:refuse');
    const tools = new Map(sink.of('tool').map((t) => [t.id, t]));
    assert.equal(tools.get('b')?.error_code, 'denied');
    // no intent is recorded for a call that never runs
    assert.deepEqual(sink.of('intent').map((i) => i.id), ['a']);
  });

  it('a path outside the workspace is refused with the confinement rule, before the policy is asked', async () => {
    const { res, sink } = await run(root, [use('read_file', 'a', { path: '../outside.txt' })]);
    assert.equal(res.get('a')?.is_error, true);
    const p = sink.of('policy')[0];
    assert.equal(p.decision, 'deny');
    assert.match(p.rule, /^confine:/);
    assert.equal(sink.of('tool')[0].error_code, 'outside_workspace');
  });

  it('attended write: approval request shows before/proposed; approve → intent with hashes BEFORE the tool, then the write', async () => {
    const before = readFileSync(join(root, 'src/ledger.js'), 'utf8');
    const host = new CannedHost([{ decision: 'approve' }]);
    const { res, sink } = await run(root, [use('edit_file', 'a', { path: 'src/ledger.js', old_string: 'Number(fee.toFixed(2))', new_string: 'Math.round(fee * 100) / 100' })], { mode: 'attended', host });
    assert.equal(host.requests.length, 1);
    const req = host.requests[0];
    assert.equal(req.kind, 'write');
    if (req.kind !== 'write') return;
    assert.equal(req.path, 'src/ledger.js');
    assert.equal(req.before, before);
    assert.ok(req.proposed.includes('Math.round(fee * 100) / 100'));
    const after = readFileSync(join(root, 'src/ledger.js'), 'utf8');
    assert.equal(after, req.proposed);
    assert.equal(res.get('a')?.is_error, undefined);
    const seq = sink.kinds().filter((k) => ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool'].includes(k));
    assert.deepEqual(seq, ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool']);
    const intent = sink.of('intent')[0];
    assert.equal(intent.pre_hash, sha256(before));
    assert.equal(intent.post_hash, sha256(after));
  });

  it('attended deny: the file is not modified and the model is told the reason', async () => {
    const host = new CannedHost([{ decision: 'deny', reason: 'keep the old API' }]);
    const { res, sink } = await run(root, [use('write_file', 'a', { path: 'src/ledger.js', content: 'gone' })], { mode: 'attended', host });
    assert.notEqual(readFileSync(join(root, 'src/ledger.js'), 'utf8'), 'gone');
    assert.match(String(res.get('a')?.content), /denied.*"keep the old API".*src\/ledger\.js was not modified/);
    assert.equal(sink.of('intent').length, 0);
    assert.equal(sink.of('approval')[0].reason, 'keep the old API');
  });

  it("attended edit: the person's version is written and the model gets a unified diff against its proposal", async () => {
    const host = new CannedHost([{ decision: 'edit', content: 'export const fee = 268;\n' }]);
    const { res, sink } = await run(root, [use('write_file', 'a', { path: 'src/fee.js', content: 'export const fee = 267;\n' })], { mode: 'attended', host });
    assert.equal(readFileSync(join(root, 'src/fee.js'), 'utf8'), 'export const fee = 268;\n');
    const out = String(res.get('a')?.content);
    assert.match(out, /edited your proposal/);
    assert.match(out, /^-export const fee = 267;$/m);
    assert.match(out, /^\+export const fee = 268;$/m);
    const appr = sink.of('approval')[0];
    assert.equal(appr.decision, 'edit');
    assert.match(appr.diff ?? '', /\+export const fee = 268;/);
    assert.equal(sink.of('intent')[0].post_hash, sha256('export const fee = 268;\n'));
    assert.equal(sink.of('tool')[0].post_hash, sha256('export const fee = 268;\n'));
  });

  it('"always allow" on a command saves a policy rule and the same command no longer asks', async () => {
    const host = new CannedHost([{ decision: 'approve', always: true }]);
    const { res } = await run(root, [use('run', 'a', { command: 'node -e "console.log(41+1)"' }), use('run', 'b', { command: 'node -e "console.log(41+1)"' })], { mode: 'attended', host });
    assert.equal(host.requests.length, 1);
    assert.match(String(res.get('b')?.content), /42/);
    const cfg = loadConfig(root);
    assert.equal(cfg.policy?.rules.length, 1);
    assert.equal(cfg.policy?.rules[0].command, 'node -e "console.log(41+1)"');
    // the rest of the config is kept
    assert.deepEqual(cfg.checks, ['npm test']);
  });

  it('an approval that is never answered pauses the run (outcome cancelled, paused event)', async () => {
    const { r, sink } = await run(root, [use('run', 'a', { command: 'echo hi' })], { mode: 'attended', host: new CannedHost([]) });
    assert.equal(r.outcome, 'cancelled');
    assert.deepEqual(sink.of('paused')[0].pending, ['a']);
  });

  it('repetition: the 3rd identical call gets a warning, the 5th ends the run stuck', async () => {
    writeFileSync(join(root, 'notes.txt'), 'x\n');
    const same = () => use('read_file', `r${Math.random()}`, { path: 'notes.txt' });
    const { r, sink, res } = await run(root, [same(), same(), same(), same(), same()]);
    assert.equal(r.outcome, 'stuck');
    const outs = [...res.values()].map((b) => String(b.content));
    assert.equal(outs.length, 4);
    assert.doesNotMatch(outs[1], /Warning/);
    assert.match(outs[2], /call number 3 of read_file.*exactly these arguments/);
    assert.match(outs[3], /call number 4/);
    assert.equal(sink.of('warning').filter((w) => w.code === 'repetition').length, 3);
    assert.equal(sink.of('tool').length, 4); // the 5th never ran
  });
});
