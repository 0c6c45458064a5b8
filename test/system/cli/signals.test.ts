// A run killed from outside (Ctrl-C, `kill`, a closed terminal) ends cancelled: the command it
// was running is killed, the log is closed with session_end, the progress file stays valid and
// the feature is picked up again by the next run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';
import { loadProgress } from '../../../src/harness/progress/progressFile';
import { tempDir, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'harness', 'cli.ts');
// The run's cwd is a temp repo, so tsx must be named by its absolute location.
const TSX = pathToFileURL(require.resolve('tsx', { paths: [ROOT] })).href;

/** Resolves once `file` exists (the check command creates it when it starts). */
async function appears(file: string, gone: () => string | null, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    const early = gone();
    if (early !== null || Date.now() > until) throw new Error(`${file} never appeared: ${early ?? 'timed out'}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Alive and not a zombie (a killed orphan waits as a zombie until something reaps it). */
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Host pids whose command line contains `token` (a command in the sandbox cannot know its host pid). */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(token) && running(Number(name))) found.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  describe(`kite run stopped by ${signal}`, function () {
    this.timeout(60_000);
    let repo: string;
    let code: number | null;
    let stderr = '';
    let stdout = '';
    let events: KiteEvent[];
    // A fractional sleep nobody else runs: how the check is found among the host's processes.
    const token = `50.${process.pid}${signal.length}1`;

    before(async () => {
      const marks = tempDir();
      repo = tempRepo({
        'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Slow', status: 'todo', verify: null, notes: '', expects_no_change: true }] }), // its script changes nothing; the slow check is under test
        // The gate's check announces itself (commands may only write inside the workspace), then
        // takes far longer than the test, in the sandbox.
        '.kite/config.json': JSON.stringify({ checks: [`touch started.tmp && mv started.tmp started && exec sleep ${token}`] }),
      });
      const started = join(repo, 'started');
      const script = join(marks, 'script.json');
      writeFileSync(script, JSON.stringify([{ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } }]));
      const child = spawn(process.execPath, ['--import', TSX, CLI, 'run', '--model', `script:${script}`], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      let done = false;
      const exited = new Promise<number | null>((r) =>
        child.on('exit', (c) => {
          done = true;
          r(c);
        }),
      );
      await appears(started, () => (done ? `kite exited early: ${stderr}` : null));
      assert.notDeepEqual(processesWith(token), [], 'the check is running before the signal');
      child.kill(signal);
      code = await exited;
      const runs = join(repo, '.kite', 'runs');
      const log = readdirSync(runs).find((f) => f.endsWith('.jsonl'));
      assert.ok(log, 'a log was written');
      events = readFileSync(join(runs, log), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => EventSchema.parse(JSON.parse(l)));
    });

    it('exits 1 (not killed by the signal) and says it is stopping', () => {
      assert.equal(code, 1);
      assert.match(stderr, signal === 'SIGINT' ? /stopping \(Ctrl-C again to force\)/ : new RegExp(`${signal} received, stopping`));
      assert.doesNotMatch(stderr, /\n\s+at /);
    });

    it('the log ends with session_end cancelled; the interrupted gate is not recorded as a failed attempt', () => {
      const end = events.at(-1);
      assert.equal(end?.kind, 'session_end');
      assert.ok(end?.kind === 'session_end' && end.status === 'cancelled');
      assert.deepEqual(events.filter((e) => e.kind === 'gate'), []);
      const w = events.find((e) => e.kind === 'warning' && e.code === 'gate_cancelled');
      assert.ok(w?.kind === 'warning');
      assert.match(w.message, /stopped during gate attempt 1 \(`touch .*` killed\); no verdict/);
      assert.match(stdout, /gate STOPPED {2}the run was stopped during gate attempt 1/);
    });

    it('the running check was killed, not left behind', async () => {
      const by = Date.now() + 3000;
      while (processesWith(token).length && Date.now() < by) await new Promise((r) => setTimeout(r, 25));
      assert.deepEqual(processesWith(token), []);
    });

    it('the progress file is valid: the feature stays in_progress, the run is in its log, nothing committed', () => {
      const p = loadProgress(join(repo, 'kite-progress.json'));
      assert.equal(p.features[0].status, 'in_progress');
      assert.equal(p.log.length, 1);
      assert.equal(p.log[0].outcome, 'cancelled');
      assert.equal(p.log[0].commit, null);
    });
  });
}

describe('kite run stopped by a second Ctrl-C while the first is still stopping', function () {
  this.timeout(60_000);

  it('exits 130 at once and takes the running command (which ignores SIGTERM) along', async () => {
    const marks = tempDir();
    const repo = tempRepo({
      'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'Stubborn', status: 'todo', verify: null, notes: '', expects_no_change: true }] }),
      // SIGTERM is ignored by the shell and (inherited) by sleep: the graceful stop must wait for
      // the SIGKILL grace period, and the second Ctrl-C must not wait for it. Only on the host
      // ("sandbox": "off"): in the sandbox SIGTERM ends bwrap and with it every process inside.
      '.kite/config.json': JSON.stringify({ sandbox: 'off', checks: ["trap '' TERM; echo $$ > started.tmp && mv started.tmp started && sleep 50; sleep 50"] }),
    });
    const script = join(marks, 'script.json');
    writeFileSync(script, JSON.stringify([{ content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } }]));
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'run', '--model', `script:${script}`], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let done = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) =>
      child.on('exit', (c) => {
        done = true;
        r(c);
      }),
    );
    await appears(join(repo, 'started'), () => (done ? `kite exited early: ${stderr}` : null));
    const checkPid = Number(readFileSync(join(repo, 'started'), 'utf8').trim());
    child.kill('SIGINT');
    // Wait until the first stop is under way, then force.
    const until = Date.now() + 10_000;
    while (!/stopping \(Ctrl-C again to force\)/.test(stderr) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    assert.equal(await exited, 130);
    assert.match(stderr, /forced stop; the running command was killed/);
    // SIGKILL is delivered asynchronously, and an orphan may linger as a zombie until reaped.
    const by = Date.now() + 3000;
    while (running(checkPid) && Date.now() < by) await new Promise((r) => setTimeout(r, 25));
    assert.equal(running(checkPid), false, 'the check shell ignoring SIGTERM was killed with its group');
  });
});
