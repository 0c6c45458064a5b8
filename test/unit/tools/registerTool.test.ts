// Adding a tool is one file plus its registration: a test-only write tool, declared with the public
// tools API and given to a toolbox, goes through the loop's whole call path (confinement, policy,
// preview in the approval, intent, log) with no other code knowing its name.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../../../src/harness/host';
import { handleToolUse, type ToolCallDeps } from '../../../src/harness/loop/toolCall';
import { PolicyConfigSchema } from '../../../src/harness/policy/config';
import { Policy } from '../../../src/harness/policy/policy';
import type { PolicyCall } from '../../../src/harness/policy/types';
import type { Mode } from '../../../src/harness/protocol/events';
import { MemorySink } from '../loop/kit';
import { WireApprovalRequestSchema } from '../../../src/harness/protocol/rpc';
import { ALL_TOOLS, commitWrite, createToolbox, defineTool, isOutcome, previewFile, sha256, type PreviewContext } from '../../../src/harness/tools';
import { makeWorkspace, type Workspace } from './_workspace';

// ---- the new tool: this block is all a contributor writes (plus one line in ALL_TOOLS) ----
const AppendInput = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to append to (created if missing).'),
  text: z.string().describe('The text to add at the end of the file.'),
});
const previewAppend = (args: z.infer<typeof AppendInput>, ctx: PreviewContext) => previewFile(ctx, args.path, (before) => ({ proposed: (before ?? '') + args.text }));
const appendFileTool = defineTool({
  name: 'append_file',
  effect: 'write',
  description: 'Append text to the end of a workspace file; the file is created when it does not exist.',
  input: AppendInput,
  target: (args) => ({ path: args.path }),
  preview: previewAppend,
  run: async (args, ctx) => {
    const p = previewAppend(args, ctx);
    return isOutcome(p) ? p : commitWrite(ctx, p.path, p.proposed);
  },
});
// ---------------------------------------------------------------------------------------------



class Answers implements Host {
  readonly requests: ApprovalRequest[] = [];
  constructor(private readonly answers: ApprovalAnswer[]) {}
  approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.requests.push(req);
    const a = this.answers.shift();
    return a ? Promise.resolve(a) : Promise.reject(new Error('no answer left'));
  }
}

interface Setup {
  mode?: Mode;
  answers?: ApprovalAnswer[];
  rules?: unknown[];
  featureTools?: string[] | null;
}

function deps(ws: Workspace, o: Setup = {}) {
  const sink = new MemorySink();
  const host = new Answers(o.answers ?? []);
  const always: PolicyCall[] = [];
  const d: ToolCallDeps = {
    state: { repeats: new Map() },
    toolbox: createToolbox([...ALL_TOOLS, appendFileTool]), // the registration
    policy: new Policy(PolicyConfigSchema.parse({ rules: o.rules ?? [] })),
    policyContext: { mode: o.mode ?? 'attended', checks: [], verify: null, featureTools: o.featureTools ?? null },
    host,
    log: sink,
    toolContext: ws.ctx,
    now: () => 0,
    onAlways: (call) => always.push(call),
  };
  return { d, sink, host, always };
}

const call = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name: 'append_file', input });
const CALL_ORDER = ['proposed', 'policy', 'approval_request', 'approval', 'intent', 'tool'];

