// `kite eval` parallelism: the starter suite (test/fixtures/evals) with --jobs 1 and --jobs 2,
// rounds interleaved so machine load hits both alike; prints each wall time and the ratio
// (jobs 1 / jobs 2; 2.0 would be perfect scaling). Fails only when a case does not pass.
// Run: npx tsx test/bench/evalJobs.bench.ts [ROUNDS=2]          (prints figures; never asserts timing)
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSuite } from '../../src/harness/evals/evalCase';
import { runSuite } from '../../src/harness/evals/runSuite';

const ROUNDS = Number(process.argv[2] ?? 2);
const cases = loadSuite(join(__dirname, '..', 'fixtures', 'evals'));
const logs = realpathSync(mkdtempSync(join(tmpdir(), 'kite-bench-eval-')));

async function wall(jobs: number, round: number): Promise<number> {
  const s = await runSuite(cases, { models: [], jobs, logDir: join(logs, `j${jobs}-r${round}`), cwd: logs });
  const bad = s.results.filter((r) => r.status !== 'pass');
  if (bad.length) throw new Error(`cases did not pass: ${bad.map((r) => `${r.case} (${r.unmet.join('; ') || r.error})`).join(', ')}`);
  return s.wall_ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const ms: Record<1 | 2, number[]> = { 1: [], 2: [] };
  for (let r = 0; r < ROUNDS; r++) for (const j of [1, 2] as const) ms[j].push(await wall(j, r));
  const [a, b] = [median(ms[1]), median(ms[2])];
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${cases.length} cases, ${ROUNDS} round(s) each`);
  console.log(`--jobs 1: ${(a / 1000).toFixed(2)} s wall (median; runs: ${ms[1].map((x) => (x / 1000).toFixed(2)).join(', ')})`);
  console.log(`--jobs 2: ${(b / 1000).toFixed(2)} s wall (median; runs: ${ms[2].map((x) => (x / 1000).toFixed(2)).join(', ')})`);
  console.log(`wall-time ratio jobs1/jobs2: ${(a / b).toFixed(2)}x`);
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(logs, { recursive: true, force: true }));
