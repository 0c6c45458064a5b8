// Benchmark of the timeline on a 100,000-event log (~100 MB), in Debian's headless Chromium with
// the real page and the messages the extension posts (TimelineFeed: batches of trimmed events,
// packed and deflated). Prints figures; asserts nothing.
//   npx tsx test/bench/timeline.bench.ts [events]
//   KITE_BENCH_LOG=/tmp/1m.jsonl npx tsx test/bench/timeline.bench.ts   (a given log, read only: the
//   append-latency figure, which writes to the log, is then measured on a small log of its own)
//   KITE_BENCH_CPU_PROF=FILE (a CPU profile of the page applying the history), KITE_BENCH_TRACE=FILE
//   (a Chrome trace of the scrolling), KITE_BENCH_TRACE_APPEND=FILE (of the appends);
//   KITE_WEBVIEW_UNMINIFIED=1 keeps the page's function names in them.
// Figures (targets): extension read of the log; time to first rows after the first message
// arrives (<= 500 ms); whole history loaded; scrolling frame times (virtualized list); page memory;
// one appended event in a 100,000-event view, to applied and to the next frame (<= 16 ms);
// file append -> tailer batch latency (<= 100 ms).
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { LogTailer } from '../../src/harness/events/logTailer';
import { LIVE_GATHER_MS, TimelineFeed } from '../../src/harness/events/timelineFeed';
import type { FeedReport } from '../../src/harness/protocol/timelineFeedMessages';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { VIEW_DATA_FRAME_MS } from '../../src/harness/protocol/webviewMessages';
import { ev } from '../helpers/events';
import { writeLargeLog } from '../helpers/largeLog';
import { RESULTS, launchChromium, openTimeline } from '../e2e/helpers/timelinePage';

const GIVEN = process.env.KITE_BENCH_LOG;
let N = Number(process.argv[2] ?? 100_000);
/** Messages staged in the page at a time (staging is not timed: in VS Code they arrive over IPC).
 *  All at once up to 200 MB of messages; beyond (1M events) 50 at a time, which makes "all
 *  applied" slower: the page then also collects the staged copies while it applies. */
const STAGE_ENV = process.env.KITE_BENCH_STAGE;

