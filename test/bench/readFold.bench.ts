// Read + fold benchmark: generates a 100,000-event (~100 MB) log in a temp dir, then streams it
// through the reader and the reducer. Prints events/s and memory; never asserts on timing.
//   npx tsx test/bench/readFold.bench.ts [events]        (node --expose-gc --import tsx … for heap after GC)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamLog } from '../../src/harness/events/reader';
import { applyEvent, initialRunState } from '../../src/harness/protocol/reducer';
import { writeLargeLog } from '../helpers/largeLog';

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const gc = (globalThis as { gc?: () => void }).gc;

async function measure(path: string, conversation: boolean): Promise<{ ms: number; events: number; peakRss: number; heapAfter: number | null }> {
  gc?.();
  const state = initialRunState({ conversation });
  let peakRss = process.memoryUsage.rss();
  // Sampled both on a timer and every 1,000 events (the loop is synchronous between chunks).
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 10);
  let n = 0;
  const t0 = performance.now();
  const r = await streamLog(path, (e) => {
    applyEvent(state, e);
    if (++n % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  });
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (r.problems.length) throw new Error(`unexpected problems: ${JSON.stringify(r.problems.slice(0, 3))}`);
  gc?.();
  const heapAfter = gc ? process.memoryUsage().heapUsed : null;
  if (state.turns === 0) throw new Error('fold saw no turns');
  return { ms, events: r.count, peakRss, heapAfter };
}

/** Measured in a fresh child process so the baseline is not inflated by generating the log. */
async function measureAll(path: string, bytes: number, conversation: boolean): Promise<void> {
  gc?.();
  const baseRss = process.memoryUsage.rss();
  {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await measure(path, conversation));
    const best = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
    const peak = Math.max(...runs.map((r) => r.peakRss));
    console.log(
      `read+fold${conversation ? ' (with conversation)' : ' (no conversation)  '}: ` +
        `${Math.round((best.events / best.ms) * 1000).toLocaleString()} events/s (best of 3: ${best.ms.toFixed(0)} ms; runs ${runs.map((r) => r.ms.toFixed(0)).join('/')} ms), ` +
        `peak RSS ${MB(peak)} (+${MB(peak - baseRss)} over the process's baseline of ${MB(baseRss)}; file ${MB(bytes)})` +
        (best.heapAfter !== null ? `, heap retained by the state after GC ${MB(best.heapAfter)}` : ''),
    );
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') return measureAll(process.argv[3], Number(process.argv[4]), process.argv[5] === 'conversation');
  const n = Number(process.argv[2] ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'kite-bench-'));
  try {
    const path = join(dir, 'bench.jsonl');
    const info = writeLargeLog(path, n);
    console.log(`log: ${info.events.toLocaleString()} events, ${MB(info.bytes)} (${Math.round(info.bytes / info.events)} B/event avg), ${info.modelEvents} model turns`);
    // One fresh process per variant: RSS never shrinks, so a shared process would blur the peaks.
    for (const variant of ['conversation', 'no-conversation']) {
      const r = spawnSync(process.execPath, [...process.execArgv, __filename, '--measure', path, String(info.bytes), variant], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`measuring process failed (${r.status ?? r.signal})`);
    }
    console.log('target: >= 200,000 events/s; memory well below the file size');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