describe('a tool added with defineTool and a registry entry only', () => {
  let ws: Workspace;
  beforeEach(() => (ws = makeWorkspace()));
  afterEach(() => ws.cleanup());

  it('is offered to the model with a JSON Schema derived from its zod input', () => {
    const spec = createToolbox([...ALL_TOOLS, appendFileTool]).specs().find((s) => s.name === 'append_file');
    assert.ok(spec);
    assert.deepEqual(Object.keys(spec.input_schema.properties as object), ['path', 'text']);
    assert.deepEqual(spec.input_schema.required, ['path', 'text']);
  });

  it('attended: the approval request carries before/proposed from its preview; approve → intent with hashes, then the write, all logged', async () => {
    ws.write('notes.txt', 'one\n');
    const { d, sink, host } = deps(ws, { answers: [{ decision: 'approve' }] });
    const r = await handleToolUse(call('a', { path: 'notes.txt', text: 'two\n' }), 1, d, new AbortController().signal);
    assert.equal(r.kind === 'result' && r.is_error, false);
    assert.equal(ws.read('notes.txt'), 'one\ntwo\n');

    assert.deepEqual(host.requests, [{ kind: 'write', id: 'a', tool: 'append_file', path: 'notes.txt', before: 'one\n', proposed: 'one\ntwo\n' }]);
    // the extension accepts it over the wire: the name is checked by rule, not against a fixed list
    assert.ok(WireApprovalRequestSchema.safeParse(host.requests[0]).success);

    assert.deepEqual(sink.kinds(), CALL_ORDER);
    const [policy] = sink.of('policy');
    assert.deepEqual([policy.name, policy.decision, policy.rule], ['append_file', 'ask', 'ask:writes']);
    const [req] = sink.of('approval_request');
    assert.deepEqual([req.name, req.effect, req.path], ['append_file', 'write', 'notes.txt']);
    const [intent] = sink.of('intent');
    assert.deepEqual([intent.name, intent.effect, intent.path, intent.pre_hash, intent.post_hash], ['append_file', 'write', 'notes.txt', sha256('one\n'), sha256('one\ntwo\n')]);
    const [tool] = sink.of('tool');
    assert.deepEqual([tool.name, tool.is_error, tool.path, tool.post_hash], ['append_file', false, 'notes.txt', sha256('one\ntwo\n')]);
  });

  it('is confined to the workspace: outside paths, .git/ and the log folder are refused before the policy or a person is asked', async () => {
    const { d, sink, host } = deps(ws, { answers: [{ decision: 'approve' }, { decision: 'approve' }, { decision: 'approve' }] });
    const targets = [
      ['a', '../outside/escape.txt', 'outside_workspace', 'confine:outside-workspace'],
      ['b', '.git/config', 'protected_path', 'confine:git-dir'],
      ['c', '.kite/runs/forged.jsonl', 'protected_path', 'confine:log-dir'],
    ] as const;
    for (const [id, p, code, rule] of targets) {
      const r = await handleToolUse(call(id, { path: p, text: 'x' }), 1, d, new AbortController().signal);
      assert.equal(r.kind === 'result' && r.is_error, true, p);
      const policy = sink.of('policy').find((e) => e.id === id);
      assert.deepEqual([policy?.decision, policy?.rule], ['deny', rule], p);
      assert.equal(sink.of('tool').find((e) => e.id === id)?.error_code, code, p);
    }
    assert.equal(host.requests.length, 0);
    assert.equal(sink.of('intent').length, 0);
    assert.equal(fs.existsSync(path.join(ws.outside, 'escape.txt')), false);
    assert.equal(fs.existsSync(path.join(ws.root, '.kite', 'runs', 'forged.jsonl')), false);
  });

  it('is decided by the policy like any write: rules by its name, feature tool lists, unattended mode', async () => {
    ws.write('notes.txt', 'one\n');
    const signal = new AbortController().signal;

    const ruled = deps(ws, { rules: [{ id: 'no-append', tool: 'append_file', decision: 'deny', reason: 'Appending is off here.' }] });
    const r1 = await handleToolUse(call('a', { path: 'notes.txt', text: 'x' }), 1, ruled.d, signal);
    assert.match(r1.kind === 'result' ? r1.output : '', /Denied by policy \(rule no-append\).*notes\.txt was not modified/);
    assert.deepEqual(ruled.sink.kinds(), ['proposed', 'policy', 'tool']);

    const feature = deps(ws, { featureTools: ['read_file'] });
    await handleToolUse(call('b', { path: 'notes.txt', text: 'x' }), 1, feature.d, signal);
    assert.equal(feature.sink.of('policy')[0].rule, 'feature:tools');
    assert.equal(ws.read('notes.txt'), 'one\n');

    const unattended = deps(ws, { mode: 'unattended' });
    await handleToolUse(call('c', { path: 'notes.txt', text: 'two\n' }), 1, unattended.d, signal);
    assert.equal(unattended.sink.of('policy')[0].rule, 'unattended:writes');
    assert.deepEqual(unattended.sink.kinds(), ['proposed', 'policy', 'intent', 'tool']);
    assert.equal(unattended.host.requests.length, 0);
    assert.equal(ws.read('notes.txt'), 'one\ntwo\n');
  });

  it("takes a person's edit and 'always allow' through the same generic paths as the built-in writes", async () => {
    ws.write('notes.txt', 'one\n');
    const signal = new AbortController().signal;
    const edited = deps(ws, { answers: [{ decision: 'edit', content: 'one\nTWO\n' }] });
    const r = await handleToolUse(call('a', { path: 'notes.txt', text: 'two\n' }), 1, edited.d, signal);
    assert.match(r.kind === 'result' ? r.output : '', /edited your proposal/);
    assert.equal(ws.read('notes.txt'), 'one\nTWO\n');
    assert.equal(edited.sink.of('intent')[0].post_hash, sha256('one\nTWO\n'));

    const always = deps(ws, { answers: [{ decision: 'approve', always: true }] });
    await handleToolUse(call('b', { path: 'notes.txt', text: 'three\n' }), 1, always.d, signal);
    assert.deepEqual(always.always.map((c) => [c.name, c.effect, c.path]), [['append_file', 'write', 'notes.txt']]);
  });

  it('a failing preview is the result, before anyone is asked (here: the path is a directory)', async () => {
    fs.mkdirSync(path.join(ws.root, 'docs'));
    const { d, sink, host } = deps(ws, { answers: [{ decision: 'approve' }] });
    const r = await handleToolUse(call('a', { path: 'docs', text: 'x' }), 1, d, new AbortController().signal);
    assert.equal(r.kind === 'result' && r.is_error, true);
    assert.equal(sink.of('tool')[0].error_code, 'is_directory');
    assert.equal(host.requests.length, 0);
    assert.equal(sink.of('intent').length, 0);
  });
});

