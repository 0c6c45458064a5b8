// Benchmark of the replay debugger on a 100,000-event log (~100 MB): launch-to-entry time and
// step / stepBack latency (p50/p95), through the runtime directly and over DAP (stdio, the
// stand-alone adapter). Targets (issue 17): launch -> first stopped <= 500 ms at 100k events,
// <= 3 s at 1M; step and stepBack p95 <= 20 ms; "Run state (reducer)" p95 <= 50 ms. Prints
// figures with their targets; asserts nothing.
//   npx tsx test/bench/dap.bench.ts [events]       (1000000 for the 1M figures: ~1 GB in the temp dir)
//   KITE_BENCH_LOG=<file> ...                      reuse a log written earlier (writing 1M events takes minutes)
//   KITE_BENCH_PART=dap (or runtime) ...           only the figures over DAP (or only the runtime's)
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openReplay } from '../../src/harness/replay/openReplay';
import { gateView, replyView, toolView, totalsView } from '../../src/harness/replay/scope';
import { transcriptText } from '../../src/harness/replay/transcript';
import { writeLargeLog } from '../helpers/largeLog';
import { adapterBundle } from '../dap/helpers';

const N = Number(process.argv[2] ?? 100_000);
const LAUNCH_TARGET = N <= 100_000 ? '(target <= 500 ms at 100k events)' : '(target <= 3000 ms at 1M events)';
const STEPS = 300;

/** Heap in use after a full GC (run under `node --expose-gc`, as `npm run bench` does). */
function heapMB(): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return 'n/a (no --expose-gc)';
  gc();
  return `${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms  max ${Math.max(...xs).toFixed(2)} ms  (n=${xs.length})`;

/** Deterministic positions spread over the whole log. */
function positions(n: number, count: number): number[] {
  const out: number[] = [];
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(1 + (x % (n - 2)));
  }
  return out;
}

async function direct(log: string): Promise<void> {
  // As the debugger opens it: entry after the first indexed chunk, the rest indexed in the background.
  let t0 = performance.now();
  const inc = await openReplay(log, { incremental: {} });
  inc.runtime.entry();
  const first = performance.now() - t0;
  await inc.runtime.whenIndexed(() => false);
  console.log(`runtime: incremental open + entry (first chunk indexed): ${first.toFixed(0)} ms ${LAUNCH_TARGET}; the whole index, in the background: ${(performance.now() - t0).toFixed(0)} ms (heap ${heapMB()})`);
  inc.lazy?.close();
  t0 = performance.now();
  const { runtime: rt } = await openReplay(log);
  rt.entry();
  const launch = performance.now() - t0;
  console.log(`runtime: open indexing the whole log first (line scan + index + transcript lines) + entry: ${launch.toFixed(0)} ms ${LAUNCH_TARGET} (heap ${heapMB()}; ${rt.length} events, ${rt.transcript.lineCount} transcript lines)`);
  let tw = performance.now();
  transcriptText(rt.transcript);
  console.log(`runtime: the whole transcript text (what a client asking for the source gets; parses every event): ${(performance.now() - tw).toFixed(0)} ms`);
  tw = performance.now();
  await rt.warm();
  console.log(`runtime: background fold of the whole log with snapshots: ${(performance.now() - tw).toFixed(0)} ms; cursor ${JSON.stringify(rt.cursorStats)}; heap after it ${heapMB()}`);
  // What a client asks after every stop: the frame views and the totals from the reducer fold.
  const inspect = (i: number) => {
    replyView(rt.index, i);
    toolView(rt.index, i);
    gateView(rt.index, i);
    totalsView(rt.index, i);
  };
  // Expanding "Messages sent this turn" (from the folded conversation) and "Run state" (the
  // reducer's state at that moment: nearest snapshot, cloned, plus at most `every` events).
  const msgs: number[] = [];
  const states: number[] = [];
  for (const p of positions(rt.length, 100)) {
    let t = performance.now();
    rt.messagesFor(p);
    msgs.push(performance.now() - t);
    t = performance.now();
    rt.stateAfter(p);
    states.push(performance.now() - t);
  }
  console.log(`runtime Messages scope at a random turn ${fmt(msgs)}`);
  console.log(`runtime Run state (reducer) at a random event: snapshot clone + fold ${fmt(states)} (target p95 <= 50 ms)`);
  const fwd: number[] = [];
  const back: number[] = [];
  const jumps: number[] = [];
  for (const p of positions(rt.length, STEPS)) {
    let t = performance.now();
    rt.goto(p);
    inspect(p);
    jumps.push(performance.now() - t);
    t = performance.now();
    inspect(rt.stepIn().index);
    fwd.push(performance.now() - t);
    t = performance.now();
    inspect(rt.stepBack().index);
    back.push(performance.now() - t);
    t = performance.now();
    inspect(rt.stepBack().index);
    back.push(performance.now() - t);
  }
  console.log(`runtime stepIn   ${fmt(fwd)} (target p95 <= 20 ms)`);
  console.log(`runtime stepBack ${fmt(back)} (target p95 <= 20 ms)`);
  console.log(`runtime goto (random position, incl. state fold) ${fmt(jumps)}`);
  let t = performance.now();
  rt.goto(0);
  rt.setExceptionFilters(['divergence']); // none in this log: a full scan
  rt.continue();
  console.log(`runtime continue over the whole log (no stop): ${(performance.now() - t).toFixed(1)} ms`);
  rt.setLineBreakpoints([{ line: rt.transcript.lineCount - 1, condition: 'tokens > 1 && tool.name == "run"' }]);
  t = performance.now();
  rt.reverseContinue();
  console.log(`runtime reverseContinue over the whole log (no stop): ${(performance.now() - t).toFixed(1)} ms; cursor ${JSON.stringify(rt.cursorStats)}`);
}

