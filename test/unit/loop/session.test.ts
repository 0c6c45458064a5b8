import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runLoop, type LoopDeps } from '../../../src/harness/loop/session';
import { ModelError } from '../../../src/harness/model/model';
import { reply, say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Message } from '../../../src/harness/protocol/content';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { brief, makeDeps, MemorySink, ScriptedGate, tempRepo } from './kit';

/** The loop's deps, briefed like a new run. */
function start(deps: LoopDeps, _sink: MemorySink, text = 'Briefing: fix F1'): LoopDeps {
  brief(deps, text);
  return deps;
}

const lastUser = (m: Message[]): Message => m[m.length - 1];
const textOf = (m: Message): string => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? String(b.content) : '')).join('\n');

describe('loop: stop reasons and the gate', function () {
  let root: string;
  before(() => {
    root = tempRepo();
  });

  it('end_turn claims done: a failed gate feeds back the failure, the next claim passes → done', async () => {
    const model = new ScriptedModel([say('done, I think'), use('read_file', 'r1', { path: 'src/ledger.js' }), say('Now really done.')]);
    const gate = new ScriptedGate([false, true]);
    const { deps, sink } = makeDeps({ root, model, gate });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'done');
    assert.equal(r.summary, 'Now really done.');
    assert.deepEqual(gate.calls.map((c) => c.attempt), [1, 2]);
    const fb = sink.of('user').filter((u) => u.reason === 'gate_feedback');
    assert.equal(fb.length, 1);
    assert.match(textOf(lastUser(model.requests[1].messages)), /FAILED: `npm test` exited with code 1/);
    assert.equal(r.state.turns, 3);
  });

  it('ends gate_failed after max_gate_failures failed gates, without feedback after the last', async () => {
    const model = new ScriptedModel([say('done'), say('done again')]);
    const gate = new ScriptedGate([false]);
    const { deps, sink } = makeDeps({ root, model, gate, config: { checks: ['npm test'], max_gate_failures: 2 } });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'gate_failed');
    assert.match(r.summary, /failed 2 times.*npm test/);
    assert.equal(sink.of('user').filter((u) => u.reason === 'gate_feedback').length, 1);
    assert.equal(model.remaining, 0);
  });

  it('stop_sequence is treated like end_turn (the gate runs)', async () => {
    const model = new ScriptedModel([reply([{ type: 'text', text: 'finished' }], 'stop_sequence')]);
    const gate = new ScriptedGate([true]);
    const { deps, sink } = makeDeps({ root, model, gate });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'done');
    assert.equal(gate.calls.length, 1);
  });

  it('max_tokens: a cut tool call does not run, the model is told its reply was cut, and continues', async () => {
    const cut = reply([{ type: 'text', text: 'Writing the file' }, { type: 'tool_use', id: 'w1', name: 'write_file', input: { path: 'cut.txt', content: 'half' } }], 'max_tokens');
    const model = new ScriptedModel([cut, say('ok')]);
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]) });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'done');
    assert.equal(existsSync(join(root, 'cut.txt')), false);
    const next = lastUser(model.requests[1].messages);
    assert.match(textOf(next), /did NOT run/);
    assert.match(textOf(next), /cut off because it reached the max_tokens limit \(8192/);
    assert.ok(sink.of('warning').some((w) => w.code === 'max_tokens'));
  });

  it('pause_turn: the conversation is sent back as is and the model continues', async () => {
    const paused = reply([{ type: 'text', text: 'Thinking about the fix…' }], 'pause_turn');
    const model = new ScriptedModel([paused, say('done')]);
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]) });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'done');
    const sent = model.requests[1].messages;
    assert.deepEqual(sent[sent.length - 1], { role: 'assistant', content: paused.content });
  });

  it('refusal ends the run refused; context window exceeded ends it context_exceeded', async () => {
    for (const [stop, outcome] of [
      ['refusal', 'refused'],
      ['model_context_window_exceeded', 'context_exceeded'],
    ] as const) {
      const model = new ScriptedModel([reply([{ type: 'text', text: 'no' }], stop)]);
      const gate = new ScriptedGate([true]);
      const { deps, sink } = makeDeps({ root, model, gate });
      const r = await runLoop(start(deps, sink), new AbortController().signal);
      assert.equal(r.outcome, outcome);
      assert.equal(gate.calls.length, 0);
    }
  });

  it('a ModelError ends the run error with a clear message (a script out of replies does not hang)', async () => {
    const model = new ScriptedModel([use('read_file', 'r1', { path: 'src/ledger.js' })], 'script:/x.json');
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]) });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'error');
    assert.match(r.error ?? '', /script_exhausted.*ran out of replies after 1/);

    const failing = { id: 'x', complete: () => Promise.reject(new ModelError('overloaded', 'API overloaded after 4 retries')) };
    const b = makeDeps({ root, model: failing, gate: new ScriptedGate([true]) });
    const r2 = await runLoop(start(b.deps, b.sink), new AbortController().signal);
    assert.equal(r2.outcome, 'error');
    assert.equal(r2.error, 'model error (overloaded): API overloaded after 4 retries');
  });

  it('a cancelled signal ends the run cancelled before the next model call', async () => {
    const model = new ScriptedModel([say('x')]);
    const ac = new AbortController();
    ac.abort();
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]) });
    const r = await runLoop(start(deps, sink), ac.signal);
    assert.equal(r.outcome, 'cancelled');
    assert.equal(model.requests.length, 0);
  });

  it('the conversation the loop holds is the one the reducer rebuilds from its events', async () => {
    const model = new ScriptedModel([
      reply([{ type: 'text', text: 'two reads' }, { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'src/ledger.js' } }, { type: 'tool_use', id: 'b', name: 'nope', input: {} }], 'tool_use'),
      reply([{ type: 'text', text: 'thinking…' }], 'pause_turn'),
      reply([{ type: 'tool_use', id: 'c', name: 'write_file', input: { path: 'x.txt', content: 'cut' } }], 'max_tokens'),
      say('done'),
      say('done again'),
    ]);
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([false, true]) });
    const r = await runLoop(start(deps, sink), new AbortController().signal);
    assert.equal(r.outcome, 'done');
    const rebuilt = foldEvents(sink.events).conversation;
    assert.ok(rebuilt);
    assert.deepEqual(rebuilt.messages(), r.state.conversation!.messages());
    // and it is exactly what the model was sent on its last turn, plus its last reply
    assert.deepEqual(model.requests[4].messages, r.state.conversation!.messages().slice(0, -1));
  });
});
