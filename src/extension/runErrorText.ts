// What a person is told when a run could not start or stopped with an error (no 'vscode' here, so
// it is unit-tested). A held log lock names the Kite holding it: another window, or a
// `kite resume` in a terminal, is running that run right now.
import * as l10n from '@vscode/l10n';
import type { RunEnded } from '../harness/protocol/rpc';

type RunErrorWire = NonNullable<RunEnded['error']>;

export function runErrorText(feature: string, error: RunErrorWire): string {
  if (error.code === 'locked' && error.holder) {
    const h = error.holder;
    return l10n.t(
      'Kite: {0} is being run by another Kite (pid {1} on {2}, since {3}) — another VS Code window or a `kite resume` in a terminal. A run has one writer at a time: wait for it to end, or stop that process, then resume.',
      feature,
      h.pid,
      h.host,
      h.started_at,
    );
  }
  if (error.code === 'dirty_tree' && error.paths?.length) {
    // Said the editor's way: the harness's message ends with a CLI flag (--allow-dirty).
    const shown = error.paths.slice(0, 5).join(', ') + (error.paths.length > 5 ? l10n.t(', and {0} more', error.paths.length - 5) : '');
    return l10n.t(
      "Kite: {0} did not start: the work tree has uncommitted changes ({1}). Commit or stash them (Source Control), or allow uncommitted changes in Kite's settings: they are then kept out of the feature's commit.",
      feature,
      shown,
    );
  }
  return l10n.t('Kite: {0} could not run: {1}', feature, error.message);
}