async function overDap(log: string): Promise<void> {
  const dc = new DebugClient(process.execPath, await adapterBundle(), 'kite');
  dc.defaultTimeout = 120_000;
  await dc.start();
  try {
    // The adapter process starting (loading its bundle) is timed apart: the target is launch -> stopped.
    let t0 = performance.now();
    await dc.initializeRequest();
    const initMs = performance.now() - t0;
    t0 = performance.now();
    const ready_ = new Promise((resolve) => dc.on('output', (e) => (e.body as { data?: { kind?: string } }).data?.kind === 'snapshotsReady' && resolve(e)));
    const stopped = dc.waitForEvent('stopped', 120_000);
    const init = dc.waitForEvent('initialized', 120_000).then(() => dc.configurationDoneRequest());
    await Promise.all([dc.launchRequest({ log } as DebugProtocol.LaunchRequestArguments), init]);
    await stopped;
    await dc.stackTraceRequest({ threadId: 1 });
    console.log(`DAP: launch request to stopped on entry + first stackTrace: ${(performance.now() - t0).toFixed(0)} ms ${LAUNCH_TARGET} (before it: adapter process start + initialize ${initMs.toFixed(0)} ms)`);
    // One step as VS Code does it: request -> stopped -> stackTrace -> scopes -> first scope's variables.
    const roundTrip = async (req: () => Promise<unknown>) => {
      const t = performance.now();
      const s = dc.waitForEvent('stopped');
      await req();
      await s;
      const frames = await dc.stackTraceRequest({ threadId: 1 });
      const ev = frames.body.stackFrames.find((f) => f.name.startsWith('#')) ?? frames.body.stackFrames[0];
      const scopes = await dc.scopesRequest({ frameId: ev.id });
      await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
      const totals = scopes.body.scopes.find((x) => x.name === 'Totals');
      if (totals) await dc.variablesRequest({ variablesReference: totals.variablesReference });
      return performance.now() - t;
    };
    const phase = async (label: string, n: number) => {
      const fwd: number[] = [];
      const back: number[] = [];
      const jumps: number[] = [];
      for (const p of positions(N, n)) {
        // A goto target is the event's index + 1 (what gotoTargets answers for its transcript line).
        // Not gotoTargets on line p + 3 of the first frame's source: a log this big is shown in
        // transcript windows, and a line means something only in the window the client shows.
        jumps.push(await roundTrip(() => dc.gotoRequest({ threadId: 1, targetId: p + 1 })));
        fwd.push(await roundTrip(() => dc.stepInRequest({ threadId: 1 })));
        back.push(await roundTrip(() => dc.stepBackRequest({ threadId: 1 })));
        back.push(await roundTrip(() => dc.stepBackRequest({ threadId: 1 })));
      }
      console.log(`DAP ${label} stepIn   (request→stopped→stackTrace→scopes→variables) ${fmt(fwd)} (target p95 <= 20 ms)`);
      console.log(`DAP ${label} stepBack (same round trip) ${fmt(back)} (target p95 <= 20 ms)`);
      console.log(`DAP ${label} goto     (same round trip) ${fmt(jumps)}`);
    };
    // The adapter folds the run in the background after entry; steps are answered meanwhile.
    await phase('during background fold:', 40);
    const ready = (await ready_) as { body: { data?: { ms?: number; snapshots?: number } } };
    console.log(`DAP: background fold finished ${ready.body.data?.ms} ms after entry (${ready.body.data?.snapshots} snapshots)`);
    await phase('after fold:', 120);
    await dc.disconnectRequest({});
  } finally {
    await dc.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kite-dap-bench-'));
  try {
    // KITE_BENCH_LOG: a log made earlier with test/bench/genLog.ts (a 1M-event log takes a while to write).
    const given = process.env.KITE_BENCH_LOG;
    const log = given ?? join(dir, 'bench-run.jsonl');
    let t = performance.now();
    if (given) console.log(`log: ${given} (${(statSync(given).size / 1e6).toFixed(1)} MB, given by KITE_BENCH_LOG)`);
    else {
      const info = writeLargeLog(log, N);
      console.log(`log: ${info.events} events, ${(info.bytes / 1e6).toFixed(1)} MB, written in ${(performance.now() - t).toFixed(0)} ms`);
    }
    t = performance.now();
    await adapterBundle();
    console.log(`adapter bundle built in ${(performance.now() - t).toFixed(0)} ms`);
    // KITE_BENCH_PART=runtime or =dap: only that half (the runtime half takes minutes at 1M events).
    const part = process.env.KITE_BENCH_PART;
    if (part !== 'dap') await direct(log);
    if (part !== 'runtime') await overDap(log);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