/** Saves a heap snapshot of the page (KITE_BENCH_HEAP=FILE) to see what is still per event. */
async function writeHeapSnapshot(cdp: CDPSession, file: string): Promise<void> {
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (p: { chunk: string }) => chunks.push(p.chunk));
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  writeFileSync(file, chunks.join(''));
  console.log(`heap snapshot: ${file}`);
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
const stats = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms  max ${Math.max(...xs).toFixed(2)} ms  (n=${xs.length})`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kite-tl-bench-'));
  const log = join(dir, '20260301-101500-F9.jsonl');
  try {
    let t = performance.now();
    const bigLog = GIVEN ?? log;
    const info = GIVEN ? { bytes: statSync(GIVEN).size } : writeLargeLog(log, N);
    console.log(GIVEN ? `log: ${GIVEN} (${mb(info.bytes)}, given)` : `log: ${N} events, ${mb(info.bytes)} (written in ${(performance.now() - t).toFixed(0)} ms)`);

    // Extension side: the messages TimelineSession posts, from the same reader (TimelineFeed: the
    // history in batches, far history cut to rows, each batch packed and deflated).
    t = performance.now();
    /** Each message's deflated bytes, base64 (to stage them in the page). */
    const messages: string[] = [];
    /** Events in messages[0..i], for "the page applied this slice". */
    const upTo: number[] = [];
    let events = 0;
    let rowsOnlyEvents = 0;
    let jsonBytes = 0;
    let firstBatchMs = 0;
    let deflatedBytes = 0;
    await new Promise<void>((resolve, reject) => {
      const feed = new TimelineFeed({ log: bigLog, source: { log: bigLog, title: 'bench', live: true } }, (r: FeedReport) => {
        if (r.type !== 'batch') return reject(new Error(r.type === 'error' ? r.message : r.type));
        if (messages.length === 0) firstBatchMs = performance.now() - t;
        const bytes = Buffer.from(r.message.json);
        deflatedBytes += bytes.length;
        messages.push(bytes.toString('base64'));
        events += r.events;
        upTo.push(events);
        // What the page will inflate (counted here, not timed: the page's own inflating is).
        const json = inflateRawSync(bytes);
        jsonBytes += json.length;
        if ((JSON.parse(json.toString('utf8')) as { rowsOnly?: boolean }).rowsOnly) rowsOnlyEvents += r.events;
        if (r.done) {
          feed.dispose();
          resolve();
        }
      });
      feed.start().catch(reject);
    });
    const readMs = performance.now() - t;
    N = events;
    const payload = messages.reduce((s, m) => s + m.length, 0);
    const STAGE = STAGE_ENV ? Number(STAGE_ENV) : payload <= 200 * 1024 * 1024 ? messages.length : 50;
    console.log(`extension: first batch ready ${firstBatchMs.toFixed(0)} ms, whole log read, trimmed, packed and deflated ${readMs.toFixed(0)} ms (the read counted in it), ${messages.length} messages, ${mb(deflatedBytes)} posted in all (${mb(jsonBytes)} of JSON deflated; log ${mb(info.bytes)}; ${rowsOnlyEvents} events as rows only); staged in the page ${STAGE} messages at a time`);

    const browser = await launchChromium();
    try {
      const tp = await openTimeline(browser, { theme: 'dark', width: 1280, height: 900 });
      const cdp = await tp.page.context().newCDPSession(tp.page);
      // Stage STAGE messages at a time in the page (not timed: in VS Code they arrive over its IPC),
      // then post them and time until the page applied them; the sum over all slices is "all applied".
      const stage = async (from: number) => {
        await tp.page.evaluate(() => ((window as unknown as { __bench: unknown[] }).__bench = []));
        for (const m of messages.slice(from, from + STAGE)) {
          await tp.page.evaluate((b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            (window as unknown as { __bench: unknown[] }).__bench.push({ type: 'packed', deflated: true, json: bytes.buffer });
          }, m);
        }
      };
      await stage(0);
      // KITE_BENCH_CPU_PROF=FILE: a CPU profile of the page while it applies the history (.cpuprofile).
      const loadProfile = process.env.KITE_BENCH_CPU_PROF;
      if (loadProfile) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const load = { firstRows: 0, all: 0, painted: 0 };
      for (let from = 0; from < messages.length; from += STAGE) {
        if (from > 0) await stage(from);
        const step = await tp.page.evaluate(async ({ first, upTo, dataFrameMs }) => {
          const w = window as unknown as { __bench: unknown[]; __onPost?: (m: { type: string; events?: number }) => void };
          const frame = () => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
          const t0 = performance.now();
          let all = 0;
          const applied = new Promise<void>((r) => {
            w.__onPost = (m) => {
              if (m.type === 'applied' && m.events === upTo) {
                all = performance.now() - t0;
                r();
              }
            };
          });
          let firstRows = 0;
          let i = 0;
          if (first) {
            window.postMessage(w.__bench[i++], '*');
            // First rows: the handler renders the visible window at once; wait for the frame that paints it.
            await new Promise<void>((r) => {
              const check = () => (document.querySelector('.row') ? r() : requestAnimationFrame(check));
              check();
            });
            firstRows = (await frame()) - t0;
          }
          for (; i < w.__bench.length; i++) window.postMessage(w.__bench[i], '*');
          await applied;
          // The last rows reach the screen at the page's next data frame (VIEW_DATA_FRAME_MS).
          await new Promise((r) => setTimeout(r, dataFrameMs + 1));
          const painted = (await frame()) - t0;
          w.__bench = [];
          return { firstRows, all, painted };
        }, { first: from === 0, upTo: upTo[Math.min(messages.length, from + STAGE) - 1] as number, dataFrameMs: VIEW_DATA_FRAME_MS });
        if (from === 0) load.firstRows = step.firstRows;
        load.all += step.all;
        load.painted += step.painted;
      }
      if (loadProfile) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
        writeFileSync(loadProfile, JSON.stringify(profile));
        console.log(`page CPU profile of the load: ${loadProfile}`);
      }
      const shown = await tp.page.textContent('#count');
      if (shown !== `${N.toLocaleString('en-US')} events`) throw new Error(`the page shows "${shown}", not all ${N} events`);
      await tp.page.screenshot({ path: join(RESULTS, `timeline-${N}.png`) });
      console.log(`page: first rows ${load.firstRows.toFixed(0)} ms after the first message (target <= 500 ms); all ${N} events applied ${load.all.toFixed(0)} ms, painted ${load.painted.toFixed(0)} ms`);

      // KITE_BENCH_TRACE=FILE: a Chrome trace of the scrolling (open it in DevTools' Performance panel).
      const trace: unknown[] = [];
      if (process.env.KITE_BENCH_TRACE) {
        cdp.on('Tracing.dataCollected', (p: { value: unknown[] }) => trace.push(...p.value));
        await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
      }
      const scroll = await tp.page.evaluate(async () => {
        const list = document.getElementById('list') as HTMLElement;
        const frames: number[] = [];
        // The list's own work per frame (its render of the visible window), apart from vsync waits.
        const view = (window as unknown as { kiteTimeline: { list: { render(inFrame?: boolean): void } } }).kiteTimeline.list;
        const renders: number[] = [];
        const render = view.render.bind(view);
        view.render = (inFrame?: boolean) => {
          const t0 = performance.now();
          render(inFrame);
          renders.push(performance.now() - t0);
        };
        // The page's own work in a frame: from the frame's start (the rAF timestamp) to the first task
        // after it (a message posted from the frame's last rAF callback runs once style, layout and
        // paint are done). The frame interval (rAF deltas) cannot go below the 16.7 ms vsync.
        const work: number[] = [];
        const channel = new MessageChannel();
        let frameStart = 0;
        channel.port1.onmessage = () => work.push(performance.now() - frameStart);
        const run = (step: (i: number) => void, n: number) =>
          new Promise<void>((resolve) => {
            let last = performance.now();
            let i = 0;
            const tick = (now: number) => {
              frames.push(now - last);
              last = now;
              frameStart = now;
              channel.port2.postMessage(0);
              if (i++ >= n) return resolve();
              step(i);
              requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          });
        const max = list.scrollHeight - list.clientHeight;
        await run((i) => (list.scrollTop = i * 60), 240); // steady wheel-like scrolling
        const steady = frames.splice(0);
        await new Promise((r) => setTimeout(r, 50)); // the last frame's message
        const steadyWork = work.splice(0);
        performance.mark('kite-jumps-start');
        await run((i) => (list.scrollTop = ((i * 7919) % 1000) / 1000 * max), 120); // jumps across the whole log
        performance.mark('kite-jumps-end');
        const jumps = frames.splice(0);
        await new Promise((r) => setTimeout(r, 50)); // the last frame's message
        const jumpsWork = work.splice(0);
        view.render = render;
        return { steady: steady.slice(1), jumps: jumps.slice(1), steadyWork: steadyWork.slice(1), jumpsWork: jumpsWork.slice(1), renders, rows: document.querySelectorAll('.row').length, nodes: document.getElementsByTagName('*').length };
      });
      if (process.env.KITE_BENCH_TRACE) {
        const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
        await cdp.send('Tracing.end');
        await done;
        writeFileSync(process.env.KITE_BENCH_TRACE, JSON.stringify({ traceEvents: trace }));
        console.log(`trace: ${process.env.KITE_BENCH_TRACE}`);
      }
      console.log(`scroll, steady (60 px/frame): frame time ${stats(scroll.steady)} (target <= 16 ms); frames > 20 ms: ${scroll.steady.filter((x) => x > 20).length}`);
      console.log(`scroll, jumps across the log: frame time ${stats(scroll.jumps)} (target <= 16 ms); frames > 20 ms: ${scroll.jumps.filter((x) => x > 20).length}`);
      console.log(`scroll, steady: page work per frame (frame start to the first task after paint) ${stats(scroll.steadyWork)}`);
      console.log(`scroll, jumps: page work per frame ${stats(scroll.jumpsWork)}`);
      console.log(`scroll: the list's render of the visible window ${stats(scroll.renders)} (its share of a 16 ms frame; headless Chromium without a GPU paces frames itself)`);
      console.log(`DOM: ${scroll.rows} row elements for ${N} rows, ${scroll.nodes} elements in the page`);

      // Filters over all rows: a search (the summaries' text, chunk by chunk) and errors only.
      const filters = await tp.page.evaluate(async () => {
        const count = () => document.getElementById('count')?.textContent ?? '';
        const changed = (before: string) =>
          new Promise<void>((resolve, reject) => {
            const give = performance.now() + 20_000;
            const check = () => {
              if (count() !== before) resolve();
              else if (performance.now() > give) reject(new Error(`the count stayed "${before}"`));
              else requestAnimationFrame(check);
            };
            check();
          });
        const search = document.getElementById('search') as HTMLElement & { value: string };
        const timeSearch = async (text: string) => {
          const before = count();
          const t0 = performance.now();
          search.value = text;
          search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
          await changed(before);
          return { ms: performance.now() - t0, count: count() };
        };
        const first = await timeSearch('case1235');
        const second = await timeSearch('module_7');
        const cleared = await timeSearch('');
        const box = document.getElementById('errors-only') as HTMLElement & { checked: boolean };
        const toggle = () => {
          box.checked = !box.checked;
          box.dispatchEvent(new Event('change'));
        };
        let before = count();
        let t0 = performance.now();
        toggle();
        await changed(before);
        const errors = { ms: performance.now() - t0, count: count() };
        before = count();
        t0 = performance.now();
        toggle();
        await changed(before);
        return { first, second, cleared, errors };
      });
      console.log(`filter ${N} rows: search "case1235" ${filters.first.ms.toFixed(0)} ms (${filters.first.count}), "module_7" ${filters.second.ms.toFixed(0)} ms (${filters.second.count}), clear ${filters.cleared.ms.toFixed(0)} ms; errors only ${filters.errors.ms.toFixed(0)} ms (${filters.errors.count})`);

      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
      const metrics = (await cdp.send('Performance.enable').then(() => cdp.send('Performance.getMetrics'))) as { metrics: { name: string; value: number }[] };
      const m = (name: string) => metrics.metrics.find((x) => x.name === name)?.value ?? NaN;
      if (process.env.KITE_BENCH_HEAP) await writeHeapSnapshot(cdp, process.env.KITE_BENCH_HEAP);
      // The row columns are typed arrays, outside the JS heap's count: add them.
      const columns = (await tp.page.evaluate(() => (window as unknown as { kiteTimeline: { store: { rowBytes: number } } }).kiteTimeline.store.rowBytes)) as number;
      const total = heap.usedSize + columns;
      console.log(`memory: JS heap used ${mb(heap.usedSize)} (total ${mb(heap.totalSize)}) after GC + row columns ${mb(columns)} = ${mb(total)} for ${N} events (target <= 150 MB at 1M); DOM nodes ${m('Nodes')}; ${(total / N).toFixed(0)} bytes per event`);

      // One appended event in the full view, following the end (as during a live run).
      const appends: KiteEvent[] = [];
      for (let i = 0; i < 60; i++) {
        const seq = N + i;
        appends.push(i % 2 === 0 ? { ...ev.model({ turn: 90_000 + i }), seq, run: 'bench', t: 99_999 } : { ...ev.tool({ ms: 40 }), seq, run: 'bench', t: 99_999 });
      }
      await tp.page.evaluate(() => {
        const list = document.getElementById('list') as HTMLElement;
        list.scrollTop = list.scrollHeight;
      });
      // KITE_BENCH_TRACE_APPEND=FILE: a Chrome trace of the appends (what the frame that draws one does).
      const appendTrace: unknown[] = [];
      const traceAppend = process.env.KITE_BENCH_TRACE_APPEND;
      if (traceAppend) {
        cdp.on('Tracing.dataCollected', (p: { value: unknown[] }) => appendTrace.push(...p.value));
        await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,disabled-by-default-devtools.timeline,disabled-by-default-v8.cpu_profiler', transferMode: 'ReportEvents' });
      }
      const app = await tp.page.evaluate(async (evs) => {
        const w = window as unknown as { __onPost?: (m: { type: string }) => void };
        const applied: number[] = [];
        const onScreen: number[] = [];
        const work: number[] = [];
        // The page's work in the frame that draws the event: from the frame's start (the rAF
        // timestamp) to the first task after it (style, layout and paint done), as for scrolling.
        const channel = new MessageChannel();
        let frameStart = 0;
        let measured: ((ms: number) => void) | null = null;
        channel.port1.onmessage = () => measured?.(performance.now() - frameStart);
        for (const e of evs) {
          const t0 = performance.now();
          const done = new Promise<void>((r) => {
            w.__onPost = (m) => {
              if (m.type === 'applied') {
                applied.push(performance.now() - t0);
                r();
              }
            };
          });
          window.postMessage({ type: 'append', events: [e], problems: [], loading: false }, '*');
          await done;
          // Appended events reach the screen at the page's next data frame (VIEW_DATA_FRAME_MS).
          // Each frame until then: the first task after it finds the row drawn, or waits for the next.
          await new Promise<void>((r) => {
            const check = (now: number) => {
              frameStart = now;
              measured = (ms) => {
                if (!document.querySelector(`.row[data-seq="${e.seq}"]`)) return void requestAnimationFrame(check);
                measured = null;
                work.push(ms);
                onScreen.push(performance.now() - t0);
                r();
              };
              channel.port2.postMessage(0);
            };
            requestAnimationFrame(check);
          });
          await new Promise<void>((r) => setTimeout(r, 5));
        }
        const l = document.getElementById('list') as HTMLElement;
        return { applied, onScreen, work, pinned: l.scrollTop + l.clientHeight >= l.scrollHeight - 30 };
      }, appends);
      await tp.waitForEvents(N + appends.length);
      if (traceAppend) {
        const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
        await cdp.send('Tracing.end');
        await done;
        writeFileSync(traceAppend, JSON.stringify({ traceEvents: appendTrace }));
        console.log(`append trace: ${traceAppend}`);
      }
      console.log(`append 1 event to a ${N}-event view: to applied ${stats(app.applied)}`);
      console.log(`append 1 event to a ${N}-event view: page work in the frame that draws it ${stats(app.work)} (target <= 16 ms); on screen after ${stats(app.onScreen)} (appended events are drawn every ${VIEW_DATA_FRAME_MS} ms); list still pinned to the end: ${app.pinned}`);
      await tp.close();
    } finally {
      await browser.close();
    }

    // File append -> tailer batch, on the benchmark's file (what "within 100 ms" rests on); a given
    // log is never written to: a small one of our own then.
    if (GIVEN) writeLargeLog(log, 1000);
    const lat: number[] = [];
    let resolveNext: (() => void) | null = null;
    const tailer = new LogTailer(log, (e) => {
      if (e.type === 'batch' && !e.batch.initial && e.batch.events.length) resolveNext?.();
    }, { pollMs: 0, gatherMs: LIVE_GATHER_MS });
    await tailer.start();
    // fs.watch here is not persistent (the extension host lives on anyway): keep this process up.
    const keepAlive = setInterval(() => undefined, 1000);
    for (let i = 0; i < 50; i++) {
      const line = JSON.stringify({ ...ev.warning({ message: `bench ${i}` }), seq: N + 1000 + i, run: 'bench', t: 99_999 }) + '\n';
      const got = new Promise<void>((r) => (resolveNext = r));
      const t0 = performance.now();
      appendFileSync(log, line);
      await got;
      lat.push(performance.now() - t0);
    }
    tailer.dispose();
    clearInterval(keepAlive);
    console.log(`tail: appended line -> parsed batch (fs.watch, appends gathered over ${LIVE_GATHER_MS} ms as the view reads them) ${stats(lat)} (target <= 100 ms)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
