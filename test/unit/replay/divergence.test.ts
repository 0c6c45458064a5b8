// What the replay's divergence check compares for MCP calls: their outputs only when the servers
// answered live (--live-mcp), with the first differing line named; built-in tools as before.
import assert from 'node:assert/strict';
import type { EventSink } from '../../../src/harness/events/sink';
import type { EventBody } from '../../../src/harness/protocol/events';
import { DivergenceWatcher, shortDiff } from '../../../src/harness/replay/divergence';
import { ev } from '../../helpers/events';

class Sink {
  readonly appended: EventBody[] = [];
  append(e: EventBody) {
    this.appended.push(e);
  }
}

const mcp = (output: string, seq = 7) => ev.tool({ seq, id: 'm1', name: 'mcp__fs__list_directory', args: { path: '.' }, output });

describe('replay divergence of MCP calls', () => {
  it('with live MCP a different answer is a divergence naming the call, its seq and the first differing line', () => {
    const sink = new Sink();
    const w = new DivergenceWatcher([mcp('[FILE] a.txt\n[FILE] b.txt')], () => undefined, true);
    w.observe(mcp('[FILE] a.txt\n[FILE] c.txt', 40), sink as unknown as EventSink);
    assert.equal(w.count, 1);
    assert.equal(w.first?.message, 'replay diverged at recorded seq 7: MCP call mcp__fs__list_directory (m1) answered differently live, line 2: "[FILE] b.txt" → "[FILE] c.txt"');
    assert.deepEqual(sink.appended[0], { kind: 'divergence', at_seq: 7, id: 'm1', what: 'mcp__fs__list_directory (m1) answered differently live, line 2: "[FILE] b.txt" → "[FILE] c.txt"', recorded: { output: '[FILE] a.txt\n[FILE] b.txt' }, live: { output: '[FILE] a.txt\n[FILE] c.txt' } });
  });

  it('the same answer, a recorded replay, or a built-in tool\'s text is no divergence', () => {
    const sink = new Sink() as unknown as EventSink;
    const same = new DivergenceWatcher([mcp('x')], () => undefined, true);
    same.observe(mcp('x'), sink);
    const recorded = new DivergenceWatcher([mcp('x')], () => undefined);
    recorded.observe(mcp('y'), sink);
    const builtin = new DivergenceWatcher([ev.tool({ output: 'a' })], () => undefined, true);
    builtin.observe(ev.tool({ output: 'b' }), sink);
    assert.deepEqual([same.count, recorded.count, builtin.count], [0, 0, 0]);
  });

  it('shortDiff clips long lines and names a missing end', () => {
    assert.equal(shortDiff('a\nb', 'a'), 'line 2: "b" → (end)');
    assert.equal(shortDiff('x'.repeat(100), 'y'), `line 1: "${'x'.repeat(80)}…" → "y"`);
  });
});
