// `kite cost`, `kite export prometheus` and `kite diagnose` over a folder of runs: runs/s, events/s
// and peak heap, for 50, 100 and 200 runs of the same size — memory must stay flat in the number of
// runs (one run folded at a time). Prints figures; asserts nothing but that the reports saw every run.
//   npx tsx test/bench/reports.bench.ts [runs=200] [events per run=500]
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { costMain } from '../../src/harness/cli/costCommand';
import { diagnoseMain } from '../../src/harness/cli/diagnoseCommand';
import { exportMain } from '../../src/harness/cli/exportCommand';
import type { Out } from '../../src/harness/cli/output';
import { writeLargeLog } from '../helpers/largeLog';

const RUNS = Number(process.argv[2] ?? 200);
const PER_RUN = Number(process.argv[3] ?? 500);
const gc = (globalThis as { gc?: () => void }).gc;

function capture(): Out & { text: string } {
  const o = { text: '', out: (t: string) => void (o.text += t + '\n'), err: (t: string) => void (o.text += t + '\n') };
  return o;
}

/** Runs `body`, sampling heapUsed every 5 ms and after each await; returns ms and the peak over the start. */
async function measure(body: () => Promise<void>): Promise<{ ms: number; peakHeapMb: number }> {
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  await body();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ms, peakHeapMb: (peak - base) / 1e6 };
}

type Peaks = Record<'cost' | 'prometheus' | 'diagnose', number>;

async function figures(dir: string, runs: number, events: number): Promise<Peaks> {
  const rate = (ms: number) => `${Math.round((runs / ms) * 1000)} runs/s, ${Math.round((events / ms) * 1000).toLocaleString()} events/s`;
  const cost = capture();
  const c = await measure(async () => void (await costMain([dir, '--json'], cost)));
  const seen = (JSON.parse(cost.text) as { runs: unknown[] }).runs.length;
  if (seen !== runs) throw new Error(`kite cost saw ${seen} runs of ${runs}`);
  console.log(`  kite cost:              ${rate(c.ms)} (${c.ms.toFixed(0)} ms), peak heap +${c.peakHeapMb.toFixed(0)} MB`);
  const prom = capture();
  const p = await measure(async () => void (await exportMain(['prometheus', dir], prom)));
  if (!prom.text.includes('kite_')) throw new Error('no metrics printed');
  console.log(`  kite export prometheus: ${rate(p.ms)} (${p.ms.toFixed(0)} ms), peak heap +${p.peakHeapMb.toFixed(0)} MB`);
  const logs = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const d = await measure(async () => {
    for (const f of logs) if ((await diagnoseMain([join(dir, f)], capture())) !== 0) throw new Error(`diagnose ${f} failed`);
  });
  console.log(`  kite diagnose (each):   ${rate(d.ms)} (${d.ms.toFixed(0)} ms), peak heap +${d.peakHeapMb.toFixed(0)} MB`);
  return { cost: c.peakHeapMb, prometheus: p.peakHeapMb, diagnose: d.peakHeapMb };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'kite-reports-bench-'));
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average at start: ${load()} on ${cpus().length} cores`);
  const peaks: { runs: number; peak: Peaks }[] = [];
  try {
    for (const runs of [Math.max(1, Math.round(RUNS / 4)), Math.max(1, Math.round(RUNS / 2)), RUNS]) {
      const dir = join(root, String(runs));
      mkdirSync(dir);
      let events = 0;
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        const info = writeLargeLog(join(dir, `20260301-${String(100000 + i)}-F${i % 9}.jsonl`), PER_RUN);
        events += info.events;
        bytes += info.bytes;
      }
      console.log(`${runs} runs, ${events.toLocaleString()} events, ${(bytes / 1e6).toFixed(0)} MB:`);
      peaks.push({ runs, peak: await figures(dir, runs, events) });
      rmSync(dir, { recursive: true, force: true });
    }
    // Flat: the largest folder's peak within 1.5× (+5 MB of sampling noise) of the smallest's.
    const [first, last] = [peaks[0], peaks[peaks.length - 1]];
    for (const k of ['cost', 'prometheus', 'diagnose'] as const) {
      const flat = last.peak[k] <= first.peak[k] * 1.5 + 5;
      console.log(`peak heap of kite ${k}: ${peaks.map((p) => `${p.runs} runs +${p.peak[k].toFixed(0)} MB`).join(', ')} — ${flat ? 'flat' : 'GROWS'} in the number of runs (target: flat)`);
    }
    console.log(`load average at the end: ${load()}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
