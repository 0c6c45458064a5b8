// What starting the replay adapter's process costs the extension host's event loop: VS Code
// spawning it on the loop (a DebugAdapterExecutable: spawn() returns only once the child has
// exec'd) against adapterSpawn.ts (a worker thread spawns it; the adapter serves a socket). The
// loop's block is the longest gap between its 1 ms ticks over each start. Measured on an idle
// machine and with busy neighbours in this process's scheduling group (two busy processes per
// core), interleaved. The issue-17 target it serves: no task over 50 ms on the host's loop while
// the debugger launches. Run: npx tsx test/bench/adapterStart.bench.ts [N=10]   (prints figures; never asserts timing)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { build } from 'esbuild';
import { join } from 'node:path';
import { adapterCommand, adapterEnvironment } from '../../src/harness/replay/adapterPlacement';
import { startAdapterProcess } from '../../src/harness/replay/adapterSpawn';

const N = Number(process.argv[2] ?? 10);
// Like a real extension host, this process holds a few hundred MB (spawn's fork copies its page tables).
const ballast = Array.from({ length: 300 }, () => Buffer.alloc(1 << 20, 1));

/** The longest gap between 1 ms ticks of this loop while `work` runs. */
async function loopBlock(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  worst = 0;
  last = performance.now();
  await work();
  await new Promise((r) => setTimeout(r, 20));
  clearInterval(timer);
  return worst;
}

async function main(): Promise<void> {
  const outdir = mkdtempSync(join(tmpdir(), 'kite-bench-adapter-'));
  await build({ entryPoints: { debugAdapter: 'src/harness/replay/debugAdapterLauncher.ts', debugAdapterMain: 'src/harness/replay/debugAdapterMain.ts' }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', outdir, logLevel: 'silent' });
  const { command, args } = adapterCommand(process.execPath, join(outdir, 'debugAdapter.js'));
  const env = { ...process.env, ...adapterEnvironment(undefined) };

  // As VS Code starts a DebugAdapterExecutable: spawn on this loop (stdio pipes, DAP over them).
  const onLoop = async () => {
    let child: ChildProcess | null = null;
    const ms = await loopBlock(async () => {
      child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    });
    (child as ChildProcess | null)?.kill();
    return ms;
  };
  // As the extension starts it now: off the loop, until it listens on its socket.
  const offLoop = async () => {
    let kill = () => undefined as void;
    const ms = await loopBlock(async () => {
      const a = await startAdapterProcess({ command, args, env });
      kill = a.kill;
    });
    kill();
    return ms;
  };

  // The same wait with nothing started: what the machine alone costs the loop's ticks.
  const nothing = () => loopBlock(() => new Promise((r) => setTimeout(r, 300)));

  const busy: ChildProcess[] = [];
  for (const load of ['idle', 'busy'] as const) {
    if (load === 'busy') for (let i = 0; i < 2 * cpus().length; i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < N; i++) {
      a.push(await onLoop());
      b.push(await offLoop());
      c.push(await nothing());
    }
    const fmt = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return `median ${s[Math.floor(s.length / 2)].toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms`;
    };
    console.log(`adapter start, ${load === 'idle' ? 'idle machine' : `${busy.length} busy processes beside it`} (n=${N}): the loop blocked by spawn on it ${fmt(a)}; started off the loop ${fmt(b)}; nothing started, 300 ms ${fmt(c)} (target: no task over 50 ms on the host's loop)`);
  }
  for (const p of busy) p.kill();
  void ballast;
}

void main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
