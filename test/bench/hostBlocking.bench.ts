// "The extension host is never blocked" (issue 17), measured in one Node process standing in for
// the extension host: the longest stretch its event loop was held (a 5 ms setInterval's drift,
// and perf_hooks.monitorEventLoopDelay's max) while, at the same time,
//   - a timeline loads a big log as the extension does it (openTimelineFeed: on a worker thread for a
//     big log, batches packed there; here the host indexes each batch's write facts, as timelineSession does),
//   - a run streams into another log at 50 events/s (EventWriter) and a second tailer follows it,
//   - the replay debugger opens the big log (openReplay + entry) and folds it in the background
//     (it runs inline in the extension host in VS Code).
//   - the extension builds the transcript documents VS Code asks for when the debugger stops on
//     entry (the first window of a huge log's transcript, then the next, as a step past its end
//     opens it: transcriptDocument.ts, in this loop as in the extension host).
// Target: no task longer than 50 ms. This is a bench, not the real VS Code integration run (the
// extension host's own work — webview posts, the editor — is not in it). Prints; asserts nothing.
//   npx tsx test/bench/hostBlocking.bench.ts [events]      (KITE_BENCH_LOG=<log> to reuse one)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { LogTailer } from '../../src/harness/events/logTailer';
import { EventWriter } from '../../src/harness/events/writer';
import { WriteIndex } from '../../src/harness/events/writeResolver';
import { openTimelineFeed, type FeedHandle } from '../../src/harness/events/timelineFeedThread';
import { adapterRunsOutOfProcess } from '../../src/harness/replay/adapterPlacement';
import { TRANSCRIPT_WINDOW_LINES, TRANSCRIPT_WINDOW_MIN_BYTES } from '../../src/harness/replay/debugSession';
import { openReplay } from '../../src/harness/replay/openReplay';
import { forgetIndexedLogs, transcriptDocumentText } from '../../src/harness/replay/transcriptDocument';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { adapterBundle } from '../dap/helpers';
import { ev, strip } from '../helpers/events';
import { writeLargeLog } from '../helpers/largeLog';

const N = Number(process.argv[2] ?? 100_000);
const WINDOW_S = Number(process.env.KITE_BENCH_WINDOW_S ?? 20);
// KITE_BENCH_ONLY=timeline|debugger|transcript: one load beside the stream, to see which one holds the loop.
const ONLY = process.env.KITE_BENCH_ONLY ?? '';
const withTimeline = ONLY === '' || ONLY === 'timeline';
const withDebugger = ONLY === '' || ONLY === 'debugger';
const withTranscript = ONLY === '' || ONLY === 'transcript';
const SHOW_GAPS = process.env.KITE_BENCH_GAPS === '1';

