// The adapter process as the extension starts it now (replay/adapterSpawn.ts): a worker thread
// spawns it, so the extension host's loop never waits for the child to exec, and the adapter
// serves DAP on a socket in a private directory, to one client, ending with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { adapterCommand, adapterEnvironment, DAP_PIPE_ENV, SOCKET_DIR_PREFIX } from '../../src/harness/replay/adapterPlacement';
import { startAdapterProcess, type StartedAdapter } from '../../src/harness/replay/adapterSpawn';
import { adapterBundle, DEMO_LOG, launch } from './helpers';

let dapSeq = 1;
function dapRequest(command: string, args: object): string {
  const body = JSON.stringify({ seq: dapSeq++, type: 'request', command, arguments: args });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const socketDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(SOCKET_DIR_PREFIX)).sort();

function connectTo(pipe: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(pipe, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the adapter started off the extension host loop', function () {
  this.timeout(60_000);
  const started: StartedAdapter[] = [];
  afterEach(() => started.splice(0).forEach((a) => a.kill()));

  it('serves one client on a socket only its user can reach, and ends with that client (its directory removed)', async () => {
    const { command, args } = adapterCommand(process.execPath, await adapterBundle());
    const adapter = await startAdapterProcess({ command, args, env: { ...process.env, ...adapterEnvironment(undefined) } });
    started.push(adapter);
    const dir = dirname(adapter.pipe);
    assert.equal(statSync(dir).mode & 0o777, 0o700, 'the socket is in a directory of its own user only');
    assert.equal(statSync(dir).uid, process.getuid?.());

    const socket = await connectTo(adapter.pipe);
    const dc = new DebugClient('unused', 'unused', 'kite');
    dc.defaultTimeout = 15_000;
    (dc as unknown as { connect(r: Socket, w: Socket): void }).connect(socket, socket);
    await dc.initializeRequest();
    const stopped = await launch(dc, { log: DEMO_LOG, stopOnEntry: true });
    assert.equal(stopped.body.reason, 'entry');
    const frames = await dc.stackTraceRequest({ threadId: 1 });
    assert.ok(frames.body.stackFrames.length > 0, 'the stopped run has frames');

    // Nobody else gets in while the session runs.
    await assert.rejects(connectTo(adapter.pipe), /ECONNREFUSED|ENOENT/);

    await dc.disconnectRequest({});
    socket.destroy();
    await adapter.exited;
    assert.equal(existsSync(dir), false, 'the socket directory is removed when the adapter has exited');
  });

  it('the adapter removes its socket directory itself when it ends, so a host that is gone meanwhile leaves nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), SOCKET_DIR_PREFIX));
    const pipe = join(dir, 'dap.sock');
    const { command, args } = adapterCommand(process.execPath, await adapterBundle());
    const child = spawn(command, args, { env: { ...process.env, ...adapterEnvironment(undefined), [DAP_PIPE_ENV]: pipe }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    await new Promise<void>((r) => child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && r()));
    const socket = await connectTo(pipe);
    socket.write(dapRequest('initialize', { adapterID: 'kite' }));
    socket.write(dapRequest('disconnect', {}));
    assert.equal(await exited, 0);
    assert.equal(existsSync(dir), false, 'the adapter removed its socket directory');
  });

  it('an adapter that stops before it listens fails the start with its own words, and leaves nothing behind', async () => {
    const before = socketDirs();
    const script = 'process.stderr.write("cannot read the log: no such file"); process.exit(3)';
    await assert.rejects(startAdapterProcess({ command: process.execPath, args: ['-e', script], env: process.env }), (e: Error) => {
      assert.match(e.message, /stopped before it listened \(exit code 3\): cannot read the log: no such file/);
      return true;
    });
    assert.deepEqual(socketDirs(), before, 'no socket directory left behind');
  });
});
