// Issue 13 item 13, through the real CLI: a run with a large write stores its content once (in the
// model event; the other events of the call refer to it), and `kite timeline`, `kite run --replay`
// and `kite resume` work on such a log; a log of the older form (arguments on every event) still
// replays.
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { say, use } from '../../../src/harness/model/scripted';
import type { Reply } from '../../../src/harness/protocol/content';
import { git, tempRepo } from '../../unit/loop/kit';
import { buildCli, eventsOf, kite, onlyLog } from './kit';

const MB2 = 2_000_000;
const END = 'END-OF-THE-LARGE-FILE';
/** 2 MB of ordinary text (the commit's secret scan must not mistake it for a key), one unique last line. */
const LARGE = (() => {
  const line = 'the quick brown fox jumps over the lazy dog, again and again\n';
  return line.repeat(Math.ceil(MB2 / line.length)).slice(0, MB2 - END.length - 1) + END + '\n';
})();

function project(): { repo: string; script: string } {
  const repo = tempRepo({
    'README.md': 'large write\n',
    'kite-progress.json': JSON.stringify({ goal: 'big', log: [], features: [{ id: 'F1', title: 'Write a large file', status: 'todo', notes: '' }] }, null, 2),
    '.kite/config.json': JSON.stringify({ checks: ['test -f kite-progress.json'], budget: { turns: 10 } }),
  });
  const replies: Reply[] = [use('write_file', 'toolu_big', { path: 'data/large.txt', content: LARGE }), use('edit_file', 'toolu_edit', { path: 'data/large.txt', old_string: END, new_string: 'THE END' }), say('Done: data/large.txt is written.')];
  const script = join(dirname(repo), 'script.json');
  writeFileSync(script, JSON.stringify(replies));
  return { repo, script };
}

const count = (text: string, what: string) => text.split(what).length - 1;

describe('a large write is stored once in the log (real CLI)', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('kite run writes the content once; kite timeline shows the write and kite run --replay reproduces it', async () => {
    const p = project();
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const log = onlyLog(p.repo);
    const text = readFileSync(log, 'utf8');
    assert.equal(count(text, END), 2, 'the content once (model event) and the edit’s old_string once (its model event)');
    assert.ok(statSync(log).size < MB2 + 200_000, `log of ${statSync(log).size} bytes for a 2 MB write`);
    const events = await eventsOf(log);
    const tool = events.find((e) => e.kind === 'tool' && e.id === 'toolu_big');
    assert.deepEqual(tool?.kind === 'tool' && tool.args, { path: 'data/large.txt', content: LARGE }, 'the reader gives the tool event its arguments back');
    assert.equal(readFileSync(join(p.repo, 'data/large.txt'), 'utf8'), LARGE.replace(END, 'THE END'));

    const timeline = kite(cli, p.repo, ['timeline', log]);
    assert.equal(timeline.status, 0, timeline.stderr);
    assert.equal(timeline.stderr, '', 'no problems reported reading the log');
    assert.match(timeline.stdout, /ok\s+write_file data\/large\.txt \(2,000,000 chars\)/);

    const replay = kite(cli, p.repo, ['run', '--replay', log, '--worktree']);
    assert.equal(replay.status, 0, replay.stderr + replay.stdout);
    assert.match(replay.stdout, /F1 replay: done \(recorded: done\) in 3 turns/);
    assert.doesNotMatch(replay.stdout, /DIVERGED/);
  });

  it('kite resume after a kill right after the write’s intent finishes the write and keeps the log compact', async () => {
    const learn = project();
    assert.equal(kite(cli, learn.repo, ['run', '--unattended', '--model', `script:${learn.script}`]).status, 0);
    const intentSeq = (await eventsOf(onlyLog(learn.repo))).find((e) => e.kind === 'intent' && e.id === 'toolu_big')?.seq;
    assert.ok(intentSeq !== undefined);

    const p = project();
    const crashed = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], { KITE_TEST_CRASH_AFTER_SEQ: String(intentSeq) });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
    const log = onlyLog(p.repo);
    const resumed = kite(cli, p.repo, ['resume', log]);
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout);
    assert.equal(readFileSync(join(p.repo, 'data/large.txt'), 'utf8'), LARGE.replace(END, 'THE END'));
    assert.match(git(p.repo, 'log', '-1', '--format=%s'), /^F1: Write a large file/);
    const text = readFileSync(log, 'utf8');
    assert.equal(count(text, END), 2, 'the resumed part refers to the model event too');
    const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; id?: string; args?: unknown; args_ref?: unknown });
    const tool = lines.find((l) => l.kind === 'tool' && l.id === 'toolu_big');
    assert.ok(tool && tool.args === undefined && tool.args_ref !== undefined, 'the tool event written after the resume is a reference');
    await eventsOf(log); // no problems
  });

  it('a log of the older form (arguments on every event) still reads, shows and replays', async () => {
    const fixture = join(__dirname, '../../fixtures/logs/args-in-full.jsonl');
    const repo = tempRepo({
      '.kite/config.json': '{"checks":[]}\n',
      'src/notes.txt': 'alpha\n',
      'kite-progress.json': '{"goal":"Notes","log":[],"features":[{"id":"F1","title":"Write the report","status":"todo","notes":""}]}\n',
    });
    const old = readFileSync(fixture, 'utf8');
    assert.ok(!old.includes('args_ref') && count(old, '"args":') >= 8, 'the fixture has arguments in full');
    const events = await eventsOf(fixture);
    assert.deepEqual(
      events.filter((e) => e.kind === 'tool').map((e) => e.kind === 'tool' && e.args),
      [{ path: 'src/notes.txt' }, { path: 'out/report.txt', content: 'Report\n======\nline one of the report\nline two of the report\n' }, { path: 'src/notes.txt', old_string: 'alpha', new_string: 'beta' }],
    );
    const timeline = kite(cli, repo, ['timeline', fixture]);
    assert.equal(timeline.status, 0, timeline.stderr);
    assert.match(timeline.stdout, /write_file out\/report\.txt/);
    // Every tool call of the old recording replays from its full arguments. Its gate had no check
    // (a vacuous done this Kite no longer gives), so the replay stops at the gate and says so.
    const replay = kite(cli, repo, ['run', '--replay', fixture, repo]);
    assert.equal(readFileSync(join(repo, 'src/notes.txt'), 'utf8'), 'beta\n');
    assert.match(readFileSync(join(repo, 'out/report.txt'), 'utf8'), /line two of the report/);
    assert.match(replay.stdout + replay.stderr, /DIVERGED from the recording at seq \d+: gate attempt 1/);
    assert.doesNotMatch(replay.stdout + replay.stderr, /DIVERGED[^\n]*(tool|write|read|edit)/);
  });
});
