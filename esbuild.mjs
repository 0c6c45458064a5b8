// One build script, several entry points; any error exits non-zero.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, no source maps (what the VSIX ships)
//   node esbuild.mjs --watch       rebuild on change
// The harness server, CLI and debug adapter are built WITHOUT `vscode` as external: a stray
// `import 'vscode'` outside src/extension fails this build (ARCHITECTURE.md §1).
import * as esbuild from 'esbuild';
import { zodEnglishOnly } from './webview-ui/esbuildPlugins.mjs';
import { existsSync, mkdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outdir=DIR builds into DIR instead of dist/ (the integration runner builds a private copy so
// parallel runs never read a half-written dist/).
const outRoot = (process.argv.find((a) => a.startsWith('--outdir=')) ?? '--outdir=dist').slice('--outdir='.length);

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] };

/** @type {esbuild.BuildOptions[]} */
export const builds = [
  // What VS Code loads (extension.js) starts the extension's bundle (extensionMain.js) from a V8 code cache.
  { ...node, entryPoints: { extension: 'src/extension/extensionLauncher.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { extensionMain: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...node, entryPoints: { harnessServer: 'src/harness/server/main.ts' }, outdir: 'dist' },
  // `kite`: a small launcher (cli.js) that runs the program (cliMain.js) from a V8 code cache.
  { ...node, entryPoints: { cli: 'src/harness/cliLauncher.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  { ...node, entryPoints: { cliMain: 'src/harness/cli.ts' }, outdir: 'dist' },
  // The replay adapter's process: a small launcher (debugAdapter.js) that starts its bundle (debugAdapterMain.js).
  { ...node, entryPoints: { debugAdapter: 'src/harness/replay/debugAdapterLauncher.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { debugAdapterMain: 'src/harness/replay/debugAdapterMain.ts' }, outdir: 'dist' },
  // The worker thread that starts the replay adapter's process off the extension host's loop (replay/adapterSpawn.ts).
  { ...node, entryPoints: { adapterSpawn: 'src/harness/replay/adapterSpawnWorker.ts' }, outdir: 'dist' },
  // The timeline's reader for a big log, on a worker thread of the extension host (events/timelineFeedThread.ts).
  { ...node, entryPoints: { timelineFeed: 'src/harness/events/timelineFeedWorker.ts' }, outdir: 'dist' },
  {
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    entryPoints: { timeline: 'webview-ui/main.ts' },
    outdir: 'dist/webview',
    loader: { '.css': 'css' },
    plugins: [zodEnglishOnly],
  },
];

async function main() {
  mkdirSync(outRoot, { recursive: true });
  // JSON Schemas for jsonValidation and the page's event check come from the zod schemas (committed).
  await (await import('./scripts/gen-schemas.mjs')).genSchemas();
  const present = builds
    .filter((b) => Object.values(b.entryPoints).every((p) => existsSync(p)))
    .map((b) => ({ ...b, outdir: b.outdir.replace(/^dist/, outRoot) }));
  if (watch) {
    for (const b of present) {
      const ctx = await esbuild.context({ ...b, logLevel: 'info' });
      await ctx.watch();
    }
    console.log('[esbuild] watching…');
    return;
  }
  const t0 = Date.now();
  const results = await Promise.allSettled(present.map((b) => esbuild.build(b)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) {
    for (const f of failed) console.error(String(f.reason?.message ?? f.reason));
    process.exit(1);
  }
  console.log(`[esbuild] ${present.length} bundles${production ? ' (production)' : ''} in ${Date.now() - t0} ms`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
