// dist/extension.js, what VS Code loads: the extension's bundle (dist/extensionMain.js, built from
// extension.ts) started from a V8 code cache (harness/cli/codeCache.ts, as `kite` starts). Compiling
// the ~2.4 MB bundle was ~150 ms of every activation (target < 100 ms); from the cache V8 skips it.
// Tiny on purpose: only node builtins load before the bundle, and no module of the bundle is in
// here (a module in both files would have two copies of its state). KITE_CODE_CACHE=off: no cache.
import { join } from 'node:path';
import { requireWithCodeCache } from '../harness/cli/codeCache';
import type * as Main from './extension';

/** Long enough for activation and the parts it loads right after to be compiled into the cache. */
const WRITE_CACHE_AFTER_MS = 20_000;

const loaded = requireWithCodeCache(join(__dirname, 'extensionMain.js'), 'extension', WRITE_CACHE_AFTER_MS);
const main = loaded.exports as typeof Main;

/** Whether V8 took the code cache (false: compiled, the cache is written later). For tests. */
export const startedFromCodeCache = loaded.run.accepted;

export const activate: typeof Main.activate = (context) => main.activate(context);
export const deactivate: typeof Main.deactivate = () => main.deactivate();
