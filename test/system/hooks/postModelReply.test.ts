// PostModelReply hooks in a real run: they see each reply (text and tool calls); a block refuses
// the reply's calls (each answered is_error with the hook's reason, nothing runs), and the run
// goes on; a reply without calls that is blocked is told to the model before the gate.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hook, hookedRepo, ofKind, reply, requestText, runIn, say, use, useOwnTrustStore, WRITES_HI } from './kit';

const NO_SECRETS = `input=$(cat); printf '%s' "$input" > .reply-input.json; printf '%s' "$input" | grep -q secret.txt && { echo "secret.txt is off limits" >&2; exit 2; }; exit 0`;

describe('PostModelReply hooks', function () {
  this.timeout(120_000);
  useOwnTrustStore();

  it("a block refuses the reply's tool calls (the file is NOT written), the model sees why, the run ends cleanly", async () => {
    const root = hookedRepo({ PostModelReply: hook(NO_SECRETS) });
    const { summary, model, events } = await runIn(root, [reply([{ type: 'text', text: 'Writing both.' }, { type: 'tool_use', id: 'w0', name: 'write_file', input: { path: 'secret.txt', content: 'x\n' } }, { type: 'tool_use', id: 'w00', name: 'write_file', input: { path: 'hi.txt', content: 'x\n' } }], 'tool_use'), ...WRITES_HI()]);
    assert.equal(summary.outcome, 'done');
    assert.ok(!existsSync(join(root, 'secret.txt')), 'the blocked call did not run');
    const refused = ofKind(events, 'tool').filter((t) => t.id === 'w0' || t.id === 'w00');
    assert.deepEqual(refused.map((t) => [t.is_error, t.error_code]), [[true, 'denied'], [true, 'denied']]);
    assert.equal(ofKind(events, 'proposed').filter((p) => p.id === 'w0' || p.id === 'w00').length, 0, 'nothing of the blocked reply went through policy or ran');
    assert.match(requestText(model.requests[1]!.messages), /Blocked by a PostModelReply hook: secret\.txt is off limits\. This call did NOT run\./);
    assert.deepEqual(ofKind(events, 'hook').map((h) => [h.event, h.decision]), [['PostModelReply', 'block'], ['PostModelReply', 'allow'], ['PostModelReply', 'allow']]);
    const input = JSON.parse(readFileSync(join(root, '.reply-input.json'), 'utf8')) as { hook_event_name: string; text: string; tool_calls: unknown[]; turn: number };
    assert.deepEqual([input.hook_event_name, input.text, input.tool_calls, input.turn], ['PostModelReply', 'Done: wrote hi.txt.', [], 3]);
  });

  it('a blocked reply without calls is told to the model, which answers before the gate runs', async () => {
    const once = `input=$(cat); case "$input" in *'"tool_calls":[]'*) test -f .told || { touch .told; echo '{"decision": "block", "reason": "say which test you ran"}'; };; esac; exit 0`;
    const root = hookedRepo({ PostModelReply: hook(once) });
    const { summary, model, events } = await runIn(root, [...WRITES_HI(), say('Done: wrote hi.txt; checked it with test -f.')]);
    assert.equal(summary.outcome, 'done');
    assert.equal(model.requests.length, 3);
    assert.match(requestText(model.requests[2]!.messages), /A PostModelReply hook blocked your reply: say which test you ran/);
    assert.equal(ofKind(events, 'gate').length, 1, 'the gate ran once, after the model answered');
    assert.deepEqual(ofKind(events, 'user').map((u) => u.reason), ['briefing', 'hook_context']);
  });

  it('fails closed: a hook that crashes, times out or answers garbage refuses the calls and says so', async () => {
    const cases: [string, number | undefined, RegExp][] = [
      ['./hooks/not-there.sh', undefined, /the hook failed \(exit 127\)/],
      ['sleep 5', 1, /the hook timed out after 1 s/],
      ['echo "fine by me"', undefined, /the hook answered something that is not JSON/],
    ];
    for (const [command, timeout, said] of cases) {
      const root = hookedRepo({ PostModelReply: hook(command, timeout ? { timeout } : {}) });
      const { model, events } = await runIn(root, [use('write_file', 'w1', { path: 'hi.txt', content: 'hi\n' }), say('I give up.')]);
      assert.ok(!existsSync(join(root, 'hi.txt')), command);
      assert.match(requestText(model.requests[1]!.messages), said);
      assert.ok(ofKind(events, 'session_end').length === 1);
    }
  });
});
