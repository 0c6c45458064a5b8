// PromptSubmit hooks (Claude Code's UserPromptSubmit) in a real run: they see the briefing and
// every message a person sends. A block on the briefing ends the run before any model call; a
// block on a person's message keeps it from the agent, logs a steer_blocked warning and tells
// the person (the CLI prints it); what passes reaches the model.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SteerQueue } from '../../../src/harness/loop/steer';
import { TimelineFormatter } from '../../../src/harness/events/timeline';
import { assertEndsBeforeModel, hook, hookedRepo, ofKind, requestText, runIn, useOwnTrustStore, WRITES_HI } from './kit';

const NO_DELETES = `input=$(cat); printf '%s' "$input" | grep -q '"prompt_source":"steer"' && printf '%s' "$input" | grep -q delete && { echo "messages asking to delete files are not delivered" >&2; exit 2; }; exit 0`;

describe('PromptSubmit hooks', function () {
  this.timeout(120_000);
  useOwnTrustStore();

  it('a block on the briefing ends the run before any model call, naming the hook and its reason; stdin carries the prompt', async () => {
    const root = hookedRepo({ UserPromptSubmit: hook(`cat > .prompt-input.json; echo '{"decision": "block", "reason": "briefings need a ticket number"}'`) });
    const { summary, model, events } = await runIn(root, WRITES_HI());
    assert.equal(summary.outcome, 'error');
    assert.equal(model.requests.length, 0);
    assert.match(summary.error ?? '', /a PromptSubmit hook blocked the briefing, so the model was not called: briefings need a ticket number/);
    assert.equal(ofKind(events, 'user').length, 0, 'the briefing was not given to the model');
    const input = JSON.parse(readFileSync(join(root, '.prompt-input.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'UserPromptSubmit', "configured under Claude Code's name, it is told that name");
    assert.equal(input.prompt_source, 'briefing');
    assert.match(String(input.prompt), /Write hi\.txt/);
    assert.deepEqual(ofKind(events, 'hook').map((h) => [h.event, h.decision]), [['PromptSubmit', 'block']]);
  });

  it('a blocked message of a person is NOT delivered: a steer_blocked warning, printed for the person; an allowed one and its context reach the model', async () => {
    const root = hookedRepo({ PromptSubmit: [...hook(NO_DELETES), ...hook(`grep -q '"prompt_source":"steer"' && echo "(the person is the release manager)"; exit 0`)] });
    const steer = new SteerQueue();
    steer.push('please delete README.md');
    steer.push('also add a trailing newline');
    const { summary, model, events } = await runIn(root, WRITES_HI(), { steer });
    assert.equal(summary.outcome, 'done');
    const first = requestText(model.requests[0]!.messages);
    assert.doesNotMatch(first, /delete README/);
    assert.match(first, /also add a trailing newline/);
    assert.match(first, /\(the person is the release manager\)/);
    assert.ok(existsSync(join(root, 'README.md')));
    const w = ofKind(events, 'warning').filter((x) => x.code === 'steer_blocked');
    assert.equal(w.length, 1);
    assert.equal(w[0]!.text, 'please delete README.md');
    assert.match(w[0]!.message, /a PromptSubmit hook blocked your message, so it was NOT delivered to the agent: messages asking to delete files are not delivered/);
    assert.deepEqual(ofKind(events, 'user').map((u) => [u.reason, u.text.slice(0, 20)]).slice(1), [['steer', 'also add a trailing n'.slice(0, 20)], ['hook_context', '(the person is the r']]);
    const printed = events.map((e) => new TimelineFormatter({ color: false }).row(e)).filter((r) => /not delivered: a PromptSubmit hook blocked your message/.test(r ?? ''));
    assert.equal(printed.length, 1, 'kite run prints it');
  });

  it('fails closed: a hook that crashes, times out or answers broken JSON blocks the briefing and says so', async () => {
    const cases: [string, number | undefined, RegExp][] = [
      ['./hooks/not-there.sh', undefined, /the hook failed \(exit 127\)/],
      ['sleep 5', 1, /the hook timed out after 1 s/],
      [`echo '["allow"]'`, undefined, /the hook answered JSON that is not an object/],
    ];
    await assertEndsBeforeModel('PromptSubmit', cases);
  });
});