describe('defineTool: what the loop needs from a tool', () => {
  const base = { description: 'x', input: z.object({}), run: async () => ({ output: '', is_error: false, error_code: null }) };

  it('refuses a tool without target and a write tool without preview (for tools built from data)', () => {
    assert.throws(() => defineTool({ ...base, name: 'no_target', effect: 'none' } as unknown as Parameters<typeof defineTool>[0]), /needs target/);
    assert.throws(() => defineTool({ ...base, name: 'no_preview', effect: 'write', target: () => ({ path: 'a' }) } as unknown as Parameters<typeof defineTool>[0]), /needs preview/);
  });
});

describe('wire: approval requests name their tool by rule', () => {
  const write = { kind: 'write', id: 'a', path: 'notes.txt', before: null, proposed: 'x' };
  const read = { kind: 'read', id: 'b', path: '.env', reason: 'secrets' };

  it('accepts any well-formed tool name and rejects the rest', () => {
    for (const tool of ['write_file', 'edit_file', 'append_file']) assert.ok(WireApprovalRequestSchema.safeParse({ ...write, tool }).success, tool);
    for (const tool of ['', 'Write File', 'x; rm -rf /', '../read_file', 'a'.repeat(65), 7, null]) {
      assert.equal(WireApprovalRequestSchema.safeParse({ ...write, tool }).success, false, String(tool));
      assert.equal(WireApprovalRequestSchema.safeParse({ ...read, tool }).success, false, String(tool));
    }
    assert.equal(WireApprovalRequestSchema.safeParse(write).success, false); // the name is required
  });
});
