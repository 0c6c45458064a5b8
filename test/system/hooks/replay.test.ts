// A replay never runs hook commands: every hook answers from the recorded `hook` events, so a run
// with hooks at every event replays to the same hook decisions, the same texts for the model and
// the same refused calls, while a marker file each hook appends to stays untouched.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnattendedHost } from '../../../src/harness/cli/unattendedHost';
import type { Host } from '../../../src/harness/host';
import { resumeRun } from '../../../src/harness/resume';
import type { HooksConfig } from '../../../src/harness/hooks/hookConfig';
import { SteerQueue } from '../../../src/harness/loop/steer';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { replayRun } from '../../../src/harness/replay/replayRun';
import { git } from '../../unit/loop/kit';
import { hook, hookedRepo, ofKind, readEvents, reply, runIn, say, ScriptedModel, use, useOwnTrustStore, WRITES_HI } from './kit';

const mark = (name: string, then: string) => `input=$(cat); echo ${name} >> .hooks-ran.log; ${then}`;
const HOOKS: HooksConfig = {
  SessionStart: hook(mark('SessionStart', 'echo "Context from SessionStart."')),
  PromptSubmit: hook(mark('PromptSubmit', `printf '%s' "$input" | grep -q delete && { echo "no deletions" >&2; exit 2; }; exit 0`)),
  PreToolUse: hook(mark('PreToolUse', 'exit 0'), { matcher: 'write_file' }),
  PostToolUse: hook(mark('PostToolUse', 'exit 0'), { matcher: 'write_file' }),
  PostModelReply: hook(mark('PostModelReply', `printf '%s' "$input" | grep -q secret.txt && { echo "secret.txt is off limits" >&2; exit 2; }; exit 0`)),
  Stop: hook(mark('Stop', 'exit 0')),
  SessionEnd: hook(mark('SessionEnd', 'exit 0')),
};

/** What a hook decided, and what the model was told and answered: the parts a replay must reproduce. */
const story = (events: readonly KiteEvent[]): unknown[][] =>
  events.flatMap((e): unknown[][] => {
    if (e.kind === 'hook') return [[e.kind, e.event, e.matcher, e.command, e.id, e.decision, e.reason, e.context ?? null]];
    if (e.kind === 'user') return [[e.kind, e.reason, e.text]];
    if (e.kind === 'tool') return [[e.kind, e.id, e.is_error, e.output]];
    if (e.kind === 'warning' && e.code === 'steer_blocked') return [[e.kind, e.code, e.message, e.text ?? null]];
    return [];
  });

/** The work tree as the recorded run found it (the marker file, untracked, stays). */
const backToStart = (root: string, events: readonly KiteEvent[]) => git(root, 'reset', '-q', '--hard', ofKind(events, 'session_start')[0]!.git_head!);

