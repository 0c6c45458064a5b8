// SessionStart hooks in a real run: what they say reaches the model's first request as a `user`
// event (reason hook_context); a block ends the run before any model call, naming the hook and
// its reason; a hook that crashes, times out or answers garbage blocks (fail closed).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src/harness/host';
import { resumeRun } from '../../../src/harness/resume';
import { assertEndsBeforeModel, hook, hookedRepo, ofKind, readEvents, requestText, runIn, say, ScriptedModel, use, useOwnTrustStore, WRITES_HI } from './kit';

describe('SessionStart hooks', function () {
  this.timeout(120_000);
  useOwnTrustStore();

  it('plain stdout and hookSpecificOutput.additionalContext reach the first model request as hook_context; stdin names the source', async () => {
    const root = hookedRepo({
      SessionStart: [
        ...hook(`cat > .start-input.json; echo "Release freeze: touch nothing under vendor/."`, { matcher: 'startup' }),
        ...hook(`echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "The on-call engineer is Ada."}}'`),
        ...hook('echo never-runs-at-startup', { matcher: 'resume' }),
      ],
    });
    const { summary, model, events } = await runIn(root, WRITES_HI());
    assert.equal(summary.outcome, 'done');
    const first = requestText(model.requests[0]!.messages);
    assert.match(first, /Release freeze: touch nothing under vendor\//);
    assert.match(first, /The on-call engineer is Ada\./);
    assert.doesNotMatch(first, /never-runs-at-startup/);
    assert.deepEqual(ofKind(events, 'user').map((u) => u.reason).slice(0, 3), ['briefing', 'hook_context', 'hook_context']);
    const hooks = ofKind(events, 'hook');
    assert.deepEqual(hooks.map((h) => [h.event, h.matcher, h.decision, h.context]), [
      ['SessionStart', 'startup', 'allow', 'Release freeze: touch nothing under vendor/.'],
      ['SessionStart', null, 'allow', 'The on-call engineer is Ada.'],
    ]);
    const input = JSON.parse(readFileSync(join(root, '.start-input.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual([input.hook_event_name, input.source, input.cwd], ['SessionStart', 'startup', root]);
    assert.equal(input.session_id, ofKind(events, 'session_start')[0]!.run);
  });

  it('a block ends the run before any model call: outcome error, the cause names the hook and its reason', async () => {
    const root = hookedRepo({ SessionStart: hook('echo "the staging database is down" >&2; exit 2') });
    const { summary, model, events } = await runIn(root, WRITES_HI());
    assert.equal(summary.outcome, 'error');
    assert.equal(model.requests.length, 0, 'the model was never called');
    assert.equal(ofKind(events, 'model').length, 0);
    assert.match(summary.error ?? '', /a SessionStart hook blocked the run before the model was called: the staging database is down \(hook: `echo "the staging database is down" >&2; exit 2`\)/);
    assert.equal(ofKind(events, 'session_end')[0]!.status, 'error');
    assert.ok(!existsSync(join(root, 'hi.txt')));
  });

  it('fails closed: a hook that crashes, times out or answers broken JSON blocks the run and says so', async () => {
    const cases: [string, number | undefined, RegExp][] = [
      ['./hooks/not-there.sh', undefined, /the hook failed \(exit 127\)/],
      ['sleep 5', 1, /the hook timed out after 1 s/],
      [`echo '{"additionalContext": '`, undefined, /the hook answered something that is not JSON/],
    ];
    await assertEndsBeforeModel('SessionStart', cases);
  });
});

describe('SessionStart hooks on resume', function () {
  this.timeout(120_000);
  useOwnTrustStore();

  it('`kite resume` runs them again with source resume; their context reaches the next model request', async () => {
    const root = hookedRepo({ SessionStart: [...hook('echo "Fresh start."', { matcher: 'startup' }), ...hook('echo "Resumed: re-read hi.txt first."', { matcher: 'resume' })] });
    // Attended: the command asks; nobody answers (the host gives up), so the run pauses without an outcome.
    const giveUp: Host = { approve: () => Promise.reject(new Error('nobody is here')) };
    const script = [use('run', 'r1', { command: 'touch hi.txt' }), say('Done: hi.txt exists.')];
    const first = await runIn(root, script, { mode: 'attended' }, giveUp);
    assert.equal(first.summary.paused, true);
    assert.match(requestText(first.model.requests[0]!.messages), /Fresh start\./);
    const model = new ScriptedModel(script);
    const approve: Host = { approve: () => Promise.resolve({ decision: 'approve' }) };
    const resumed = await resumeRun({ log: first.summary.logPath, modelOverride: model }, approve);
    assert.equal(resumed.outcome, 'done');
    assert.match(requestText(model.requests[0]!.messages), /Resumed: re-read hi\.txt first\./);
    const hooks = ofKind(readEvents(first.summary.logPath), 'hook');
    assert.deepEqual(hooks.map((h) => [h.matcher, h.context]), [['startup', 'Fresh start.'], ['resume', 'Resumed: re-read hi.txt first.']]);
  });
});