/** The longest gaps between ticks of a 5 ms interval, minus the interval: tasks that held the loop. */
function driftMonitor(): { stop(): number[] } {
  const gaps: number[] = [];
  let last = performance.now();
  const t = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last - 5);
    // KITE_BENCH_GAPS=1: where each long gap was on the monotonic clock a --cpu-prof profile uses (µs).
    if (SHOW_GAPS && now - last - 5 > 40) console.log(`gap ${(now - last - 5).toFixed(0)} ms: profile µs ${Number(process.hrtime.bigint() / 1000n) - Math.round((now - last) * 1000)}..${Number(process.hrtime.bigint() / 1000n)}`);
    last = now;
  }, 5);
  return {
    stop: () => {
      clearInterval(t);
      return gaps.sort((a, b) => b - a);
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kite-host-bench-'));
  try {
    const given = process.env.KITE_BENCH_LOG;
    const big = given ?? join(dir, 'big-run.jsonl');
    if (!given) writeLargeLog(big, N);
    const hist = monitorEventLoopDelay({ resolution: 5 });
    hist.enable();
    const drift = driftMonitor();
    const t0 = performance.now();
    const deadline = t0 + WINDOW_S * 1000;

    // The timeline loading the big log.
    let timelineEvents = 0;
    const writes = new WriteIndex();
    let timelineDone = -1;
    const timeline: FeedHandle | null = withTimeline
      ? openTimelineFeed({ log: big, source: { log: big, title: 'big-run', live: false } }, (r) => {
          if (r.type !== 'batch') return;
          for (const f of r.writes) writes.addFact(f);
          timelineEvents += r.events;
          if (r.initial && r.done && timelineDone < 0) timelineDone = performance.now() - t0;
        })
      : null;

    // A run streaming at 50 events/s, followed by a second tailer (its live timeline).
    const writer = EventWriter.create(dir, 'live-run', () => performance.now() - t0);
    writer.append(strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })));
    let followed = 0;
    const live = new LogTailer(writer.path, (e) => {
      if (e.type === 'batch') followed += e.batch.events.length;
    }, { pollMs: 100 });
    void live.start();
    let streamed = 0;
    const stream = setInterval(() => {
      writer.append(strip(ev.user({ text: `streamed event ${streamed++}` })));
    }, 20);

    // The debugger launching on the big log where VS Code runs it (adapterPlacement.ts): inline in
    // this loop for an ordinary log (stop on entry after the first chunk, then the index and the
    // fold in the background), in its own process for a big one — the extension host then only
    // carries the DAP messages, as here.
    const tl = performance.now();
    const outOfProcess = withDebugger && adapterRunsOutOfProcess('recorded', big);
    const opened = withDebugger && !outOfProcess ? await openReplay(big, { incremental: {} }) : null;
    opened?.runtime.entry();
    const adapter = outOfProcess ? await launchAdapterProcess(big) : null;
    const launchMs = performance.now() - tl;
    const warming = { cancelled: false };
    const warm = opened?.runtime.warm(warming); // waits for the index, then folds

    // The transcript documents of the stop on entry: the first window (or the whole text of a
    // small log), then the next one.
    let transcriptMs = -1;
    const transcript = withTranscript ? buildTranscriptDocuments(big).then((ms) => (transcriptMs = ms)) : Promise.resolve();

    while (performance.now() < deadline && ((withTimeline && timelineDone < 0) || (withTranscript && transcriptMs < 0))) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(2000, deadline - performance.now()))));
    warming.cancelled = true;
    clearInterval(stream);
    const gaps = drift.stop();
    hist.disable();
    timeline?.dispose();
    live.dispose();
    await Promise.allSettled([warm, adapter?.stop(), transcript]);
    forgetIndexedLogs();
    opened?.lazy?.close();
    const window = (performance.now() - t0) / 1000;
    console.log(`${ONLY ? `only the ${ONLY} beside the stream; ` : ''}measured ${window.toFixed(1)} s: timeline ${timelineEvents} of the log's events${timelineDone >= 0 ? ` loaded in ${(timelineDone / 1000).toFixed(1)} s` : ' (not finished in the window)'}, ${streamed} events streamed at 50/s (${followed} followed), debugger launch to entry ${launchMs.toFixed(0)} ms (${!withDebugger ? 'no debugger' : outOfProcess ? 'adapter in its own process, as VS Code runs it for a log over 16 MB' : 'adapter inline, as VS Code runs it for a smaller log'}), transcript documents ${!withTranscript ? 'not built' : transcriptMs >= 0 ? `built in ${(transcriptMs / 1000).toFixed(1)} s` : 'not finished in the window'}`);
    console.log(`longest task on the event loop (5 ms interval drift): ${gaps[0]?.toFixed(0) ?? 0} ms (target <= 50 ms); next longest ${gaps.slice(1, 5).map((g) => g.toFixed(0)).join(', ')} ms; ${gaps.filter((g) => g > 50).length} tasks over 50 ms`);
    console.log(`event loop delay (monitorEventLoopDelay): max ${(hist.max / 1e6).toFixed(0)} ms, p99 ${(hist.percentile(99) / 1e6).toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the transcript documents of a stop on entry as the extension does: the first window and
 *  the next for a huge log, the whole text otherwise. Resolves with the time it took. */
async function buildTranscriptDocuments(log: string): Promise<number> {
  const t = performance.now();
  if (statSync(log).size > TRANSCRIPT_WINDOW_MIN_BYTES) {
    await transcriptDocumentText(log, { from: 1, to: TRANSCRIPT_WINDOW_LINES });
    await transcriptDocumentText(log, { from: TRANSCRIPT_WINDOW_LINES + 1, to: 2 * TRANSCRIPT_WINDOW_LINES });
  } else await transcriptDocumentText(log);
  return performance.now() - t;
}

/** The stand-alone adapter on `log`, launched and stopped on entry over DAP (stdio). */
async function launchAdapterProcess(log: string): Promise<DebugClient> {
  const dc = new DebugClient(process.execPath, await adapterBundle(), 'kite');
  dc.defaultTimeout = 120_000;
  await dc.start();
  await dc.initializeRequest();
  const stopped = dc.waitForEvent('stopped', 120_000);
  const init = dc.waitForEvent('initialized', 120_000).then(() => dc.configurationDoneRequest());
  await Promise.all([dc.launchRequest({ log } as DebugProtocol.LaunchRequestArguments), init]);
  await stopped;
  await dc.stackTraceRequest({ threadId: 1 });
  return dc;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
