// `npm run package`: a production build, then a .vsix with @vscode/vsce, then a check of what is
// inside it. Exits non-zero when the build, vsce or a check fails.
//   node scripts/package.mjs                  -> kite-<version>.vsix in the repo root
//   node scripts/package.mjs --out FILE.vsix  -> FILE.vsix (the integration run uses a private path)
// It packages a private staging folder: symlinks to the repo's top-level entries (so .vscodeignore
// decides exactly as in the repo) plus its own production dist/. The shared dist/ is never read:
// a concurrent `node esbuild.mjs` would otherwise slip a development build and its maps into the VSIX.
// --no-dependencies: esbuild bundles everything, the VSIX needs no node_modules. vsce runs on this
// Node (>= 20) and never needs @vscode/vsce-sign's binary: that is only used with --sign-tool.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
// A bloat alarm, not a goal. 3 MB since the openai SDK joined the Anthropic one: both are bundled
// into cli, harnessServer, debugAdapter AND extension.js (the extension runs the replay debugger
// in-process, whose live replay reaches run.ts → model/index.ts) — 2.07 MB compressed at the
// change. Taking the SDKs out of the extension and debug-adapter bundles is the way back under 2 MB.
const MAX_BYTES = 3 * 1024 * 1024;
// Never shipped and slow to walk (the tool cache alone is ~12,000 files). vsce itself never adds
// node_modules with --no-dependencies.
const NOT_STAGED = new Set(['dist', 'node_modules', '.git', '.cache', 'out', 'test-results']);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, `${pkg.name}-${pkg.version}.vsix`);

function step(label, cmd, args, cwd) {
  const t0 = Date.now();
  // stdin closed: vsce asks y/N questions on a TTY; here they must fail, not hang.
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`package: ${label} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  console.log(`[package] ${label}: ${Date.now() - t0} ms`);
}

const stage = mkdtempSync(join(tmpdir(), 'kite-package-'));
process.on('exit', () => rmSync(stage, { recursive: true, force: true }));
for (const name of readdirSync(root)) {
  if (!NOT_STAGED.has(name) && !name.endsWith('.vsix')) symlinkSync(join(root, name), join(stage, name));
}
step('production build', process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(stage, 'dist')}`], root);
const vsceDir = dirname(require.resolve('@vscode/vsce/package.json'));
const vsceBin = join(vsceDir, JSON.parse(readFileSync(join(vsceDir, 'package.json'), 'utf8')).bin.vsce);
step('vsce package', process.execPath, [vsceBin, 'package', '--no-dependencies', '--follow-symlinks', '--out', out], stage);

const size = statSync(out).size;
const entries = listZip(out);
const problems = checkVsix(entries, size, bundlesIn(join(stage, 'dist')), pkg);
if (problems.length) {
  console.error(`package: ${out} is not shippable:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log(`[package] ${out}: ${(size / 1024).toFixed(0)} KiB, ${entries.length} entries, checks passed`);

/** The .js bundles of the production build (each must ship). */
function bundlesIn(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js'))
    .map((f) => `extension/dist/${f}`);
}

/** What a user-installable Kite VSIX must (not) contain. Returns human-readable problems. */
function checkVsix(names, bytes, bundles, manifest) {
  const has = new Set(names);
  const problems = [];
  if (bytes >= MAX_BYTES) problems.push(`size ${bytes} bytes >= ${MAX_BYTES / 1024 / 1024} MB`);
  const required = ['extension/package.json', 'extension/readme.md', 'extension/LICENSE.txt', `extension/${manifest.main.replace(/^\.\//, '')}`, ...bundles];
  if (manifest.icon) required.push(`extension/${manifest.icon}`);
  for (const r of required) if (!has.has(r) && !names.some((n) => n.toLowerCase() === r.toLowerCase())) problems.push(`missing ${r}`);
  const forbidden = [
    [/^extension\/src\//, 'sources (src/)'],
    [/^extension\/test\//, 'tests (test/)'],
    [/^extension\/webview-ui\//, 'webview sources (webview-ui/)'],
    [/(^|\/)node_modules\//, 'node_modules'],
    [/\.map$/, 'source maps'],
    [/\.ts$/, 'TypeScript sources'],
    [/^extension\/\.cache\//, 'the tool cache (.cache/)'],
    [/\.vsix$/, 'another VSIX'],
  ];
  for (const [re, what] of forbidden) {
    const hit = names.filter((n) => re.test(n));
    if (hit.length) problems.push(`contains ${what}: ${hit.slice(0, 3).join(', ')}${hit.length > 3 ? ` (+${hit.length - 3})` : ''}`);
  }
  return problems;
}

/** Entry names of a zip file, read from its central directory (no extraction, no dependency). */
function listZip(file) {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const tailLen = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLen);
    readSync(fd, tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    if (eocd < 0) throw new Error(`${file}: not a zip file (no end-of-central-directory record)`);
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    const cd = Buffer.alloc(cdSize);
    readSync(fd, cd, 0, cdSize, cdOffset);
    const names = [];
    for (let p = 0, i = 0; i < count; i++) {
      if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: corrupt central directory at entry ${i}`);
      const nameLen = cd.readUInt16LE(p + 28), extraLen = cd.readUInt16LE(p + 30), commentLen = cd.readUInt16LE(p + 32);
      names.push(cd.toString('utf8', p + 46, p + 46 + nameLen));
      p += 46 + nameLen + extraLen + commentLen;
    }
    return names;
  } finally {
    closeSync(fd);
  }
}
