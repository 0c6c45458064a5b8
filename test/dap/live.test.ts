// Live mode over DAP: the recorded replies drive a live run in a scratch worktree at the
// recorded commit; the session stops at the first divergence and shows recorded vs live.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import { readLog } from '../../src/harness/events/reader';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { git } from '../unit/loop/kit';
import { SIDE_COMMAND, buildCli, kite, makeProject, onlyLog } from '../system/resume/kit';
import { adapterBundle, child, launch, scopeVars, startClient, where } from './helpers';

describe('DAP live mode (stdio)', function () {
  this.timeout(120_000);
  let dc: DebugClient;
  let repo: string;
  let tampered: string;
  let runSeq: number;

  before(async () => {
    const [cli] = await Promise.all([buildCli(), adapterBundle()]);
    const p = makeProject();
    repo = p.repo;
    const r = kite(cli, repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 0, r.stderr);
    const recording = onlyLog(repo);
    // A recording that says the side command exited 3: the live run (exit 0) must diverge there.
    // Found through the reader: on disk the tool event refers to its model event for its args.
    const found = (await readLog(recording)).events.find((e) => e.kind === 'tool' && e.name === 'run' && JSON.stringify(e.args).includes(SIDE_COMMAND));
    assert.ok(found);
    runSeq = found.seq;
    const events = readFileSync(recording, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);
    const run = events.find((e) => e.seq === runSeq);
    assert.ok(run && run.kind === 'tool');
    run.exit_code = 3;
    tampered = recording.replace(/\.jsonl$/, '-tampered.jsonl');
    writeFileSync(tampered, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  });
  beforeEach(async () => {
    dc = await startClient();
    dc.defaultTimeout = 90_000;
  });
  afterEach(async () => {
    await dc.stop();
  });

  it('stops at the first divergence showing recorded vs live, in the live run\'s transcript', async () => {
    const output: string[] = [];
    dc.on('output', (e) => output.push(String((e.body as { output: string }).output)));
    const stopped = await launch(dc, { log: tampered, mode: 'live', root: repo, stopOnEntry: true });
    assert.equal(stopped.body.reason, 'exception');
    assert.match(stopped.body.description ?? '', new RegExp(`^Replay diverged at seq ${runSeq}: run .*exit_code`));
    const w = await where(dc);
    assert.match(w.frames[0].name, /^#\d+ divergence/);
    assert.match(w.frames[0].source?.path ?? '', /-replay\.jsonl\.kite-transcript$/);
    const d = await scopeVars(dc, 'Divergence');
    assert.equal((await child(dc, d.find((v) => v.name === 'recorded'), 'exit_code')).value, '3');
    const live = await child(dc, d.find((v) => v.name === 'live'), 'exit_code');
    assert.equal(live.value, '0');
    assert.equal(live.evaluateName, 'divergence.live.exit_code');
    const rec = d.find((v) => v.name === 'recorded_event');
    assert.equal((await child(dc, rec, 'seq')).value, String(runSeq));
    assert.ok(output.some((o) => /^live #\d+ .*tool {2}run "echo ran >> side.txt"/.test(o)), 'live events were echoed to the debug console');
    assert.equal(git(repo, 'worktree', 'list').split('\n').length, 1, 'the scratch worktree is gone');
  });

  it('a log without a starting commit cannot be replayed live: clear error response', async () => {
    const events = readFileSync(tampered, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as KiteEvent);
    if (events[0].kind === 'session_start') events[0].git_head = null;
    const noHead = tampered.replace(/\.jsonl$/, '-nohead.jsonl');
    writeFileSync(noHead, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    await dc.initializeRequest();
    await assert.rejects(dc.launchRequest({ log: noHead, mode: 'live', root: repo } as never), /records no starting commit/);
  });
});
