// Stand-alone debug adapter over stdio (dist/debugAdapter.js): any DAP client can step through a
// Kite run log with it. Stdout carries the protocol, so nothing else may print there.
import { runDebugAdapter } from './runDebugAdapter';

void runDebugAdapter().then((code) => process.exit(code));
