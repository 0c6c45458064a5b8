// What one refresh of the Runs view costs the extension host while a run streams into the
// workspace's log folder: the view re-summarises the growing log at every change (coalesced to
// one refresh per 250 ms, ~12 new events at 50 events/s). An unfinished log longer than the tail
// is folded for its totals: whole each time (readLogSummary without a cache), or on from where the
// last refresh stopped (OpenLogTotals, what the view keeps). Then the view as a whole, with a folder
// of RUNS_LISTED logs one of which streams: listing the folder at every change (a readdir, a stat per
// log; VS Code then asks for every row) against reading the grown log's row alone (RunsListing.update,
// what the view does now). Issue 17: the host is never blocked while a run streams. Prints figures
// (median of ROUNDS); asserts only that the ways agree.
//   npx tsx test/bench/runsRefresh.bench.ts [events=10000,50000]
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenLogTotals, readLogSummary } from '../../src/harness/events/runLogSummary';
import { RUNS_LISTED, RunsListing } from '../../src/extension/views/runsListing';
import { writeLargeLog } from '../helpers/largeLog';

const SIZES = (process.argv[2] ?? '10000,50000').split(',').map(Number);
const ROUNDS = Number(process.env.KITE_BENCH_ROUNDS ?? 7);
const PER_REFRESH = 12; // events a run at 50 events/s appends between two refreshes 250 ms apart

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kite-runs-bench-'));
  try {
    console.log(`load average at start: ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores`);
    for (const n of SIZES) {
      const full = join(dir, `full-${n}.jsonl`);
      writeLargeLog(full, n + ROUNDS * PER_REFRESH + 1);
      const lines = readFileSync(full, 'utf8').trim().split('\n').filter((l) => !l.includes('"kind":"session_end"'));
      const log = join(dir, `20261206-120000-F${n}.jsonl`);
      writeFileSync(log, lines.slice(0, n).join('\n') + '\n');
      const open = new OpenLogTotals();
      await readLogSummary(log, open); // the view's first look: a whole fold either way
      const whole: number[] = [];
      const onward: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        appendFileSync(log, lines.slice(n + r * PER_REFRESH, n + (r + 1) * PER_REFRESH).join('\n') + '\n');
        let t = performance.now();
        const a = await readLogSummary(log);
        whole.push(performance.now() - t);
        t = performance.now();
        const b = await readLogSummary(log, open);
        onward.push(performance.now() - t);
        if (a.turns !== b.turns || a.tokens !== b.tokens || a.costUsd !== b.costUsd) throw new Error(`the two folds disagree: ${JSON.stringify([a, b])}`);
      }
      const mb = (readFileSync(log).length / 1e6).toFixed(0);
      console.log(`Runs view refresh, a running log of ${n.toLocaleString('en-US')} events (${mb} MB), ${PER_REFRESH} new: folded whole ${median(whole).toFixed(1)} ms, folded on ${median(onward).toFixed(2)} ms (median of ${ROUNDS}; the refresh repeats every 250 ms while the run streams)`);
    }
    const finished = join(dir, 'finished.jsonl');
    writeLargeLog(finished, 301); // 301 events end with the run's session_end
    await wholeView(dir, finished);
    await windowOpened(dir, finished);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A folder of RUNS_LISTED logs (copies of `finished`, one streaming run of 10,000 events). */
async function wholeView(dir: string, finished: string): Promise<void> {
  const folder = join(dir, 'runs');
  mkdirSync(folder);
  for (let i = 1; i < RUNS_LISTED; i++) copyFileSync(finished, join(folder, `20261101-${String(100000 + i)}-F${i}.jsonl`));
  const full = join(dir, 'streaming-full.jsonl');
  writeLargeLog(full, 10_000 + ROUNDS * PER_REFRESH * 2 + 1);
  const lines = readFileSync(full, 'utf8').trim().split('\n').filter((l) => !l.includes('"kind":"session_end"'));
  const live = join(folder, '20261206-120000-LIVE.jsonl');
  writeFileSync(live, lines.slice(0, 10_000).join('\n') + '\n');
  const running = new Set([live]);
  const listing = new RunsListing();
  await listing.list(folder, running); // the view's first look
  let at = 10_000;
  const grow = (): void => {
    appendFileSync(live, lines.slice(at, at + PER_REFRESH).join('\n') + '\n');
    at += PER_REFRESH;
  };
  const listed: number[] = [];
  const updated: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    grow();
    let t = performance.now();
    const all = await listing.list(folder, running);
    listed.push(performance.now() - t);
    grow();
    t = performance.now();
    const one = await listing.update(live, running);
    updated.push(performance.now() - t);
    if (all.length !== RUNS_LISTED || !one || one !== all[0]) throw new Error('the listing and the update disagree on the streaming run');
  }
  console.log(`Runs view refresh, ${RUNS_LISTED} logs in the folder, one running (10,000 events, ${PER_REFRESH} new): folder listed ${median(listed).toFixed(2)} ms (and VS Code asks for all ${RUNS_LISTED} rows), the run's row alone ${median(updated).toFixed(2)} ms (median of ${ROUNDS})`);
}

/** A window opened on a folder with interrupted runs: the first listing folds each unfinished log
 *  (no session_end to read its totals from) once; the view, the onboarding context and the resume
 *  offer share it. */
async function windowOpened(dir: string, finished: string): Promise<void> {
  const folder = join(dir, 'opened');
  mkdirSync(folder);
  const open = join(dir, 'interrupted.jsonl');
  writeLargeLog(open, 10_000 + 1); // no session_end: 10,001 events end mid-turn
  for (let i = 0; i < RUNS_LISTED; i++) copyFileSync(i % 10 === 0 ? open : finished, join(folder, `20261102-${String(100000 + i)}-F${i}.jsonl`));
  const times: number[] = [];
  let turns = 0;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    const nodes = await new RunsListing().list(folder, new Set());
    times.push(performance.now() - t);
    const unfinished = nodes.filter((n) => n.summary.outcome === 'open');
    if (unfinished.length !== RUNS_LISTED / 10) throw new Error(`${unfinished.length} unfinished runs listed, not ${RUNS_LISTED / 10}`);
    turns = unfinished.reduce((sum, n) => sum + n.summary.turns, 0);
  }
  const mb = (readFileSync(open).length * (RUNS_LISTED / 10)) / 1e6;
  console.log(`Runs view, first listing of ${RUNS_LISTED} logs of which ${RUNS_LISTED / 10} interrupted (10,000 events each, ${mb.toFixed(0)} MB to fold for their totals; ${turns} turns): ${median(times).toFixed(0)} ms (median of 3)`);
}

void main();
