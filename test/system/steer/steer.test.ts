// Talking to a running agent (issue 18 item 11): what a person sends is delivered at the next turn
// as a `user` event with reason steer, word for word in the next model request, kept word for word
// through compaction, and a replay of the log sends the same requests.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { ApprovalAnswer, ApprovalRequest, Host, StreamDelta } from '../../../src/harness/host';
import { runLoop } from '../../../src/harness/loop/session';
import { SteerQueue } from '../../../src/harness/loop/steer';
import { reply, say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Message } from '../../../src/harness/protocol/content';
import type { EventOf, KiteEvent } from '../../../src/harness/protocol/events';
import { applyEvent, initialRunState } from '../../../src/harness/protocol/reducer';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { buildTranscript, transcriptText } from '../../../src/harness/replay/transcript';
import { runFeature } from '../../../src/harness/run';
import { git, makeDeps, ScriptedGate, tempRepo } from '../../unit/loop/kit';

const STEER = 'Please also keep the old rounding behind a flag named LEGACY_ROUNDING — and don\'t touch "README.md".';

const readEvents = (path: string): KiteEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as KiteEvent);

/** The messages the conversation rule (protocol/conversation.ts) sends before each model reply of a log. */
function requestsOf(events: readonly KiteEvent[]): Message[][] {
  const s = initialRunState();
  const out: Message[][] = [];
  for (const e of events) {
    if (e.kind === 'model') out.push(structuredClone(s.conversation!.messages()));
    applyEvent(s, e);
  }
  return out;
}

const textsOf = (m: Message | undefined): string[] => (m?.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));

/** Answers every approval, after saying something to the agent while it waits (as a person would). */
class TalkingHost implements Host {
  readonly asked: ApprovalRequest[] = [];
  constructor(
    private readonly queue: SteerQueue,
    private readonly words: string,
  ) {}
  approve(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(req);
    if (this.asked.length === 1) this.queue.push(this.words);
    return Promise.resolve({ decision: 'approve' });
  }
}

