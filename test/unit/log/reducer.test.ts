import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { applyEvent, cloneRunState, foldEvents, initialRunState, unfinishedCalls } from '../../../src/harness/protocol/reducer';
import { MONEY_AFTER, MONEY_BEFORE, RunBuilder, buildRun, ev, sha, strip } from '../../helpers/events';

describe('reducer', () => {
  it('folds the demo run: meta, turns, tokens by kind, cost, gates, files, features, outcome', () => {
    const events = buildRun();
    const s = foldEvents(events);
    assert.equal(s.meta?.feature, 'F4');
    assert.equal(s.meta?.mode, 'attended');
    assert.equal(s.meta?.git_head, '3f2a9c1d0b8e7f6a5c4d3e2f1a0b9c8d7e6f5a4b');
    assert.equal(s.turns, 8);
    assert.equal(s.modelCalls, 8);
    const models = events.filter((e) => e.kind === 'model');
    const sum = (f: (e: (typeof models)[number]) => number) => models.reduce((a, e) => a + f(e), 0);
    assert.deepEqual(s.tokens, {
      input: sum((e) => (e.kind === 'model' ? e.input_tokens : 0)),
      output: sum((e) => (e.kind === 'model' ? e.output_tokens : 0)),
      cache_write: sum((e) => (e.kind === 'model' ? e.cache_creation_input_tokens : 0)),
      cache_read: sum((e) => (e.kind === 'model' ? e.cache_read_input_tokens : 0)),
      total: 26750,
    });
    const end = events.at(-1);
    assert.ok(end?.kind === 'session_end');
    assert.equal(s.tokens.total, end.tokens);
    assert.ok(Math.abs(s.cost_usd - end.cost_usd) < 1e-9);
    assert.deepEqual(
      s.gates.map((g) => [g.attempt, g.passed]),
      [
        [1, false],
        [2, true],
      ],
    );
    assert.equal(s.gateFailures, 1);
    assert.equal(s.feedbackOwed, null);
    assert.deepEqual(Object.keys(s.files).sort(), ['ledgerly/money.py', 'tests/test_rounding.py']);
    assert.equal(s.files['ledgerly/money.py'].post_hash, sha(MONEY_AFTER.replace('def add_fee(total, rate):\n', 'def add_fee(total, rate):\n    """Fee rounded half-up to the paisa."""\n')));
    assert.deepEqual(
      s.features.map((f) => f.status),
      ['done', 'proposed'],
    );
    assert.deepEqual(s.proposals, ['fees.py rounds twice']);
    assert.equal(s.outcome?.status, 'done');
    assert.equal(s.outcome?.commit, '9c1e4b7a2d5f8e3c6b9a0d1f4e7c2b5a8d3f6e9c');
    assert.equal(s.phase, 'ended');
    assert.deepEqual(s.pending, {});
    assert.equal(s.warnings[0].code, 'false_done');
    // the denied command is recorded with its rule
    assert.equal(s.calls.toolu_03.decision, 'deny');
    assert.equal(s.calls.toolu_03.rule, 'deny:pipe-to-shell');
    assert.equal(s.calls.toolu_03.errorCode, 'denied');
    assert.equal(s.calls.toolu_04.approval, 'edit');
  });

  it('rebuilds the conversation exactly as the model saw it', () => {
    const s = foldEvents(buildRun());
    const msgs = s.conversation?.messages() ?? [];
    assert.equal(msgs.length, 16);
    assert.deepEqual(msgs[0], { role: 'user', content: [{ type: 'text', text: 'Feature F4: Fees round half-up.\nVerify: python -m pytest -q tests/test_rounding.py' }] });
    assert.equal(msgs[1].role, 'assistant');
    assert.deepEqual(msgs[2], { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: MONEY_BEFORE }] });
    // the denied call's result is an error the model saw
    const denied = msgs[6].content[0];
    assert.ok(denied.type === 'tool_result' && denied.is_error === true && /pipe-to-shell/.test(String(denied.content)));
    // gate feedback is the next user message after the false "done"
    const fb = msgs[8].content[0];
    assert.ok(fb.type === 'text' && fb.text.startsWith('The gate did not pass'));
  });

  it('tracks an unfinished call through its stages and lists it in tool_use order', () => {
    const b = new RunBuilder().start();
    b.model([
      { type: 'tool_use', id: 'a', name: 'write_file', input: { path: 'x.txt', content: 'new' } },
      { type: 'tool_use', id: 'b', name: 'run', input: { command: 'make' } },
    ]);
    const s = foldEvents(b.events());
    assert.equal(s.phase, 'tools');
    assert.deepEqual(
      unfinishedCalls(s).map((u) => [u.use.id, u.call]),
      [
        ['a', null],
        ['b', null],
      ],
    );
    const steps = [
      ev.proposed({ id: 'a', name: 'write_file', args: { path: 'x.txt', content: 'new' } }),
      ev.policy({ id: 'a', name: 'write_file', decision: 'ask', rule: 'ask:writes' }),
      ev.approvalRequest({ id: 'a', args: { path: 'x.txt', content: 'new' }, path: 'x.txt' }),
    ];
    const stages: string[] = [];
    for (const e of steps) {
      applyEvent(s, e);
      stages.push(s.pending.a);
    }
    assert.deepEqual(stages, ['proposed', 'policy', 'approval']);
    assert.deepEqual(Object.keys(s.pendingApprovals), ['a']);
    applyEvent(s, ev.paused({ pending: ['a'] }));
    assert.deepEqual(s.paused?.pending, ['a']);
    applyEvent(s, ev.resumed({ mode: 'unattended' }));
    assert.equal(s.paused, null);
    assert.equal(s.mode, 'unattended');
    assert.equal(s.resumed, 1);
    applyEvent(s, ev.approval({ id: 'a', decision: 'edit', edited_args: { path: 'x.txt', content: 'mine' } }));
    assert.equal(s.pending.a, 'answered');
    assert.deepEqual(s.calls.a.editedArgs, { path: 'x.txt', content: 'mine' });
    assert.deepEqual(s.pendingApprovals, {});
    applyEvent(s, ev.intent({ id: 'a', path: 'x.txt', pre_hash: sha('old'), post_hash: sha('mine') }));
    assert.equal(s.pending.a, 'intent');
    assert.equal(unfinishedCalls(s)[0].call?.intent?.post_hash, sha('mine'));
    applyEvent(s, ev.tool({ id: 'a', name: 'write_file', path: 'x.txt', post_hash: sha('mine'), output: 'Wrote x.txt.' }));
    assert.equal(s.pending.a, undefined);
    assert.equal(s.calls.a.stage, 'done');
    assert.deepEqual(s.files['x.txt'], { post_hash: sha('mine'), seq: 0 });
    assert.deepEqual(
      unfinishedCalls(s).map((u) => u.use.id),
      ['b'],
    );
    applyEvent(s, ev.tool({ id: 'b', name: 'run', exit_code: 2, is_error: true, error_code: 'failed' }));
    assert.equal(s.phase, 'awaiting_model');
    assert.equal(s.calls.b.exitCode, 2);
  });

  it('knows what comes next: the gate after a done claim, feedback owed after a failed gate, finishing after a pass or budget stop', () => {
    const b = new RunBuilder().start();
    b.model([{ type: 'text', text: 'Done.' }]);
    let s = foldEvents(b.events());
    assert.equal(s.phase, 'awaiting_gate');
    assert.equal(s.lastText, 'Done.');
    b.event(strip(ev.gate({ attempt: 1, passed: false, feedback: 'tests fail' })));
    s = foldEvents(b.events());
    assert.equal(s.phase, 'awaiting_model');
    assert.equal(s.feedbackOwed, 'tests fail');
    b.event(strip(ev.user({ reason: 'gate_feedback', text: 'tests fail' })));
    s = foldEvents(b.events());
    assert.equal(s.feedbackOwed, null);
    b.event(strip(ev.budgetStop({ limit: 'tokens', used: 10, max: 5 })));
    s = foldEvents(b.events());
    assert.equal(s.phase, 'finishing');
    assert.equal(s.budgetStop?.limit, 'tokens');
  });

  it('cloneRunState snapshots are independent of later events', () => {
    const events = buildRun();
    const s = initialRunState();
    for (const e of events.slice(0, 20)) applyEvent(s, e);
    const snap = cloneRunState(s);
    const before = JSON.stringify({ ...snap, conversation: snap.conversation?.messages() });
    for (const e of events.slice(20)) applyEvent(s, e);
    assert.equal(JSON.stringify({ ...snap, conversation: snap.conversation?.messages() }), before);
    assert.notEqual(s.turns, snap.turns);
    // and the snapshot can be folded on to the same end state
    for (const e of events.slice(20)) applyEvent(snap, e);
    assert.deepEqual(snap.conversation?.messages(), s.conversation?.messages());
    assert.deepEqual({ ...snap, conversation: null }, { ...s, conversation: null });
  });

  it('folds a Python-Kite log: turns, tokens, gates and tool results matched to tool_use ids', async () => {
    const r = await readLog(join(__dirname, '..', '..', 'fixtures', 'logs', 'python-kite.jsonl'));
    const s = foldEvents(r.events);
    assert.equal(s.turns, 6);
    assert.equal(s.tokens.total, 14216);
    assert.deepEqual(
      s.gates.map((g) => g.passed),
      [false, true],
    );
    assert.deepEqual(s.conversation?.unansweredToolUses(), []);
    assert.equal(s.outcome?.status, 'done');
  });

  it('can fold without the conversation (reports over many logs)', () => {
    const s = foldEvents(buildRun(), { conversation: false });
    assert.equal(s.conversation, null);
    assert.equal(s.turns, 8);
    assert.equal(s.phase, 'ended');
  });
});
