// The sandbox's added latency per command: the median of N `true` commands through the one
// process runner, on the host (as with "sandbox": "off") and in bubblewrap (as Kite runs every
// command), interleaved so machine load hits both alike. Target: < 15 ms added.
// Run: npx tsx test/bench/sandbox.bench.ts [N=200]          (prints figures; never asserts timing)
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Unsandboxed } from '../../src/harness/sandbox/commandSandbox';
import { createRunner } from '../../src/harness/sandbox/runner';
import { RunSandbox } from '../../src/harness/sandbox/runSandbox';
import { resolveSandboxSettings } from '../../src/harness/sandbox/settings';
import type { ProcessRunner } from '../../src/harness/sandbox/types';

const N = Number(process.argv[2] ?? 200);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'kite-bench-sandbox-')));
mkdirSync(join(root, '.git'));
mkdirSync(join(root, '.kite', 'runs'), { recursive: true });
writeFileSync(join(root, 'kite-progress.json'), '{}');

const sink = { append: (e: unknown) => e as never };
const bwrap = new RunSandbox({ root, logDir: join(root, '.kite', 'runs'), settings: resolveSandboxSettings(undefined), mode: 'unattended', env: process.env, log: sink });
if (bwrap.info.kind !== 'bwrap') {
  console.error(`no bubblewrap sandbox here: ${bwrap.info.note}`);
  process.exit(1);
}
const runners: [string, ProcessRunner][] = [
  ['host', createRunner({ sandbox: new Unsandboxed('bench', process.env, []) })],
  ['bwrap', createRunner({ sandbox: bwrap })],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

async function main(): Promise<void> {
  const ms: Record<string, number[]> = { host: [], bwrap: [] };
  for (let i = 0; i < N + 10; i++) {
    for (const [name, runner] of runners) {
      const t0 = process.hrtime.bigint();
      const r = await runner.run({ command: 'true', cwd: root, timeout_s: 30 });
      const dt = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.exit_code !== 0) throw new Error(`${name}: \`true\` failed: ${r.stderr}`);
      if (i >= 10) ms[name].push(dt); // the first ten warm caches
    }
  }
  const added = median(ms.bwrap) - median(ms.host);
  console.log(`sandbox: ${N} \`true\` commands each, interleaved (${bwrap.info.process_limit === 'cgroup' ? 'root: the run\'s pids cgroup joined per command' : 'rlimits'})`);
  console.log(`host  median ${median(ms.host).toFixed(1)} ms, p95 ${p95(ms.host).toFixed(1)} ms`);
  console.log(`bwrap median ${median(ms.bwrap).toFixed(1)} ms, p95 ${p95(ms.bwrap).toFixed(1)} ms`);
  console.log(`added by the sandbox: median ${added.toFixed(1)} ms per command (target < 15 ms)`);
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
