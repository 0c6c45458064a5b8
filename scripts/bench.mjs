// `npm run bench`: runs every test/bench/*.bench.ts (or those whose name contains an argument) with
// tsx, one process each, and prints their figures. Never fails on timing: benchmarks print numbers and
// targets, they do not assert on them. Exits 1 only when a benchmark crashes or exceeds its time limit.
//   npm run bench                      all of them
//   npm run bench -- readFold dap      only files whose name contains "readFold" or "dap"
//   KITE_BENCH_TIMEOUT=900             seconds per benchmark before it is killed (default 600)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, 'test/bench');
const filters = process.argv.slice(2);
const files = (existsSync(dir) ? readdirSync(dir) : [])
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();
if (files.length === 0) {
  console.log(filters.length ? `no benchmark in test/bench matches ${filters.join(', ')}` : 'no benchmarks in test/bench');
  process.exit(filters.length ? 1 : 0);
}

const limit = Number(process.env.KITE_BENCH_TIMEOUT || 600) * 1000;
const rows = [];
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const t0 = Date.now();
  // --expose-gc: benchmarks that report heap after GC use it when present.
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, f)], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: limit,
    killSignal: 'SIGKILL',
  });
  const s = ((Date.now() - t0) / 1000).toFixed(1);
  const status = r.error?.code === 'ETIMEDOUT' ? `killed after ${limit / 1000} s` : r.status === 0 ? 'ok' : `crashed (exit ${r.status ?? r.signal})`;
  rows.push({ f, s, status });
}
console.log('\n' + rows.map((r) => `${r.f.padEnd(32)} ${r.s.padStart(7)} s  ${r.status}`).join('\n'));
// Under `npm test` (its bench stage): one count per benchmark, so one that stops running (crashes,
// hangs) fails the suite by name instead of rotting until someone next runs the benchmarks.
if (process.env.KITE_TEST_COUNTS) {
  const failed = rows.filter((r) => r.status !== 'ok');
  writeFileSync(process.env.KITE_TEST_COUNTS, JSON.stringify({ passed: rows.length - failed.length, failed: failed.length, skipped: 0, failures: failed.map((r) => `${r.f} ${r.status}`) }));
}
process.exit(rows.some((r) => r.status !== 'ok') ? 1 : 0);