describe('steering: a person talks to the running agent', function () {
  this.timeout(60_000);

  it('a message sent while an approval is pending reaches the next model request word for word, after the tool result', async () => {
    const root = tempRepo();
    const queue = new SteerQueue();
    const host = new TalkingHost(queue, STEER);
    const model = new ScriptedModel([use('run', 'toolu_s1', { command: 'node --version' }), say('Done, with the flag.')]);
    const r = await runFeature({ root, mode: 'attended', model: '', modelOverride: model, steer: queue }, host);
    assert.equal(host.asked.length, 1, 'the command asked for approval');
    const events = readEvents(r.logPath);
    const steer = events.filter((e): e is EventOf<'user'> => e.kind === 'user' && e.reason === 'steer');
    assert.equal(steer.length, 1);
    assert.equal(steer[0]!.text, STEER);
    // Delivered at the next turn: after the tool's result, before the second reply.
    const toolSeq = events.find((e) => e.kind === 'tool')!.seq;
    const secondModel = events.filter((e) => e.kind === 'model')[1]!.seq;
    assert.ok(toolSeq < steer[0]!.seq && steer[0]!.seq < secondModel, `tool ${toolSeq} < steer ${steer[0]!.seq} < model ${secondModel}`);
    // The second request's last user message: the tool result, then the person's words.
    const last = model.requests[1]!.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.equal(last.content[0]!.type, 'tool_result');
    assert.deepEqual(textsOf(last), [STEER]);
    assert.equal(JSON.stringify(model.requests[0]!.messages).includes('LEGACY_ROUNDING'), false, 'not in the request before it was sent');
    assert.equal(queue.pending.length, 0);
    // The debugger's transcript shows it.
    assert.ok(transcriptText(buildTranscript(events)).split('\n').some((l) => l.includes('(steer)') && l.includes('LEGACY_ROUNDING')));
  });

  it('a message that arrives while the model finishes is answered before the gate decides', async () => {
    const root = tempRepo();
    const queue = new SteerQueue();
    const model = new ScriptedModel([say('All done.'), say('Understood: done, and the flag is there.')]);
    const gate = new ScriptedGate([true]);
    const { deps, sink } = makeDeps({ root, model, gate });
    deps.steer = queue;
    // The person types while turn 1 is still streaming.
    deps.stream = (d: StreamDelta) => {
      if (d.turn === 1 && queue.pending.length === 0 && sink.of('user').every((u) => u.reason !== 'steer')) queue.push(STEER);
    };
    deps.log.append({ kind: 'user', reason: 'briefing', text: 'Briefing: fix F1' });
    const r = await runLoop(deps, new AbortController().signal);
    assert.equal(r.outcome, 'done');
    assert.equal(gate.calls.length, 1, 'one gate, after the answer to the person');
    const kinds = sink.events.map((e) => (e.kind === 'user' ? `user:${e.reason}` : e.kind));
    assert.deepEqual(kinds.slice(kinds.indexOf('model')), ['model', 'user:steer', 'model', 'gate']);
    assert.deepEqual(textsOf(model.requests[1]!.messages.at(-1)), [STEER]);
    assert.equal(r.summary, 'Understood: done, and the flag is there.');
  });

  it('a message nobody could deliver (the run ended first) is named in a warning, not silently lost', async () => {
    const root = tempRepo();
    const queue = new SteerQueue();
    const host: Host = {
      approve: () => Promise.resolve({ decision: 'approve' }),
      onEvent: (e) => {
        if (e.kind === 'gate' && e.passed) queue.push('too late, sorry');
      },
    };
    // The verify command passes on the sample once the test file exists.
    writeFileSync(join(root, 'test', 'fees.test.js'), "require('node:test')('ok', () => {});\n");
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'fees test');
    const model = new ScriptedModel([use('write_file', 'toolu_w', { path: 'NOTES.md', content: 'noted\n' }), say('Done.')]);
    const r = await runFeature({ root, mode: 'unattended', model: '', modelOverride: model, steer: queue, limits: {} }, host);
    const events = readEvents(r.logPath);
    const warning = events.find((e): e is EventOf<'warning'> => e.kind === 'warning' && e.code === 'steer_undelivered');
    assert.ok(warning, events.map((e) => e.kind).join(' '));
    assert.match(warning.message, /not delivered to the agent: "too late, sorry"/);
  });

  it('compaction keeps the message word for word when it summarizes the turn that carried it', async () => {
    const root = tempRepo({ 'big.txt': 'ledger line with a long description of fees\n'.repeat(400), 'kite-progress.json': '{}' });
    const queue = new SteerQueue();
    const SUMMARY = 'Summary: the agent read big.txt twice.';
    const first = reply([{ type: 'text', text: 'Reading the ledger.' }, { type: 'tool_use', id: 'toolu_r1', name: 'read_file', input: { path: 'big.txt' } }], 'tool_use');
    const model = new ScriptedModel([first, use('read_file', 'toolu_r2', { path: 'big.txt' }), say(SUMMARY), say('Done.')]);
    const { deps, sink } = makeDeps({ root, model, gate: new ScriptedGate([true]), config: { checks: ['npm test'], context: { window: 3000, compact_at: 0.5, compact_to: 0.3, keep_turns: 1 } } });
    deps.steer = queue;
    deps.stream = (d) => {
      if (d.turn === 1 && !queue.pending.length && !sink.of('user').some((u) => u.reason === 'steer')) queue.push(STEER);
    };
    deps.log.append({ kind: 'user', reason: 'briefing', text: 'Briefing: fix F1' });
    const r = await runLoop(deps, new AbortController().signal);
    assert.equal(r.outcome, 'done', r.summary);
    const compaction = sink.of('compaction').find((c) => c.summary !== null);
    assert.ok(compaction?.summary, `a summary was made: ${sink.kinds().join(' ')}`);
    assert.equal(compaction.summary.text, SUMMARY);
    assert.ok(compaction.summary.through >= 3, 'the turn that carried the message was summarized');
    assert.equal(sink.of('user').filter((u) => u.reason === 'steer').length, 1);
    assert.ok(compaction.summary.kept.includes(STEER), `kept verbatim with the summary: ${JSON.stringify(compaction.summary.kept).slice(0, 300)}`);
    // The request after the summary: the summarized turns are gone, the person's words are not.
    const after = JSON.stringify(model.requests.at(-1)!.messages);
    assert.equal(after.includes('toolu_r1'), false, 'turn 1 was summarized away');
    assert.ok(after.includes(JSON.stringify(STEER).slice(1, -1)), 'the message survives word for word');
  });

  it('a replay of the log delivers the message at the same point and sends the same requests', async () => {
    const root = tempRepo();
    const queue = new SteerQueue();
    const model = new ScriptedModel([use('run', 'toolu_s1', { command: 'node --version' }), use('read_file', 'toolu_s2', { path: 'src/ledger.js' }), say('Done.')]);
    const r = await runFeature({ root, mode: 'attended', model: '', modelOverride: model, steer: queue }, new TalkingHost(queue, STEER));
    const recorded = readEvents(r.logPath);
    const replay = await replayRun({ log: r.logPath, root, worktree: true, onDivergence: 'stop' }, new UnattendedHost());
    assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
    const replayed = readEvents(replay.logPath);
    const steerAt = (events: KiteEvent[]) => events.filter((e) => e.kind !== 'divergence').findIndex((e) => e.kind === 'user' && e.reason === 'steer');
    assert.ok(steerAt(recorded) > 0);
    assert.equal(steerAt(replayed), steerAt(recorded), 'the same place in the log');
    // A replay runs the command again: only its wall time may differ ("exit code 0 (0.1 s)").
    const untimed = (m: Message[][]): unknown => JSON.parse(JSON.stringify(m).replace(/exit code (\d+) \(\d+\.\d s\)/g, 'exit code $1 (… s)'));
    const a = untimed(requestsOf(recorded)) as Message[][];
    const b = untimed(requestsOf(replayed)) as Message[][];
    assert.equal(a.length, 3);
    assert.deepEqual(b, a, 'every model request of the replay is the recorded one');
    assert.ok(JSON.stringify(b[1]).includes('LEGACY_ROUNDING'));
  });
});
