// `kite timeline` (the CLI as the VSIX ships it: `esbuild.mjs --production`, built into a temp dir) against the original Kite's Python reader + timeline
// (test/bench/pykite_timeline.py) on the same generated log, interleaved run by run so both see
// the same machine load. Prints medians, the ratio (target ≤ 0.5) and peak RSS; asserts nothing.
// Also the start-up: `kite --version` without and with the V8 code cache (cli/codeCache.ts; its
// folder is a private temp one here, so the bench never touches the user's cache).
// The ratio is of what a user runs: `kite timeline` on one thread. The opt-in two-thread read
// (KITE_TIMELINE_THREADS=2) is timed only with KITE_BENCH_THREADS=2, as a separate figure.
//   npx tsx test/bench/timelineCli.bench.ts [events]     (default 100,000 ≈ 100 MB)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { writeLargeLog } from '../helpers/largeLog';

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.env.KITE_BENCH_ROUNDS ?? 5);
const ROOT = join(__dirname, '..', '..');
const PY = join(__dirname, 'pykite_timeline.py');
const TWO_THREADS = process.env.KITE_BENCH_THREADS === '2';
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

interface Sample { ms: number; cpuMs: number | null; rssKb: number | null; rows: number; out: string }

/**
 * One run of a command with stdout counted; CPU time (user + sys) and peak RSS from GNU time when
 * present — CPU time is the steadier figure on a busy machine, wall time the one a person feels.
 */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Sample {
  const argv = TIME ? [TIME, '-f', 'KITE_RSS %M %U %S', cmd, ...args] : [cmd, ...args];
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, maxBuffer: 1 << 30, encoding: 'utf8', env: { ...process.env, ...env } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  const m = /KITE_RSS (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, cpuMs: m ? (Number(m[2]) + Number(m[3])) * 1000 : null, rssKb: m ? Number(m[1]) : null, rows: r.stdout.split('\n').length, out: r.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (kb: number | null) => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(0)} MB`);

/** `kite --version`: the start-up every command pays, compiled from scratch and from the code cache. */
function startup(cli: string, cache: NodeJS.ProcessEnv): void {
  const off: Sample[] = [];
  const on: Sample[] = [];
  timed(process.execPath, [cli, '--version'], cache); // writes the cache
  for (let i = 0; i < ROUNDS; i++) {
    off.push(timed(process.execPath, [cli, '--version'], { KITE_CODE_CACHE: 'off' }));
    on.push(timed(process.execPath, [cli, '--version'], cache));
  }
  const fig = (xs: Sample[]) => `${median(xs.map((s) => s.ms)).toFixed(0)} ms wall${xs[0].cpuMs === null ? '' : `, ${median(xs.map((s) => s.cpuMs ?? 0)).toFixed(0)} ms CPU`}`;
  console.log(`kite --version: ${fig(off)} without the code cache, ${fig(on)} with it (median of ${ROUNDS}; no target of its own: every command pays it, the timeline ratio includes it)`);
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'kite-tlcli-bench-'));
  const b = spawnSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(dir, 'dist')}`], { cwd: ROOT, stdio: 'inherit' });
  if (b.status !== 0) throw new Error('build failed');
  const CLI = join(dir, 'dist', 'cli.js');
  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
  const log = join(dir, '20260301-101500-F9.jsonl');
  const cache = { XDG_CACHE_HOME: join(dir, 'cache') };
  try {
    const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
    console.log(`load average at start: ${load()} on ${cpus().length} cores (figures under load are slower and noisier)`);
    startup(CLI, cache);
    const info = writeLargeLog(log, N);
    console.log(`log: ${info.events.toLocaleString()} events, ${(info.bytes / 1e6).toFixed(0)} MB`);
    if (!python) console.log('python3 not found: the side-by-side ratio against the original Kite is skipped');
    const kite: Sample[] = [];
    const two: Sample[] = [];
    const py: Sample[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      kite.push(timed(process.execPath, [CLI, 'timeline', log], cache));
      if (TWO_THREADS) two.push(timed(process.execPath, [CLI, 'timeline', log], { ...cache, KITE_TIMELINE_THREADS: '2' }));
      if (python) py.push(timed('python3', [PY, log]));
    }
    if (TWO_THREADS && two[0].rows !== kite[0].rows) throw new Error(`two threads printed ${two[0].rows} rows, one thread ${kite[0].rows}`);
    // Correctness of what is timed: both printed a row per model turn, tool call and gate.
    if (kite[0].rows < info.modelEvents + info.toolEvents) throw new Error(`kite timeline printed ${kite[0].rows} rows, expected ≥ ${info.modelEvents + info.toolEvents}`);
    const cpu = (xs: Sample[]) => (xs[0].cpuMs === null ? null : median(xs.map((s) => s.cpuMs ?? 0)));
    const k = median(kite.map((s) => s.ms));
    const kc = cpu(kite);
    console.log(`kite timeline: median ${k.toFixed(0)} ms wall${kc === null ? '' : `, ${kc.toFixed(0)} ms CPU`} over ${ROUNDS} runs (${kite.map((s) => s.ms.toFixed(0)).join('/')}), peak RSS ${mb(kite[0].rssKb)}`);
    const k2 = TWO_THREADS ? median(two.map((s) => s.ms)) : 0;
    const kc2 = TWO_THREADS ? cpu(two) : null;
    if (TWO_THREADS) console.log(`kite timeline, two threads (KITE_TIMELINE_THREADS=2): median ${k2.toFixed(0)} ms wall${kc2 === null ? '' : `, ${kc2.toFixed(0)} ms CPU`} (${two.map((s) => s.ms.toFixed(0)).join('/')}), peak RSS ${mb(two[0].rssKb)}`);
    if (python) {
      const p = median(py.map((s) => s.ms));
      const pc = cpu(py);
      console.log(`python reader + timeline: median ${p.toFixed(0)} ms wall${pc === null ? '' : `, ${pc.toFixed(0)} ms CPU`} (${py.map((s) => s.ms.toFixed(0)).join('/')}), peak RSS ${mb(py[0].rssKb)}`);
      console.log(`ratio kite timeline (one thread, as users run it) / python: ${(k / p).toFixed(2)} wall${kc !== null && pc !== null ? `, ${(kc / pc).toFixed(2)} CPU` : ''} (target ≤ 0.50)`);
      if (TWO_THREADS) console.log(`ratio kite two threads (opt-in, not what \`kite timeline\` does by default) / python: ${(k2 / p).toFixed(2)} wall`);
    }
    // The layout Kite writes today stores a call's arguments once (args_ref): a smaller file, and
    // every reference checked by hashing what it names. The original Kite cannot read it: no ratio.
    const today = join(dir, 'stored-once', basename(log));
    mkdirSync(dirname(today));
    const todayInfo = writeLargeLog(today, N, { argsStoredOnce: true });
    const onToday: Sample[] = [];
    for (let i = 0; i < ROUNDS; i++) onToday.push(timed(process.execPath, [CLI, 'timeline', today], cache));
    if (onToday[0].out !== kite[0].out) throw new Error('kite timeline printed other rows for the same run with its arguments stored once');
    const kt = median(onToday.map((s) => s.ms));
    const ktc = cpu(onToday);
    console.log(`kite timeline, the same run as Kite writes it today (arguments stored once, ${(todayInfo.bytes / 1e6).toFixed(0)} MB; the same rows): median ${kt.toFixed(0)} ms wall${ktc === null ? '' : `, ${ktc.toFixed(0)} ms CPU`} (${onToday.map((s) => s.ms.toFixed(0)).join('/')}; no ratio: the original Kite cannot read this layout)`);
    console.log(`load average at the end: ${load()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
