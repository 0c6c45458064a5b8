// Shared by the DAP tests: builds the stand-alone adapter bundle once (same esbuild settings as
// dist/debugAdapter.js, into a private temp folder so parallel builds of dist/ cannot interfere),
// starts DebugClients against it over stdio, and small helpers that wait on protocol events.
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { KiteDebugSession, type KiteDebugSessionOptions } from '../../src/harness/replay/debugSession';
import type { KiteEvent } from '../../src/harness/protocol/events';

export const ROOT = resolve(__dirname, '../..');
export const DEMO_LOG = join(ROOT, 'test/fixtures/logs/demo-run.jsonl');

let built: Promise<string> | null = null;
const scratch: string[] = [];
// Temp folders (the adapter bundle, generated logs) go when the test process ends.
process.on('exit', () => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** Path of a freshly built debugAdapter.js (built once per mocha process). */
export function adapterBundle(): Promise<string> {
  built ??= (async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'kite-dap-'));
    scratch.push(outdir);
    await build({
      // As shipped: the launcher VS Code starts, and the bundle it starts.
      entryPoints: { debugAdapter: join(ROOT, 'src/harness/replay/debugAdapterLauncher.ts'), debugAdapterMain: join(ROOT, 'src/harness/replay/debugAdapterMain.ts') },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      mainFields: ['module', 'main'],
      outdir,
      logLevel: 'silent',
    });
    return join(outdir, 'debugAdapter.js');
  })();
  return built;
}

export async function startClient(): Promise<DebugClient> {
  const dc = new DebugClient(process.execPath, await adapterBundle(), 'kite');
  dc.defaultTimeout = 15_000;
  await dc.start();
  return dc;
}

export function writeLog(events: KiteEvent[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kite-dap-log-'));
  scratch.push(dir);
  const path = join(dir, `${events[0]?.run ?? 'run'}.jsonl`);
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return path;
}

/**
 * initialize + launch; `configure` runs after the `initialized` event (set breakpoints there).
 * Resolves with the first stopped event.
 */
export async function launch(dc: DebugClient, args: Record<string, unknown>, configure?: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
  const init = dc.waitForEvent('initialized').then(async () => {
    await configure?.();
    await dc.configurationDoneRequest();
  });
  await Promise.all([dc.launch(args), init]);
  return stopped;
}

/** Send a movement request and resolve with the stopped event it causes. */
export async function moved(dc: DebugClient, request: (dc: DebugClient) => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
  await request(dc);
  return stopped;
}

/** Where the session stands: the event frame (seq parsed from its name) and the whole stack. */
export async function where(dc: DebugClient): Promise<{ seq: number; line: number; frames: DebugProtocol.StackFrame[] }> {
  const st = await dc.stackTraceRequest({ threadId: 1 });
  const frames = st.body.stackFrames;
  const ev = frames.find((f) => /^#\d+ /.test(f.name));
  if (!ev) throw new Error(`no event frame in ${JSON.stringify(frames.map((f) => f.name))}`);
  return { seq: Number(/^#(\d+)/.exec(ev.name)?.[1]), line: ev.line, frames };
}

/** The transcript text as the adapter serves it. */
export async function transcript(dc: DebugClient): Promise<{ text: string; source: DebugProtocol.Source; lineOfSeq: (seq: number) => number }> {
  const st = await dc.stackTraceRequest({ threadId: 1 });
  const source = st.body.stackFrames.find((f) => /^#\d+ /.test(f.name))?.source;
  if (!source) throw new Error('no transcript source');
  const r = await dc.sourceRequest({ source, sourceReference: source.sourceReference ?? 0 });
  const lines = r.body.content.split('\n');
  return {
    text: r.body.content,
    source,
    lineOfSeq: (seq) => {
      const i = lines.findIndex((l) => l.trimStart().startsWith(`#${seq} `));
      if (i < 0) throw new Error(`no line for seq ${seq}`);
      return i + 1;
    },
  };
}

/** Variables of the scope whose name starts with `prefix` in the event frame. */
export async function scopeVars(dc: DebugClient, prefix: string, frameName = /^#\d+ /): Promise<DebugProtocol.Variable[]> {
  const st = await dc.stackTraceRequest({ threadId: 1 });
  const frame = st.body.stackFrames.find((f) => frameName.test(f.name));
  if (!frame) throw new Error('frame not found');
  const scopes = await dc.scopesRequest({ frameId: frame.id });
  const scope = scopes.body.scopes.find((s) => s.name.startsWith(prefix));
  if (!scope) throw new Error(`no scope "${prefix}" in ${JSON.stringify(scopes.body.scopes.map((s) => s.name))}`);
  return (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
}

export async function child(dc: DebugClient, v: DebugProtocol.Variable | undefined, name: string): Promise<DebugProtocol.Variable> {
  if (!v) throw new Error(`no parent for ${name}`);
  const kids = (await dc.variablesRequest({ variablesReference: v.variablesReference })).body.variables;
  const k = kids.find((x) => x.name === name);
  if (!k) throw new Error(`no child "${name}" in ${JSON.stringify(kids.map((x) => x.name))}`);
  return k;
}

/** A KiteDebugSession with these options in this process, over a socket (for options a process cannot take). */
export async function inProcessSession(opts: KiteDebugSessionOptions): Promise<{ dc: DebugClient; session: () => KiteDebugSession; close: () => Promise<void> }> {
  let session: KiteDebugSession | null = null;
  const server: Server = createServer((socket) => {
    session = new KiteDebugSession(opts);
    session.setRunAsServer(true);
    session.start(socket, socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const dc = new DebugClient('node', '', 'kite');
  dc.defaultTimeout = 30_000;
  await dc.start((server.address() as AddressInfo).port);
  return {
    dc,
    session: () => {
      if (!session) throw new Error('no session yet');
      return session;
    },
    close: async () => {
      await dc.stop();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
