// Writes media/schemas/*.schema.json from the zod schemas (see scripts/jsonSchemas.ts), and the
// timeline page's generated event check (scripts/pageChecks.ts).
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

/** Bundles a TypeScript module in memory and returns its exports. */
async function load(entry) {
  const r = await esbuild.build({
    entryPoints: [join(root, 'scripts', entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', r.outputFiles[0].text)(mod, mod.exports, createRequire(join(root, 'package.json')));
  return mod.exports;
}

/** Writes `text` to `file` when it differs; with `check`, only says so (returns true when stale). */
function update(file, text, check) {
  let old = null;
  try { old = readFileSync(file, 'utf8'); } catch { /* new file */ }
  if (old === text) return false;
  if (!check) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return true;
}

export async function genSchemas({ check = false } = {}) {
  const { generateSchemas, renderSchema } = await load('jsonSchemas.ts');
  const stale = [];
  for (const [name, schema] of Object.entries(generateSchemas())) {
    if (update(join(outDir, name), renderSchema(schema), check)) stale.push(name);
  }
  // The page's event check (scripts/pageChecks.ts).
  const { generatePageChecks } = await load('pageChecks.ts');
  for (const [path, text] of Object.entries(generatePageChecks())) {
    if (update(join(root, path), text, check)) stale.push(path);
  }
  return stale.filter(() => check);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = await genSchemas({ check });
  if (stale.length) {
    console.error(`out of date: ${stale.join(', ')} (run node scripts/gen-schemas.mjs)`);
    process.exit(1);
  }
}
