// A project whose .kite/config.json says `"log_dir": "logs/agent"`, through the built CLI: the run
// writes its log there (and nothing in .kite/runs), every command finds the run by its id in that
// folder (timeline, diagnose, cost, replay, resume after a crash or a pause), and a log_dir that
// leaves the workspace stops the run before anything is written.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CostReport } from '../../../src/harness/events/cost';
import type { Host } from '../../../src/harness/host';
import { runFeature } from '../../../src/harness/run';
import { git } from '../../unit/loop/kit';
import { buildCli, eventsOf, gatesOf, kite, makeProject, sideLines, type Project } from '../resume/kit';

const LOG_DIR = 'logs/agent';
const goneHost: Host = { approve: () => Promise.reject(new Error('nobody is there to answer')) };

/** Sets log_dir in the project's committed config; returns the absolute log folder. */
function useLogDir(p: Project, logDir = LOG_DIR): string {
  const file = join(p.repo, '.kite', 'config.json');
  writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), log_dir: logDir }, null, 2));
  git(p.repo, 'commit', '-qam', 'log_dir for the test');
  return join(p.repo, logDir);
}

const logsIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : []);

function onlyRunId(dir: string): string {
  const logs = logsIn(dir);
  assert.equal(logs.length, 1, `expected one log in ${dir}, found ${logs.join(', ') || 'none'}`);
  return basename(logs[0], '.jsonl');
}

describe('CLI with "log_dir": "logs/agent"', function () {
  this.timeout(180_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('kite run logs there; timeline, diagnose, cost and replay find the run by id', async () => {
    const p = makeProject();
    const dir = useLogDir(p);
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const runId = onlyRunId(dir);
    assert.match(r.stdout, new RegExp(`Log logs/agent/${runId}\\.jsonl$`, 'm'));
    assert.deepEqual(logsIn(join(p.repo, '.kite', 'runs')), [], 'nothing in the default folder');
    git(p.repo, 'check-ignore', '-q', `${LOG_DIR}/${runId}.jsonl`); // throws when the log is not ignored

    const timeline = kite(cli, p.repo, ['timeline', runId]);
    assert.equal(timeline.status, 0, timeline.stderr);
    assert.match(timeline.stdout, /^F1: done in 6 turns/m);

    const diagnosis = kite(cli, p.repo, ['diagnose', runId, '--json']);
    assert.equal(diagnosis.status, 0, diagnosis.stderr);
    assert.doesNotThrow(() => JSON.parse(diagnosis.stdout));

    const cost = kite(cli, p.repo, ['cost', '--json']);
    assert.equal(cost.status, 0, cost.stderr);
    const report = JSON.parse(cost.stdout) as CostReport;
    assert.deepEqual(
      report.runs.map((x) => [x.run, x.log, x.outcome]),
      [[runId, join(dir, `${runId}.jsonl`), 'done']],
    );

    const replay = kite(cli, p.repo, ['run', '--replay', runId, '--worktree']);
    assert.equal(replay.status, 0, replay.stderr + replay.stdout);
    assert.match(replay.stdout, /gates: recorded FAILED, PASSED; replay FAILED, PASSED \(reproduced\)/);
    assert.match(replay.stdout, /F1 replay: done \(recorded: done\)/);
    const replayLog = logsIn(dir).find((f) => f !== `${runId}.jsonl`);
    assert.ok(replayLog, 'the replay keeps its log next to the recording, in logs/agent');
    assert.deepEqual(gatesOf(await eventsOf(join(dir, replayLog))), [false, true]);
  });

  it('kite resume <run id> finds a crashed run in logs/agent and finishes it', async () => {
    const p = makeProject();
    const dir = useLogDir(p);
    const crashed = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`], { KITE_TEST_CRASH_AFTER_SEQ: '4' });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
    const runId = onlyRunId(dir);
    assert.ok(!(await eventsOf(join(dir, `${runId}.jsonl`))).some((e) => e.kind === 'session_end'), 'the crash left the run open');

    const r = kite(cli, p.repo, ['resume', runId]);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /F1: done in 6 turns/);
    const events = await eventsOf(join(dir, `${runId}.jsonl`));
    assert.equal(events.filter((e) => e.kind === 'resumed').length, 1);
    assert.equal(events.at(-1)?.kind, 'session_end');
    assert.equal(onlyRunId(dir), runId, 'resume appends to the same log');
  });

  it('kite resume <run id> --approve continues a run paused for approval in logs/agent', async () => {
    const p = makeProject({ askCommands: true });
    const dir = useLogDir(p);
    const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, goneHost);
    assert.equal(s.paused, true);
    assert.equal(s.logPath, join(dir, `${onlyRunId(dir)}.jsonl`));
    const runId = basename(s.logPath, '.jsonl');

    const again = kite(cli, p.repo, ['resume', runId]);
    assert.equal(again.status, 1, again.stderr + again.stdout);
    assert.match(again.stdout, new RegExp(`F1: paused, resume with kite resume ${runId}`));
    const done = kite(cli, p.repo, ['resume', runId, '--approve']);
    assert.equal(done.status, 0, done.stderr + done.stdout);
    assert.match(done.stdout, /F1: done in 6 turns/);
    assert.equal(sideLines(p.repo), 1, 'the approved command ran once');
  });

  it('a log_dir outside the workspace stops kite run with the file and $.log_dir, writing no log', () => {
    const p = makeProject();
    useLogDir(p, '../outside');
    const r = kite(cli, p.repo, ['run', '--unattended', '--model', `script:${p.script}`]);
    assert.equal(r.status, 2, r.stderr + r.stdout);
    assert.match(r.stderr, new RegExp(`^kite: ${join(p.repo, '.kite', 'config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: \\$\\.log_dir: "\\.\\./outside" is outside the workspace`, 'm'));
    assert.equal(existsSync(join(p.repo, '..', 'outside')), false);
  });
});
