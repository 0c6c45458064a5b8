// The replay debug adapter over stdio (DebugClient): capabilities, launch, stop on entry, bad
// logs, variables at a known point, Watch via evaluateName, ending exactly once, and requests
// answered while stopped.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { MONEY_AFTER, TEST_KEPT, TEST_PROPOSED } from '../helpers/events';
import { DEMO_LOG, adapterBundle, child, launch, moved, scopeVars, startClient, transcript, where, writeLog } from './helpers';

describe('DAP session (stdio)', function () {
  let dc: DebugClient;
  before(async () => {
    await adapterBundle();
  });
  beforeEach(async () => {
    dc = await startClient();
  });
  afterEach(async () => {
    await dc.stop();
  });

  it('announces its capabilities and the exception filters (gate failure on by default)', async () => {
    const r = await dc.initializeRequest({ adapterID: 'kite', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const c = r.body ?? {};
    for (const k of ['supportsConfigurationDoneRequest', 'supportsStepBack', 'supportsGotoTargetsRequest', 'supportsConditionalBreakpoints', 'supportsHitConditionalBreakpoints', 'supportsLogPoints', 'supportsFunctionBreakpoints', 'supportsExceptionInfoRequest', 'supportsTerminateRequest'] as const)
      assert.equal(c[k], true, k);
    const filters = (c.exceptionBreakpointFilters ?? []).map((f) => [f.filter, f.default === true]);
    assert.deepEqual(filters, [
      ['gate_failure', true],
      ['tool_error', false],
      ['policy_refusal', false],
      ['budget_stop', false],
      ['unusual_stop', false],
      ['divergence', false],
    ]);
  });

  it('launches and stops on entry at the session_start line of the transcript', async () => {
    const stopped = await launch(dc, { log: DEMO_LOG });
    assert.equal(stopped.body.reason, 'entry');
    assert.match(stopped.body.description ?? '', /session_start/);
    const w = await where(dc);
    assert.equal(w.seq, 0);
    const t = await transcript(dc);
    assert.equal(w.line, t.lineOfSeq(0));
    assert.match(t.text.split('\n')[0], /^Kite run demo-run · feature F4/);
    // frames innermost first: event, its turn, the session
    assert.deepEqual(w.frames.map((f) => f.name.replace(/ .*/, '')), ['#0', 'Start', 'Run']);
    const threads = await dc.threadsRequest();
    assert.deepEqual(threads.body.threads.map((th) => th.name), ['run demo-run']);
  });

  it('with stopOnEntry false runs to the gate failure (the default exception filter)', async () => {
    const stopped = await launch(dc, { log: DEMO_LOG, stopOnEntry: false });
    assert.equal(stopped.body.reason, 'exception');
    assert.match(stopped.body.description ?? '', /^Gate failed \(attempt 1\): python -m pytest -q tests\/test_rounding.py → exit 4/);
    assert.match(stopped.body.text ?? '', /file or directory not found/);
    assert.equal((await where(dc)).seq, 19);
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.equal(info.body.exceptionId, 'gate_failure');
    assert.match(info.body.details?.message ?? '', /The work is not done/);
  });

  it('a missing log gives a clear error response naming the file', async () => {
    await dc.initializeRequest();
    const missing = join(tmpdir(), 'no-such-run-4242.jsonl');
    await assert.rejects(dc.launchRequest({ log: missing } as DebugProtocol.LaunchRequestArguments), (e: Error) => e.message.includes(missing) && /no such log/.test(e.message));
  });

  it('a file that is not a Kite log, an empty log and bad launch attributes give error responses', async () => {
    await dc.initializeRequest();
    const dir = dirname(writeLog([]));
    const junk = join(dir, 'junk.jsonl');
    writeFileSync(junk, 'hello world\nthis is not json\n');
    await assert.rejects(dc.launchRequest({ log: junk } as DebugProtocol.LaunchRequestArguments), (e: Error) => e.message.includes(junk) && /not a Kite log/.test(e.message));
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    await assert.rejects(dc.launchRequest({ log: empty } as DebugProtocol.LaunchRequestArguments), /contains no events/);
    await assert.rejects(dc.launchRequest({ log: 42 } as unknown as DebugProtocol.LaunchRequestArguments), /launch attribute "log"/);
    await assert.rejects(dc.launchRequest({} as DebugProtocol.LaunchRequestArguments), /launch attribute "log" is "\$\{file\}": open a \.jsonl run log/);
  });

  it('shows known values at the gate failure: gate checks, totals, turn, files, messages', async () => {
    await launch(dc, { log: DEMO_LOG, stopOnEntry: false });
    const gate = await scopeVars(dc, 'Gate');
    assert.equal(gate.find((v) => v.name === 'passed')?.value, 'false');
    const checks = gate.find((v) => v.name === 'checks');
    const second = await child(dc, checks, '1');
    const exit = await child(dc, second, 'exit_code');
    assert.equal(exit.value, '4');
    assert.equal(exit.evaluateName, 'gate.checks[1].exit_code');
    const cmd = await child(dc, second, 'command');
    assert.equal(cmd.value, '"python -m pytest -q tests/test_rounding.py"');

    const totals = await scopeVars(dc, 'Totals');
    const val = (n: string) => totals.find((v) => v.name === n)?.value;
    assert.equal(val('turns'), '4');
    assert.equal(val('tokens'), String(3980 + 2780 + 2680 + 2750));
    assert.equal(val('gate_failures'), '1');

    const turn = await scopeVars(dc, 'Turn 4');
    assert.equal(turn.find((v) => v.name === 'stop')?.value, '"end_turn"');
    assert.equal(turn.find((v) => v.name === 'text')?.value, '"Done: fees now round half-up."');

    // files touched: content at that moment, loaded on demand
    const files = await scopeVars(dc, 'Files touched');
    const money = files.find((v) => v.name === 'ledgerly/money.py');
    assert.ok(money?.presentationHint?.lazy, 'file content is lazy');
    const loaded = (await dc.variablesRequest({ variablesReference: money.variablesReference })).body.variables[0];
    assert.equal(loaded.value, JSON.stringify(MONEY_AFTER));
    assert.equal(loaded.evaluateName, 'files["ledgerly/money.py"]');

    // messages the model was sent for turn 4: briefing, then 3 assistant/user pairs
    const msgs = await scopeVars(dc, 'Messages');
    assert.deepEqual(await Promise.all(msgs.map(async (m) => (await child(dc, m, 'role')).value)), ['"user"', '"assistant"', '"user"', '"assistant"', '"user"', '"assistant"', '"user"']);
  });

  it('Watch: evaluateName of a variable evaluates to the same value; bad expressions are errors', async () => {
    await launch(dc, { log: DEMO_LOG, stopOnEntry: false });
    const gate = await scopeVars(dc, 'Gate');
    const feedback = gate.find((v) => v.name === 'feedback');
    assert.ok(feedback?.evaluateName);
    const r = await dc.evaluateRequest({ expression: feedback.evaluateName, context: 'watch', frameId: 2 });
    assert.equal(r.body.result, feedback.value);
    const cond = await dc.evaluateRequest({ expression: 'gate.passed == false && tokens > 12000 && kind == "gate"', context: 'watch' });
    assert.equal(cond.body.result, 'true');
    const obj = await dc.evaluateRequest({ expression: 'reply.usage', context: 'watch' });
    assert.ok(obj.body.variablesReference > 0);
    const kids = (await dc.variablesRequest({ variablesReference: obj.body.variablesReference })).body.variables;
    assert.equal(kids.find((k) => k.name === 'input_tokens')?.evaluateName, 'reply.usage.input_tokens');
    await assert.rejects(dc.evaluateRequest({ expression: 'tokens >', context: 'watch' }), /unexpected end of expression/);
    await assert.rejects(dc.evaluateRequest({ expression: 'process.exit(1)', context: 'watch' }), /unknown name 'process'/);
  });

  it('a write frame shows the file as that write left it (served by the adapter), not the live workspace file', async () => {
    const root = join(tmpdir(), 'kite-ws');
    const t = await launch(dc, { log: DEMO_LOG, root });
    assert.equal(t.body.reason, 'entry');
    // goto the edit_file tool event (#35)
    const tr = await transcript(dc);
    const targets = await dc.gotoTargetsRequest({ source: tr.source, line: tr.lineOfSeq(35) });
    await moved(dc, (c) => c.gotoRequest({ threadId: 1, targetId: targets.body.targets[0].id }));
    const w = await where(dc);
    assert.equal(w.frames[0].name, 'write ledgerly/money.py');
    const src = w.frames[0].source;
    assert.ok(src?.sourceReference, 'the write frame is served by reference');
    assert.notEqual(src.path, join(root, 'ledgerly/money.py'), 'never the live workspace file');
    assert.equal(src.name, 'money.py');
    const served = await dc.sourceRequest({ source: src, sourceReference: src.sourceReference });
    // MONEY_AFTER (the write_file at #13) with the docstring the edit at #35 added.
    assert.equal(served.body.content, MONEY_AFTER.replace('def add_fee(total, rate):\n', 'def add_fee(total, rate):\n    """Fee rounded half-up to the paisa."""\n'));
    assert.equal(w.frames[0].line, 5, 'the docstring the edit added is on line 5');
    const file = await scopeVars(dc, 'File ledgerly/money.py', /^write /);
    const content = (await dc.variablesRequest({ variablesReference: file[0].variablesReference })).body.variables[0];
    assert.match(content.value, /Fee rounded half-up to the paisa/);
  });

  it('Variables › Tool call at an edited approval shows the decision "edit" and the person\'s version as its args', async () => {
    await launch(dc, { log: DEMO_LOG, seq: 26 });
    const vars = await scopeVars(dc, 'Tool call', /^write /);
    const byName = new Map(vars.map((v) => [v.name, v]));
    assert.equal(byName.get('status')?.value, '"edited"');
    assert.equal(byName.get('decision')?.value, '"edit"');
    const content = await child(dc, byName.get('args'), 'content');
    assert.equal(JSON.parse(content.value), TEST_KEPT, 'the args are the person\'s version');
    const proposed = await child(dc, byName.get('proposed_args'), 'content');
    assert.equal(JSON.parse(proposed.value), TEST_PROPOSED, 'the model\'s proposal stays visible beside it');
  });

  it('answers requests while stopped, then terminate and disconnect send terminated exactly once', async () => {
    let terminated = 0;
    dc.on('terminated', () => terminated++);
    await launch(dc, { log: DEMO_LOG });
    const [threads, stack, ev] = await Promise.all([dc.threadsRequest(), dc.stackTraceRequest({ threadId: 1 }), dc.evaluateRequest({ expression: 'session.feature', context: 'repl' })]);
    assert.equal(threads.body.threads.length, 1);
    assert.equal(stack.body.stackFrames.length, 3);
    assert.equal(ev.body.result, '"F4"');
    await dc.terminateRequest({});
    await dc.disconnectRequest({});
    assert.equal(terminated, 1);
  });

  it('disconnect alone ends the session with one terminated event', async () => {
    let terminated = 0;
    dc.on('terminated', () => terminated++);
    await launch(dc, { log: DEMO_LOG });
    await dc.disconnectRequest({});
    assert.equal(terminated, 1);
  });

  it('after terminate, movement requests get an error response instead of silence', async () => {
    await launch(dc, { log: DEMO_LOG });
    await dc.terminateRequest({});
    await assert.rejects(dc.stepInRequest({ threadId: 1 }), /replay session has ended/);
  });

  it('as the extension runs it (KITE_DAP_TRANSCRIPT_URIS=1): transcript frames are kite-transcript: documents and breakpoints on them verify', async () => {
    await dc.stop();
    dc = new DebugClient(process.execPath, await adapterBundle(), 'kite', { env: { ...process.env, KITE_DAP_TRANSCRIPT_URIS: '1' } });
    dc.defaultTimeout = 15_000;
    await dc.start();
    await launch(dc, { log: DEMO_LOG });
    const w = await where(dc);
    const src = w.frames[0].source;
    assert.equal(src?.path, `kite-transcript:${DEMO_LOG}.kite-transcript`);
    assert.ok(!src?.sourceReference, 'no reference: VS Code opens the kite-transcript document');
    const bp = await dc.setBreakpointsRequest({ source: { path: `kite-transcript:${DEMO_LOG.replace(/-/g, '%2D')}.kite-transcript` }, breakpoints: [{ line: 10 }] });
    assert.equal(bp.body.breakpoints[0].verified, true, 'an encoded URI of the same document matches');
  });

  it('as the extension runs it (KITE_DAP_TRANSCRIPT_URIS=1): a write frame is a kite-file: document of the file at that event', async () => {
    await dc.stop();
    dc = new DebugClient(process.execPath, await adapterBundle(), 'kite', { env: { ...process.env, KITE_DAP_TRANSCRIPT_URIS: '1' } });
    dc.defaultTimeout = 15_000;
    await dc.start();
    await launch(dc, { log: DEMO_LOG, seq: 35 });
    const src = (await where(dc)).frames[0].source;
    assert.equal(src?.path, `kite-file:${DEMO_LOG}.kite-at/35/ledgerly/money.py`);
    assert.ok(!src?.sourceReference, 'no reference: VS Code opens the kite-file document');
    assert.equal(src?.name, 'money.py');
  });
});
