// The server's side of talking to a run and watching it think: kite/steer queues a person's message
// for the run it names (and says when that run is gone); the model's deltas reach the extension
// throttled, text and thinking apart, and nothing of a reply is sent again once its event is out.
import assert from 'node:assert/strict';
import type { Host } from '../../../src/harness/host';
import { SteerParamsSchema, StreamNotificationSchema, type RunSummaryWire, type StreamNotification } from '../../../src/harness/protocol/rpc';
import { RunManager, type StartOptions } from '../../../src/harness/server/runManager';
import { StreamThrottle } from '../../../src/harness/server/streamThrottle';
import { ev } from '../../helpers/events';

function harness() {
  const streamed: StreamNotification[] = [];
  let start: StartOptions | undefined;
  let host: Host | undefined;
  let finish!: (s: RunSummaryWire) => void;
  let ready!: () => void;
  const started = new Promise<void>((r) => (ready = r));
  const manager = new RunManager(
    {
      runFeature: (opts, h) => {
        start = opts;
        host = h;
        ready();
        return new Promise((r) => (finish = r));
      },
      resumeRun: () => Promise.reject(new Error('not used')),
    },
    { event: () => undefined, approvalRequested: () => undefined, approvalWithdrawn: () => undefined, runEnded: () => undefined, log: () => undefined, stream: (n) => void streamed.push(StreamNotificationSchema.parse(n)) },
    {},
  );
  const done = () => finish({ feature: 'F1', outcome: 'done', turns: 1, tokens: 0, cost_usd: 0, commit: null, logPath: '/ws/x.jsonl', proposals: [] });
  return { manager, streamed, started, opts: () => start!, host: () => host!, done };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('server: steering and streaming', () => {
  it('a message for a running run waits in its queue for the next turn; a finished run says it is gone', async () => {
    const h = harness();
    const token = h.manager.start({ root: '/ws', mode: 'attended' });
    await h.started;
    assert.deepEqual(h.manager.steer(token, 'use tabs'), { queued: true, waiting: 1 });
    assert.deepEqual(h.manager.steer(token, 'and no new files'), { queued: true, waiting: 2 });
    assert.deepEqual(h.opts().steer?.take({ modelCalls: 1, gates: 0 }), ['use tabs', 'and no new files']);
    assert.deepEqual(h.manager.steer('r-unknown', 'hello'), { queued: false, waiting: 0 });
    h.done();
    await tick(0);
    assert.deepEqual(h.manager.steer(token, 'too late'), { queued: false, waiting: 0 });
  });

  it('an empty or oversized message is refused at the boundary, naming the field', () => {
    const empty = SteerParamsSchema.safeParse({ token: 't', text: '   ' });
    assert.equal(empty.success, false);
    assert.match(JSON.stringify(empty.error?.issues), /"text".*the message is empty/);
    assert.equal(SteerParamsSchema.safeParse({ token: 't', text: 'x'.repeat(20_001) }).success, false);
  });

  it('deltas reach the extension batched (text and thinking apart), the rest before the reply event, none after it', async () => {
    const h = harness();
    const token = h.manager.start({ root: '/ws', mode: 'attended' });
    await h.started;
    const host = h.host();
    for (const piece of ['Let', ' me', ' look']) host.onStream?.({ turn: 1, kind: 'text', text: piece });
    host.onStream?.({ turn: 1, kind: 'thinking', text: 'the fee rounds down' });
    assert.equal(h.streamed.length, 0, 'nothing per token');
    await tick(150);
    assert.deepEqual(h.streamed, [{ token, log: null, turn: 1, text: 'Let me look', thinking: 'the fee rounds down' }]);
    host.onStream?.({ turn: 1, kind: 'text', text: ' at it' });
    host.onEvent?.(ev.model({ turn: 1 }));
    assert.deepEqual(h.streamed.map((n) => n.text), ['Let me look', ' at it'], 'the rest goes out before the reply event');
    await tick(150);
    assert.equal(h.streamed.length, 2, 'nothing after the reply event');
    h.done();
  });

  it('a new turn sends what the last one gathered at once', () => {
    const sent: { turn: number; text: string }[] = [];
    const t = new StreamThrottle((b) => sent.push({ turn: b.turn, text: b.text }), 10_000);
    t.add({ turn: 1, kind: 'text', text: 'one' });
    t.add({ turn: 2, kind: 'text', text: 'two' });
    assert.deepEqual(sent, [{ turn: 1, text: 'one' }]);
    t.drop();
  });
});