describe('replaying a run with hooks', function () {
  this.timeout(180_000);
  useOwnTrustStore();

  it('runs no hook command (the marker file is untouched) and reproduces the same hook decisions, texts and refusals', async () => {
    const root = hookedRepo(HOOKS);
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.hooks-ran.log\n');
    const steer = new SteerQueue();
    steer.push('please delete README.md');
    steer.push('thanks');
    const script = [reply([{ type: 'tool_use', id: 'w0', name: 'write_file', input: { path: 'secret.txt', content: 'x\n' } }], 'tool_use'), ...WRITES_HI()];
    const { summary, events } = await runIn(root, script, { steer });
    assert.equal(summary.outcome, 'done');
    const ran = readFileSync(join(root, '.hooks-ran.log'), 'utf8');
    for (const e of Object.keys(HOOKS)) assert.match(ran, new RegExp(`^${e}$`, 'm'), `${e} ran in the recorded run`);
    assert.ok(ofKind(events, 'warning').some((w) => w.code === 'steer_blocked'));
    assert.ok(ofKind(events, 'hook').some((h) => h.event === 'PostModelReply' && h.decision === 'block'));

    backToStart(root, events);
    const r = await replayRun({ log: summary.logPath, root, onDivergence: 'continue' }, new UnattendedHost());
    assert.equal(readFileSync(join(root, '.hooks-ran.log'), 'utf8'), ran, 'no hook command ran during the replay');
    assert.equal(r.outcome, 'done');
    assert.equal(r.divergences, 0);
    assert.deepEqual(story(readEvents(r.logPath)), story(events));
  });

  it('a replay needs no approval of the hooks (it runs none): another machine replays the log', async () => {
    const root = hookedRepo({ SessionStart: hook(mark('SessionStart', 'echo "hello"')), Stop: hook(mark('Stop', 'exit 0')) });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.hooks-ran.log\n');
    const { summary, events } = await runIn(root, [say('Done.'), ...WRITES_HI()]);
    const ran = readFileSync(join(root, '.hooks-ran.log'), 'utf8');
    const saved = process.env.KITE_STATE_DIR;
    process.env.KITE_STATE_DIR = join(root, '..', 'elsewhere'); // nothing approved here
    try {
      backToStart(root, events);
      const r = await replayRun({ log: summary.logPath, root, onDivergence: 'continue' }, new UnattendedHost());
      assert.deepEqual(story(readEvents(r.logPath)), story(events));
    } finally {
      process.env.KITE_STATE_DIR = saved;
    }
    assert.equal(readFileSync(join(root, '.hooks-ran.log'), 'utf8'), ran);
  });

  it('a resumed run replays with its resume SessionStart context at the point it resumed, answered from the recording', async () => {
    const root = hookedRepo({
      SessionStart: [...hook(mark('SessionStart', 'echo "Fresh start."'), { matcher: 'startup' }), ...hook(mark('SessionStart', 'echo "Resumed: re-read hi.txt first."'), { matcher: 'resume' })],
    });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.hooks-ran.log\n');
    // Attended: the command asks, nobody answers, the run pauses; `kite resume` goes on from there.
    const giveUp: Host = { approve: () => Promise.reject(new Error('nobody is here')) };
    const script = [use('run', 'r1', { command: 'touch hi.txt' }), say('Done: hi.txt exists.')];
    const first = await runIn(root, script, { mode: 'attended' }, giveUp);
    assert.equal(first.summary.paused, true);
    const resumed = await resumeRun({ log: first.summary.logPath, modelOverride: new ScriptedModel(script) }, { approve: () => Promise.resolve({ decision: 'approve' }) });
    assert.equal(resumed.outcome, 'done');
    const recorded = readEvents(first.summary.logPath);
    const ran = readFileSync(join(root, '.hooks-ran.log'), 'utf8');
    assert.equal(ran, 'SessionStart\nSessionStart\n', 'the startup hook ran, then the resume hook');

    backToStart(root, recorded);
    rmSync(join(root, 'hi.txt')); // untracked: the recorded run started without it
    const r = await replayRun({ log: first.summary.logPath, root, onDivergence: 'continue' }, new UnattendedHost());
    assert.equal(readFileSync(join(root, '.hooks-ran.log'), 'utf8'), ran, 'no hook command ran during the replay');
    assert.equal(r.outcome, 'done');
    assert.equal(r.divergences, 0, JSON.stringify(r.divergence));
    const replayed = readEvents(r.logPath);
    // The same hook answers and texts in the same order (a command's output names its run time: left out),
    // the resume context after the first reply, before the command's result.
    const untimed = (events: readonly KiteEvent[]) => story(events).filter((row) => row[0] !== 'tool');
    assert.deepEqual(untimed(replayed), untimed(recorded));
    assert.deepEqual(
      replayed.filter((e) => (e.kind === 'user' && e.reason === 'hook_context') || e.kind === 'model' || e.kind === 'tool').map((e) => (e.kind === 'user' ? e.text : e.kind)),
      ['Fresh start.', 'model', 'Resumed: re-read hi.txt first.', 'tool', 'model'],
    );
  });
});
