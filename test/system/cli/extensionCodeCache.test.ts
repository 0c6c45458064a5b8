// The extension as VS Code loads it: dist/extension.js, a launcher that starts the bundle
// (extensionMain.js) from a V8 code cache in the same private per-user folder as `kite`'s. The
// first start compiles and writes the cache; the next takes it, and the extension it gives VS Code
// is the same (activate and deactivate, activation working against a stand-in `vscode`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { readCodeCache } from '../../../src/harness/cli/codeCache';
import { tempDir } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');

/** Loads the launcher in a fresh Node with a do-nothing `vscode`, activates, and reports. */
const PROBE = `
const Module = require('module');
const stub = () => new Proxy(function () {}, { get: (t, k) => (k === 'then' ? undefined : k === Symbol.toPrimitive ? () => '0' : stub()), apply: () => stub(), construct: () => stub() });
// Every name the bundle reads off 'vscode' as an own key (the bundle copies the module's keys).
const vscode = Object.fromEntries(JSON.parse(process.argv[2]).map((n) => [n, stub()]));
vscode.l10n = { bundle: undefined, t: (m) => m };
vscode.workspace = new Proxy({ workspaceFolders: undefined }, { get: (t, k) => (k in t ? t[k] : stub()) });
const orig = Module._resolveFilename;
Module._resolveFilename = function (r, ...a) { return r === 'vscode' ? 'vscode-stub' : orig.call(this, r, ...a); };
require.cache['vscode-stub'] = { id: 'vscode-stub', filename: 'vscode-stub', loaded: true, exports: vscode };
const ext = require(process.argv[1]);
const api = ext.activate({ subscriptions: [], extension: { packageJSON: { version: '9.9.9' } }, asAbsolutePath: (p) => p, secrets: stub() });
console.log(JSON.stringify({ cached: ext.startedFromCodeCache, activate: typeof ext.activate, deactivate: typeof ext.deactivate, version: api.version }));
process.exit(0);
`;

describe('the extension starts from a V8 code cache', function () {
  this.timeout(180_000);
  let launcher: string;
  let names: string;
  before(async () => {
    const out = tempDir('kite-ext-cc-build-');
    const node: esbuild.BuildOptions = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], outdir: out, logLevel: 'error', external: ['vscode'] };
    await esbuild.build({ ...node, entryPoints: { extension: join(ROOT, 'src/extension/extensionLauncher.ts') } });
    await esbuild.build({ ...node, entryPoints: { extensionMain: join(ROOT, 'src/extension/extension.ts') } });
    launcher = join(out, 'extension.js');
    names = JSON.stringify([...new Set([...readFileSync(join(out, 'extensionMain.js'), 'utf8').matchAll(/\bvscode\d*\.([A-Za-z]\w*)/g)].map((m) => m[1]))]);
  });

  const start = (cacheHome: string, env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(process.execPath, ['-e', PROBE, launcher, names], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome, KITE_CODE_CACHE: '', ...env } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop() as string) as { cached: boolean; activate: string; deactivate: string; version: string };
  };

  it('writes the cache on the first start and takes it on the next, with the same extension', () => {
    const home = tempDir('kite-ext-cc-home-');
    const first = start(home);
    assert.deepEqual(first, { cached: false, activate: 'function', deactivate: 'function', version: '9.9.9' });
    const dir = join(home, 'kite', 'v8');
    const files = readdirSync(dir).filter((f) => f.endsWith('-extension.bin'));
    assert.equal(files.length, 1, readdirSync(dir).join(', '));
    assert.ok(readCodeCache(join(dir, files[0] as string)), 'a cache the launcher accepts');
    assert.deepEqual(start(home), { ...first, cached: true });
  });

  it('KITE_CODE_CACHE=off: compiled every time, nothing written', () => {
    const home = tempDir('kite-ext-cc-off-');
    assert.equal(start(home, { KITE_CODE_CACHE: 'off' }).cached, false);
    assert.equal(start(home, { KITE_CODE_CACHE: 'off' }).cached, false);
    assert.deepEqual(readdirSync(home), []);
  });
});
