// dist/debugAdapter.js, the process VS Code starts for a replay on a big log: it starts the adapter's
// bundle (dist/debugAdapterMain.js) from a V8 code cache (cli/codeCache.ts, as `kite` starts).
// Started for a recorded log (RECORDED_REPLAY_ENV), it first makes itself background work: the
// adapter used to lower itself only at the launch request, after node had started and compiled its
// ~4 MB bundle at the usual priority in a scheduling group of its own — ~170 ms of two busy CPUs
// while a big timeline loads, and the extension host's loop waited 59 ms for one then (a perf
// trace of a 1M-event load). Tiny on purpose: only node builtins load before the bundle.
import { join } from 'node:path';
import { requireWithCodeCache } from '../cli/codeCache';
import { backgroundProcess } from '../backgroundPriority';
import { RECORDED_REPLAY_ENV } from './adapterPlacement';

if (process.env[RECORDED_REPLAY_ENV] === '1') backgroundProcess();
// The cache is written at exit (the adapter's session is over by then: nobody waits on it).
requireWithCodeCache(join(__dirname, 'debugAdapterMain.js'), 'debug-adapter', () => undefined);
