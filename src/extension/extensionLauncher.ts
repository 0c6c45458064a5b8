// dist/extension.js, what VS Code loads: the extension's bundle (dist/extensionMain.js, built from
// extension.ts) started from a V8 code cache (harness/cli/codeCache.ts, as `kite` starts). Compiling
// the ~2.4 MB bundle was ~150 ms of every activation (target < 100 ms); from the cache V8 skips it.
// Tiny on purpose: only node builtins load before the bundle, and no module of the bundle is in
// here (a module in both files would have two copies of its state). KITE_CODE_CACHE=off: no cache.
import { join } from 'node:path';
import { requireWithCodeCache } from '../harness/cli/codeCache';
import { atQuietMoment } from './quietMoment';
import type * as Main from './extension';

// The cache is written at the first quiet moment 20 s on (quietMoment.ts): late enough for
// activation and what it loads right after to be compiled into it, and never in the middle of
// the person's work (createCachedData holds the loop for ~40 ms).
const loaded = requireWithCodeCache(join(__dirname, 'extensionMain.js'), 'extension', (write) => atQuietMoment(write));
const main = loaded.exports as typeof Main;

/** Whether V8 took the code cache (false: compiled, the cache is written later). For tests. */
export const startedFromCodeCache = loaded.run.accepted;

export const activate: typeof Main.activate = (context) => main.activate(context);
export const deactivate: typeof Main.deactivate = () => main.deactivate();
