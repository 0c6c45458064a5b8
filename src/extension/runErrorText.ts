// What a person is told when a run could not start or stopped with an error (no 'vscode' here, so
// it is unit-tested). A held log lock names the Kite holding it: another window, or a
// `kite resume` in a terminal, is running that run right now.
import type { RunEnded } from '../harness/protocol/rpc';

type RunErrorWire = NonNullable<RunEnded['error']>;

export function runErrorText(feature: string, error: RunErrorWire): string {
  if (error.code === 'locked' && error.holder) {
    const h = error.holder;
    return (
      `Kite: ${feature} is being run by another Kite (pid ${h.pid} on ${h.host}, since ${h.started_at}) — another VS Code window or a \`kite resume\` in a terminal. ` +
      'A run has one writer at a time: wait for it to end, or stop that process, then resume.'
    );
  }
  return `Kite: ${feature} could not run: ${error.message}`;
}
