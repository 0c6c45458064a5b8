// Runs the replay debug adapter over stdio until the client disconnects. Shared by the
// stand-alone bundle (dist/debugAdapter.js) and `kite debug-adapter`.
import { KiteDebugSession } from './debugSession';

export function runDebugAdapter(): Promise<number> {
  const session = new KiteDebugSession();
  return new Promise((resolve) => {
    process.on('SIGTERM', () => session.shutdown());
    process.stdin.on('end', () => resolve(0));
    session.start(process.stdin, process.stdout);
  });
}
