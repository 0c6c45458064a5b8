import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRunner } from '../../../src/harness/sandbox/runner';
import { hostSandbox } from '../../helpers/sandbox';

/** True while a process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits for a condition that another process makes true (bounded; fails with a message). */
async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('process runner (on the host, as with "sandbox": "off"; bwrap: test/system/sandbox)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kite-runner-')))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs /bin/sh -c in the given cwd and returns exit code and both streams', async () => {
    const r = await createRunner({ sandbox: hostSandbox() }).run({ command: 'pwd; echo to-err >&2; exit 7', cwd: dir, timeout_s: 10 });
    assert.equal(r.exit_code, 7);
    assert.equal(r.stdout, `${dir}\n`);
    assert.equal(r.stderr, 'to-err\n');
    assert.equal(r.timed_out, false);
    assert.equal(r.cancelled, false);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const pids = path.join(dir, 'pids');
    const t0 = Date.now();
    const r = await createRunner({ sandbox: hostSandbox(), killGraceMs: 500 }).run({ command: `sleep 30 & echo $! > ${pids}; echo $$ >> ${pids}; sleep 30`, cwd: dir, timeout_s: 1 });
    assert.equal(r.timed_out, true);
    assert.equal(r.exit_code, null);
    assert.ok(Date.now() - t0 < 10_000, 'returned long before the sleeps would end');
    const [grandchild, shell] = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    await until(() => !alive(grandchild), `background sleep ${grandchild} to die`);
    await until(() => !alive(shell), `shell ${shell} to die`);
  });

  it('escalates to SIGKILL when a command ignores SIGTERM', async () => {
    const pidFile = path.join(dir, 'pid');
    const r = await createRunner({ sandbox: hostSandbox(), killGraceMs: 300 }).run({ command: `trap '' TERM; echo $$ > ${pidFile}; while :; do sleep 1; done`, cwd: dir, timeout_s: 1 });
    assert.equal(r.timed_out, true);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    await until(() => !alive(pid), 'stubborn shell to die');
  });

  it('kills the group when the AbortSignal fires', async () => {
    const ac = new AbortController();
    const pidFile = path.join(dir, 'pid');
    const running = createRunner({ sandbox: hostSandbox() }).run({ command: `echo $$ > ${pidFile}; sleep 30`, cwd: dir, timeout_s: 60, signal: ac.signal });
    await until(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').endsWith('\n'), 'command to start');
    ac.abort();
    const r = await running;
    assert.equal(r.cancelled, true);
    assert.equal(r.exit_code, null);
    await until(() => !alive(Number(fs.readFileSync(pidFile, 'utf8'))), 'cancelled shell to die');
  });

  it('does not wait for background processes after the command exits, and kills them', async () => {
    const pidFile = path.join(dir, 'bg');
    const t0 = Date.now();
    const r = await createRunner({ sandbox: hostSandbox() }).run({ command: `sleep 30 & echo $! > ${pidFile}; echo done`, cwd: dir, timeout_s: 20 });
    assert.equal(r.exit_code, 0);
    assert.equal(r.stdout, 'done\n');
    assert.ok(Date.now() - t0 < 5000);
    await until(() => !alive(Number(fs.readFileSync(pidFile, 'utf8'))), 'background process to die');
  });

  it('reads every byte a command wrote before it exited', async () => {
    const r = await createRunner({ sandbox: hostSandbox(), outputCap: 1 << 20 }).run({ command: "head -c 300000 /dev/zero | tr '\\0' a", cwd: dir, timeout_s: 20 });
    assert.equal(r.exit_code, 0);
    assert.equal(r.stdout.length, 300000);
  });

  it('does not hang on a process that left the group (setsid) and still holds the output pipe', async () => {
    const pidFile = path.join(dir, 'escapee');
    const t0 = Date.now();
    const r = await createRunner({ sandbox: hostSandbox() }).run({ command: `setsid sleep 30 & echo $! > ${pidFile}; echo out`, cwd: dir, timeout_s: 20 });
    try {
      assert.equal(r.exit_code, 0);
      assert.equal(r.stdout, 'out\n');
      assert.ok(Date.now() - t0 < 8000);
    } finally {
      try {
        process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });

  it('treats an enormous timeout as "very long", not as an overflowed timer that fires at once', async () => {
    const r = await createRunner({ sandbox: hostSandbox() }).run({ command: 'echo fine', cwd: dir, timeout_s: 1e9 });
    assert.equal(r.timed_out, false);
    assert.equal(r.exit_code, 0);
  });

  it('builds the environment from an allowlist: unusual secret names and plain variables stay out, named ones pass', async () => {
    const env = { PATH: process.env.PATH, HOME: '/home/x', LANG: 'C.UTF-8', LC_ALL: 'C', FOO_API_KEY: 'abc123', ANTHROPIC_API_KEY: 'sk-ant-xyz', MY_DB_PASSWORD: 'pw', PLAIN: 'visible', DB: 'postgres://u:hunter2@db/x', NEEDED: 'yes' };
    const r = await createRunner({ sandbox: hostSandbox(env, ['NEEDED', 'ANTHROPIC_API_KEY']) }).run({ command: 'env', cwd: dir, timeout_s: 10 });
    assert.match(r.stdout, /^NEEDED=yes$/m);
    assert.match(r.stdout, /^LC_ALL=C$/m);
    assert.match(r.stdout, /^HOME=\/home\/x$/m);
    assert.match(r.stdout, /^GIT_TERMINAL_PROMPT=0$/m);
    for (const gone of ['PLAIN', 'FOO_API_KEY', 'ANTHROPIC_API_KEY', 'MY_DB_PASSWORD', 'DB=', 'abc123', 'hunter2', 'sk-ant-xyz']) assert.ok(!r.stdout.includes(gone), `${gone} leaked`);
  });

  it('hides a secret set in this very process (default env = process.env)', async () => {
    process.env.FOO_API_KEY = 'parent-secret-42';
    try {
      const r = await createRunner({ sandbox: hostSandbox() }).run({ command: 'echo "[$FOO_API_KEY]"', cwd: dir, timeout_s: 10 });
      assert.equal(r.stdout, '[]\n');
    } finally {
      delete process.env.FOO_API_KEY;
    }
  });

  it('caps each stream, keeping head and tail with a marker', async () => {
    const r = await createRunner({ sandbox: hostSandbox(), outputCap: 1000 }).run({ command: 'seq 1 100000; seq 1 5 >&2', cwd: dir, timeout_s: 20 });
    assert.equal(r.exit_code, 0);
    assert.ok(r.stdout.startsWith('1\n2\n3\n'));
    assert.ok(r.stdout.endsWith('99999\n100000\n'));
    assert.match(r.stdout, /\[… \d+ bytes cut \(about \d+ lines\) …\]/);
    assert.ok(r.stdout.length < 1100);
    assert.equal(r.stderr, '1\n2\n3\n4\n5\n');
  });

  it('never throws: a missing program, a missing cwd, an already aborted signal', async () => {
    const runner = createRunner({ sandbox: hostSandbox() });
    const a = await runner.run({ command: 'definitely-not-a-program-xyz', cwd: dir, timeout_s: 10 });
    assert.equal(a.exit_code, 127);
    assert.match(a.stderr, /not found/);
    const b = await runner.run({ command: 'true', cwd: path.join(dir, 'gone'), timeout_s: 10 });
    assert.equal(b.exit_code, null);
    assert.match(b.stderr, /does not exist; the command did not run/);
    const ac = new AbortController();
    ac.abort();
    const c = await runner.run({ command: 'true', cwd: dir, timeout_s: 10, signal: ac.signal });
    assert.equal(c.cancelled, true);
  });

  it('gives the command no stdin, so prompts fail instead of hanging', async () => {
    const r = await createRunner({ sandbox: hostSandbox() }).run({ command: 'read x; echo "read=$?"', cwd: dir, timeout_s: 10 });
    assert.match(r.stdout, /read=1/);
  });
});
