// The adapter process as the extension starts it (adapterPlacement.adapterCommand): on Linux it
// leads a session of its own, so a recorded replay lowers its own scheduling group (autogroup)
// and never the extension host's; the process VS Code talks to and stops is the adapter itself.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adapterCommand, adapterEnvironment, SETSID } from '../../src/harness/replay/adapterPlacement';
import { BACKGROUND_NICE } from '../../src/harness/backgroundPriority';
import { adapterBundle, DEMO_LOG } from './helpers';
import { policyOf, statField } from '../helpers/procStat';
import { tempDir } from '../unit/loop/kit';

/** A DAP client over the child's stdio: just enough framing to launch and disconnect. */
class RawDap {
  private buffer = Buffer.alloc(0);
  private seq = 1;
  readonly messages: { type: string; event?: string; command?: string; success?: boolean }[] = [];
  private waiters: (() => void)[] = [];

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  send(command: string, args: Record<string, unknown> = {}): void {
    const body = JSON.stringify({ seq: this.seq++, type: 'request', command, arguments: args });
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  async waitFor(what: string, found: (m: RawDap['messages'][number]) => boolean): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!this.messages.some(found)) {
      if (Date.now() > deadline) throw new Error(`no ${what} from the adapter; it sent ${JSON.stringify(this.messages.map((m) => m.event ?? m.command))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      this.messages.push(JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()));
      this.buffer = this.buffer.subarray(end + 4 + length);
      for (const w of this.waiters.splice(0)) w();
    }
  }
}

/** Session id of a process (/proc/PID/stat, field 6). */
function sessionOf(pid: number | 'self'): number {
  return Number(statField(`/proc/${pid}/stat`, 6));
}

/** The autogroup line of a process: "/autogroup-N nice X", or null where the kernel has none. */
function autogroupOf(pid: number | 'self'): string | null {
  return existsSync(`/proc/${pid}/autogroup`) ? readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim() : null;
}

describe('the adapter process as the extension starts it', function () {
  this.timeout(60_000);

  it('runs the adapter directly where there is no setsid to start it with (other systems)', () => {
    assert.deepEqual(adapterCommand('/bin/node', '/x/debugAdapter.js', 'darwin'), { command: '/bin/node', args: ['/x/debugAdapter.js'] });
    assert.deepEqual(adapterCommand('C:\\node.exe', 'C:\\x\\debugAdapter.js', 'win32'), { command: 'C:\\node.exe', args: ['C:\\x\\debugAdapter.js'] });
  });

  const running: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) child.kill();
  });

  /** The adapter started through setsid as the extension starts it (with `env` added), once it
   *  has answered `initialize`; `threads()` reads its threads' policies, `stop()` disconnects. */
  async function startAdapter(env: NodeJS.ProcessEnv) {
    const { command, args } = adapterCommand(process.execPath, await adapterBundle(), 'linux');
    assert.equal(command, SETSID);
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, KITE_BACKGROUND_NICE: '', ...env } });
    running.push(child);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const dap = new RawDap(child);
    dap.send('initialize', { adapterID: 'kite', linesStartAt1: true, columnsStartAt1: true });
    await dap.waitFor('initialize response', (m) => m.command === 'initialize');
    const pid = child.pid!;
    const threads = () => readdirSync(`/proc/${pid}/task`).map((t) => policyOf(`/proc/${pid}/task/${t}/stat`));
    const stop = () => {
      dap.send('disconnect', {});
      child.stdin.end();
      return exited;
    };
    return { pid, dap, threads, stop };
  }

  it('on Linux leads its own session: a recorded replay lowers its own scheduling group, never the one it was started from', async () => {
    assert.ok(existsSync(SETSID), `${SETSID} is on every Linux Kite supports (util-linux)`);
    const ourGroup = autogroupOf('self');
    // Any DAP client (no environment from the extension): the adapter lowers itself at the launch request.
    const { pid, dap, threads, stop } = await startAdapter({});
    dap.send('launch', { log: DEMO_LOG, stopOnEntry: true });
    await dap.waitFor('initialized event', (m) => m.event === 'initialized');
    dap.send('configurationDone');
    await dap.waitFor('stopped event', (m) => m.event === 'stopped');
    // setsid did not fork: the pid VS Code holds is the adapter, which leads its session.
    assert.match(readFileSync(`/proc/${pid}/cmdline`, 'latin1'), /debugAdapter\.js/);
    assert.equal(sessionOf(pid), pid, 'the adapter leads a session of its own');
    assert.notEqual(sessionOf('self'), pid);
    const theirs = autogroupOf(pid);
    if (theirs !== null) {
      assert.match(theirs, new RegExp(` nice ${BACKGROUND_NICE}$`), `the adapter's own group is lowered: ${theirs}`);
      assert.notEqual(theirs.split(' ')[0], ourGroup?.split(' ')[0], 'a group of its own');
    }
    assert.equal(autogroupOf('self'), ourGroup, 'the group it was started from keeps its priority');
    // Every thread of the adapter runs under SCHED_IDLE (stat field 41: 5); this process stays ordinary.
    const policies = threads();
    assert.ok(policies.length > 1 && policies.every((p) => p === 5), `the adapter's threads are all SCHED_IDLE: ${policies.join(',')}`);
    assert.equal(policyOf('/proc/self/stat'), 0);
    assert.equal(await stop(), 0, 'the adapter ends when the client disconnects');
  });

  /** The adapter as the extension starts it for a launch in `mode`, before any launch request. */
  async function startedFor(mode: unknown, xdg: string) {
    const adapter = await startAdapter({ XDG_CACHE_HOME: xdg, ...adapterEnvironment(mode) });
    return { policies: adapter.threads(), group: autogroupOf(adapter.pid), stop: adapter.stop };
  }

  it('for a recorded log it is background work from its start, before the launch request (and before its bundle loads)', async () => {
    const xdg = tempDir('kite-dap-cc-');
    const recorded = await startedFor(undefined, xdg);
    assert.ok(recorded.policies.length > 1 && recorded.policies.every((p) => p === 5), `every thread SCHED_IDLE before launch: ${recorded.policies.join(',')}`);
    if (recorded.group !== null) assert.match(recorded.group, new RegExp(` nice ${BACKGROUND_NICE}$`));
    assert.equal(await recorded.stop(), 0);
    // It started from the code cache's path: the bundle's cache was written at exit, for the next start.
    const caches = readdirSync(join(xdg, 'kite', 'v8')).filter((f) => f.endsWith('-debug-adapter.bin'));
    assert.equal(caches.length, 1, `one cache for the adapter's bundle: ${caches.join(', ')}`);

    // A live replay runs the agent loop and its commands: they keep the usual priority.
    const live = await startedFor('live', xdg);
    assert.ok(live.policies.every((p) => p === 0), `a live replay's threads stay ordinary: ${live.policies.join(',')}`);
    if (live.group !== null) assert.match(live.group, / nice 0$/);
    assert.equal(await live.stop(), 0);
  });
});
