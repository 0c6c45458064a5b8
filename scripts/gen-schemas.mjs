// Writes media/schemas/*.schema.json from the zod schemas (see scripts/jsonSchemas.ts).
//   node scripts/gen-schemas.mjs          write the files
//   node scripts/gen-schemas.mjs --check  exit 1 when a committed file is out of date
// The TypeScript source is bundled in memory with esbuild, so no tsx is needed at build time.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'media', 'schemas');

export async function genSchemas({ check = false } = {}) {
  const r = await esbuild.build({
    entryPoints: [join(root, 'scripts', 'jsonSchemas.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', r.outputFiles[0].text)(mod, mod.exports, createRequire(join(root, 'package.json')));
  const { generateSchemas, renderSchema } = mod.exports;
  mkdirSync(outDir, { recursive: true });
  const stale = [];
  for (const [name, schema] of Object.entries(generateSchemas())) {
    const file = join(outDir, name);
    const text = renderSchema(schema);
    let old = null;
    try { old = readFileSync(file, 'utf8'); } catch { /* new file */ }
    if (old === text) continue;
    if (check) stale.push(name);
    else writeFileSync(file, text);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = await genSchemas({ check });
  if (stale.length) {
    console.error(`out of date: ${stale.join(', ')} (run node scripts/gen-schemas.mjs)`);
    process.exit(1);
  }
}
