// Activation cost of the extension bundle (target: < 100 ms). Loads dist/extension.js (built here
// when missing; `node esbuild.mjs --production` first for the shipped bundle's figure) against a do-nothing `vscode` stub and prints:
//   load      time to require the bundle (parse + evaluate top-level code)
//   activate  time inside activate() (what VS Code waits for before running a command)
//   ready     time until the lazily loaded parts (zod schemas, RPC client, views) are wired
// Run: npx tsx test/bench/activation.bench.ts [runs]   (figures only, no assertions)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..');
const bundle = join(repo, 'dist', 'extension.js');
// Not built yet (a clean checkout, the bench stage run alone): the development build, as `npm test` makes.
if (!existsSync(bundle) && spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repo, stdio: 'inherit' }).status !== 0) {
  console.error(`${bundle} is missing and node esbuild.mjs failed`);
  process.exit(2);
}

// What the bundle reads off its `vscode` import: the names known here, and in a bundle that is not
// minified every `vscode.X` / `vscode2.X` it holds, so a namespace added later is stubbed too (the
// bundle copies the module's own keys: a Proxy's traps would go unseen).
const KNOWN_NAMES = ['window', 'workspace', 'commands', 'languages', 'debug', 'env', 'extensions', 'lm', 'l10n', 'chat', 'Uri', 'EventEmitter', 'Disposable', 'ThemeIcon', 'ThemeColor', 'TreeItem', 'TreeItemCollapsibleState', 'MarkdownString', 'StatusBarAlignment', 'ProgressLocation', 'FileType', 'FileChangeType', 'FilePermission', 'FileSystemError', 'CodeLens', 'CodeAction', 'Diagnostic', 'Range', 'Position', 'TabInputTextDiff', 'ConfigurationTarget', 'RelativePattern', 'CancellationTokenSource', 'CancellationError', 'DebugAdapterInlineImplementation', 'DebugAdapterExecutable', 'DebugStackFrame', 'ViewColumn', 'WorkspaceEdit', 'UIKind', 'NotebookCellKind', 'LanguageModelChatMessage', 'LanguageModelError', 'LanguageModelTextPart', 'LanguageModelToolCallPart', 'LanguageModelToolResultPart'];
const vscodeNames = [...new Set([...KNOWN_NAMES, ...[...readFileSync(join(repo, 'dist', 'extensionMain.js'), 'utf8').matchAll(/\bvscode\d*\.([A-Za-z]\w*)/g)].map((m) => m[1] as string)])];

// Each measurement in a fresh process, so nothing is cached between runs.
const child = `
const Module = require('module');
const stub = () => new Proxy(function () {}, {
  get: (t, k) => k === 'then' ? undefined : k === Symbol.toPrimitive ? () => '0.0.0' : k === 'workspaceFolders' ? undefined : stub(),
  apply: () => obj(),
  construct: () => obj(),
});
const obj = () => new Proxy({}, { get: (t, k) => (k in t ? t[k] : k === 'then' ? undefined : stub()) });
const names = ${JSON.stringify(vscodeNames)};
const vscode = Object.fromEntries(names.map((n) => [n, stub()]));
vscode.workspace = new Proxy({ workspaceFolders: undefined }, { get: (t, k) => (k in t ? t[k] : stub()) });
// No translation bundle, as in an English VS Code (activation configures @vscode/l10n from it).
vscode.l10n = { bundle: undefined, uri: undefined, t: (m) => (typeof m === 'string' ? m : m.message) };
const orig = Module._resolveFilename;
Module._resolveFilename = function (r, ...a) { return r === 'vscode' ? 'vscode-stub' : orig.call(this, r, ...a); };
require.cache['vscode-stub'] = { id: 'vscode-stub', filename: 'vscode-stub', loaded: true, exports: vscode };
const t0 = performance.now();
const ext = require(${JSON.stringify(bundle)});
const t1 = performance.now();
const ctx = { subscriptions: [], extension: { packageJSON: { version: '0.0.0' } }, asAbsolutePath: (p) => p, secrets: stub() };
const api = ext.activate(ctx);
const t2 = performance.now();
api.ready.then(() => {
  const t3 = performance.now();
  console.log(JSON.stringify({ load: t1 - t0, activate: t2 - t1, ready: t3 - t1 }));
  process.exit(0);
}, (e) => { console.error(e); process.exit(1); });
`;

const runs = Number(process.argv[2] ?? 7);
// The launcher (dist/extension.js) starts the bundle from a V8 code cache: a private cache folder
// of this bench's own, so the first process finds none (a new install or version) and writes it.
const cacheHome = mkdtempSync(join(tmpdir(), 'kite-activation-cache-'));
const rows: { load: number; activate: number; ready: number }[] = [];
for (let i = 0; i < runs; i++) {
  const r = spawnSync(process.execPath, ['-e', child], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
  if (r.status !== 0) {
    console.error(r.stderr);
    process.exit(1);
  }
  rows.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as { load: number; activate: number; ready: number });
}
rmSync(cacheHome, { recursive: true, force: true });
const [first, ...warm] = rows;
const median = (k: 'load' | 'activate' | 'ready'): string => {
  const v = (warm.length ? warm : rows).map((r) => r[k]).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)]!.toFixed(1);
};
const main = join(repo, 'dist', 'extensionMain.js');
console.log(`dist/extension.js (launcher) + extensionMain.js ${(statSync(main).size / 1024).toFixed(0)} KiB, ${runs} fresh processes; the first without a code cache:`);
console.log(`  first start (no cache): load ${first!.load.toFixed(1)} ms, activate ${first!.activate.toFixed(1)} ms, load + activate ${(first!.load + first!.activate).toFixed(1)} ms`);
console.log(`  then, from the cache (median of ${warm.length}):`);
console.log(`  load (require)          ${median('load')} ms`);
console.log(`  activate()              ${median('activate')} ms`);
console.log(`  ready (lazy parts)      ${median('ready')} ms after load`);
console.log(`  load + activate         ${(Number(median('load')) + Number(median('activate'))).toFixed(1)} ms  (target < 100 ms)`);
