// The test command (`npm test`): type check, lint, build, then every suite, and one closing line
// `N passed, N failed, N skipped` summed over all of them. Exits non-zero on any failure.
//   node scripts/test.mjs                 everything
//   node scripts/test.mjs unit dap        only the named stages
// Stages: typecheck lint build unit system hostile dap e2e integration bench
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const mocha = (dir, extra = []) => ({
  kind: 'mocha',
  skipUnless: dir,
  cmd: [bin('mocha'), '--import=tsx', '--forbid-only', '--reporter', join(root, 'scripts/mocha-reporter.cjs'), '--timeout', '60000', '--recursive', '--extension', 'ts', ...extra, dir],
});

const stages = {
  typecheck: { kind: 'check', cmd: [bin('tsc'), '--noEmit', '-p', '.'] },
  lint: { kind: 'check', cmd: [bin('eslint'), '.'] },
  build: { kind: 'check', cmd: [process.execPath, 'esbuild.mjs'] },
  unit: { ...mocha('test/unit'), sandbox: true },
  // The hostile suite (one attack per test) is its own stage: its count is visible on its own line.
  system: { ...mocha('test/system', ['--exclude', 'test/system/hostile/**']), sandbox: true },
  hostile: { ...mocha('test/system/hostile'), sandbox: true },
  dap: mocha('test/dap'),
  e2e: { ...mocha('test/e2e'), tools: true },
  integration: { kind: 'counts', cmd: ['bash', 'scripts/vscode-e2e/run.sh'], skipUnless: 'scripts/vscode-e2e/run.sh', tools: true },
  // Every benchmark runs to the end and prints its figures (never judged on them: a count each).
  // Each takes under a minute here; a hung one is killed after 4.
  bench: { kind: 'counts', cmd: [process.execPath, 'scripts/bench.mjs'], tools: true, sandbox: true, env: { KITE_BENCH_TIMEOUT: '240' } },
};

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(stages);
for (const n of names) if (!stages[n]) { console.error(`unknown stage "${n}"; stages: ${Object.keys(stages).join(' ')}`); process.exit(2); }

const scratch = mkdtempSync(join(tmpdir(), 'kite-test-'));
const total = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
const failures = [];
let toolsReady = false;
let sandboxReady = false;
for (const name of names) {
  const stage = stages[name];
  if (stage.skipUnless && !existsSync(join(root, stage.skipUnless))) continue;
  if (stage.kind === 'mocha' && !hasTests(join(root, stage.skipUnless))) continue;
  const counts = join(scratch, `${name}.json`);
  const t0 = Date.now();
  console.log(`\n=== ${name} ===`);
  // Commands run in bubblewrap: install it once (no-op when present), like the browser tools below.
  if (stage.sandbox && !sandboxReady) {
    sandboxReady = spawnSync('bash', ['scripts/setup-sandbox.sh'], { cwd: root, stdio: 'inherit' }).status === 0;
    if (!sandboxReady) { total.failed += 1; lines.push(`${name.padEnd(12)} setup-sandbox.sh failed`); continue; }
  }
  // Browser stages need Chromium (+ the VS Code server): install once, idempotently (~1 s when present),
  // so `npm ci && npm test` works on a fresh machine.
  if (stage.tools && !toolsReady) {
    toolsReady = spawnSync('bash', ['scripts/vscode-e2e/setup.sh'], { cwd: root, stdio: 'inherit' }).status === 0;
    if (!toolsReady) { total.failed += 1; lines.push(`${name.padEnd(12)} setup.sh failed`); continue; }
  }
  const r = spawnSync(stage.cmd[0], stage.cmd.slice(1), { cwd: root, stdio: 'inherit', env: { ...process.env, ...stage.env, KITE_TEST_COUNTS: counts } });
  let c;
  if (stage.kind === 'check') c = { passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, skipped: 0 };
  else {
    try { c = JSON.parse(readFileSync(counts, 'utf8')); } catch { c = { passed: 0, failed: 0, skipped: 0 }; }
    // A crashed runner that wrote no failures still fails the stage.
    if (r.status !== 0 && c.failed === 0) c.failed = 1;
  }
  if (c.failed) failures.push(...(c.failures?.length ? c.failures : [`the stage exited ${r.status}`]).map((f) => `${name}: ${f}`));
  total.passed += c.passed; total.failed += c.failed; total.skipped += c.skipped ?? 0;
  lines.push(`${name.padEnd(12)} ${String(c.passed).padStart(4)} passed ${String(c.failed).padStart(3)} failed ${String(c.skipped ?? 0).padStart(3)} skipped  ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}
// Failed tests by name above the table: a CI log cut to its tail still says what failed.
if (failures.length) console.log('\nfailed:\n' + failures.map((f) => `  ${f}`).join('\n'));
console.log('\n' + lines.join('\n'));
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed ? 1 : 0);

function hasTests(dir) {
  try { return readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.test.ts')); } catch { return false; }
}
