import assert from 'node:assert/strict';
import { runLoop } from '../../../src/harness/loop/session';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { countRepeat, repetitionKey } from '../../../src/harness/protocol/repetition';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { makeDeps, ScriptedGate, tempRepo } from './kit';

describe('repetition key', () => {
  it('ignores object key order but not values or the tool name', () => {
    assert.equal(repetitionKey('edit_file', { path: 'a', old_string: 'x', new_string: 'y' }), repetitionKey('edit_file', { new_string: 'y', path: 'a', old_string: 'x' }));
    assert.notEqual(repetitionKey('edit_file', { path: 'a' }), repetitionKey('edit_file', { path: 'b' }));
    assert.notEqual(repetitionKey('read_file', { path: 'a' }), repetitionKey('write_file', { path: 'a' }));
    assert.notEqual(repetitionKey('run', { command: 'ls', n: [1, 2] }), repetitionKey('run', { command: 'ls', n: [2, 1] }));
  });

  it('counts per key', () => {
    const m = new Map<string, number>();
    assert.equal(countRepeat(m, 'a'), 1);
    assert.equal(countRepeat(m, 'a'), 2);
    assert.equal(countRepeat(m, 'b'), 1);
  });
});

describe('repetition guard in a run', function () {
  this.timeout(30_000);
  const t = (n: number) => use('run', `r${n}`, { command: 'true' });

  it('running the same check again after a write that changed a file is work, not a loop; the counts are rebuilt from the log alike', async () => {
    const root = tempRepo();
    const model = new ScriptedModel([
      ...[1, 2, 3, 4].map(t),
      use('write_file', 'w1', { path: 'a.txt', content: 'one\n' }),
      ...[5, 6, 7, 8].map(t),
      use('write_file', 'w2', { path: 'a.txt', content: 'two\n' }),
      t(9),
      say('done'),
    ]);
    const { deps, sink } = makeDeps({ root, model, config: { checks: ['true'] }, gate: new ScriptedGate([true]) });
    const r = await runLoop(deps, new AbortController().signal);
    const state = r.state;
    assert.equal(r.outcome, 'done');
    // warned at the 3rd and 4th identical call since the last change, never stopped
    assert.equal(sink.of('warning').filter((w) => w.code === 'repetition').length, 4);
    assert.deepEqual([...foldEvents(sink.events).repeats].sort(), [...state.repeats].sort());
    assert.equal(state.repeats.get(repetitionKey('run', { command: 'true' })), 1);
  });

  it('writing the same content again and again still ends stuck (it changes nothing)', async () => {
    const root = tempRepo();
    const w = (n: number) => use('write_file', `w${n}`, { path: 'a.txt', content: 'same\n' });
    const model = new ScriptedModel([1, 2, 3, 4, 5, 6].map(w));
    const { deps, sink } = makeDeps({ root, model, config: { checks: ['true'] }, gate: new ScriptedGate([true]) });
    const r = await runLoop(deps, new AbortController().signal);
    assert.equal(r.outcome, 'stuck');
    assert.equal(sink.of('tool').length, 4);
  });
});
