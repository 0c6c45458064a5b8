// Bundles the integration suite for the VS Code extension host:
//   test/integration/index.ts       -> <outdir>/index.js  (the in-host mocha runner, mocha bundled in)
//   test/integration/*.test.ts      -> <outdir>/<name>.test.js  (one bundle per file, `vscode` external)
//   test/bench/genLog.ts, test/helpers/streamLog.ts -> <outdir>/genLog.js, streamLog.js  (child
//                                   processes of timelineLoad.test: the big log, a streaming run)
//   node scripts/build-tests.mjs                    into out/integration (F5 "Extension Tests", desktop)
//   node scripts/build-tests.mjs --outdir=DIR       into DIR (scripts/vscode-e2e/run.sh: a private copy)
// Everything is bundled, so the host needs nothing from node_modules at run time. Any error exits 1.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const srcDir = join(root, 'test/integration');
const outdir = (process.argv.find((a) => a.startsWith('--outdir=')) ?? `--outdir=${join(root, 'out/integration')}`).slice('--outdir='.length);

const tests = existsSync(srcDir) ? readdirSync(srcDir).filter((f) => f.endsWith('.test.ts')).sort() : [];
const entryPoints = Object.fromEntries([
  ['index', join(srcDir, 'index.ts')],
  ...tests.map((f) => [f.replace(/\.ts$/, ''), join(srcDir, f)]),
  ['genLog', join(root, 'test/bench/genLog.ts')],
  ['streamLog', join(root, 'test/helpers/streamLog.ts')],
]);

const t0 = Date.now();
// Stale bundles of deleted tests would still run: start from an empty folder.
rmSync(outdir, { recursive: true, force: true });
try {
  await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['vscode'],
    // Inline maps: stack traces in the host point at the .ts lines without extra files.
    sourcemap: 'inline',
    sourcesContent: false,
    logLevel: 'error',
    legalComments: 'none',
  });
} catch {
  // esbuild has already printed the errors.
  process.exit(1);
}
console.log(`[build-tests] ${tests.length} test file(s) + runner -> ${outdir} in ${Date.now() - t0} ms`);
