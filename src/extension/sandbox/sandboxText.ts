// What Kite says about the sandbox in VS Code: the approval prompt's "where it runs" line, the
// status bar, and the modal asked when no sandbox exists. Pure (no 'vscode'): unit-tested.
import * as l10n from '@vscode/l10n';
import { describeSandbox, type SandboxInfo } from '../../harness/protocol/sandboxInfo';

export const DEV_CONTAINERS_EXTENSION = 'ms-vscode-remote.remote-containers';
export const REOPEN_IN_CONTAINER_COMMAND = 'remote-containers.reopenInContainer';

/** The command approval's line on where the command runs. Absent info (an older server) says so
 *  rather than claiming a sandbox. */
export function whereCommandRuns(info: SandboxInfo | undefined): string {
  if (!info) return l10n.t('Where it runs was not reported by the harness');
  if (info.kind === 'none') return info.note ? l10n.t('Runs WITHOUT a sandbox ({0})', info.note) : l10n.t('Runs WITHOUT a sandbox');
  return l10n.t('Runs {0}', describeSandbox(info));
}

/** Status bar text suffix and tooltip line for the active run (null info: not known yet / older log). */
export function statusSandbox(info: SandboxInfo | null): { mark: string; tooltip: string | null } {
  if (!info) return { mark: '', tooltip: null };
  const tooltip = l10n.t('commands: {0}', describeSandbox(info));
  if (info.kind === 'none') return { mark: ` · $(warning) ${l10n.t('unsandboxed')}`, tooltip };
  return { mark: '', tooltip };
}

export interface UnsandboxedPrompt {
  message: string;
  detail: string;
  /** Offer "Reopen in Container" (Dev Containers is installed and a container would help). */
  reopenInContainer: boolean;
}

/** The modal asked once per run when this machine has no sandbox (runSandbox.ts confirmUnsandboxed). */
export function unsandboxedPrompt(q: { reason: string; fix: string }, env: { platform: string; devContainers: boolean }): UnsandboxedPrompt {
  const containerHelps = env.platform === 'win32' || /dev container/i.test(`${q.reason} ${q.fix}`);
  const reason = q.reason.replace(/\.+$/, '');
  const lines = [l10n.t('To get a sandbox: {0}.', q.fix.replace(/\.+$/, ''))];
  if (containerHelps && !env.devContainers) lines.push(l10n.t('Kite recommends a dev container: install the Dev Containers extension (ms-vscode-remote.remote-containers), then run "Dev Containers: Reopen in Container".'));
  lines.push(l10n.t('Without a sandbox the commands you approve run with your own permissions, network and files. Cancel refuses every command of this run (the run ends).'));
  return {
    message: l10n.t("Kite cannot sandbox commands on this machine: {0}. Run this run's commands WITHOUT a sandbox?", reason),
    detail: lines.join('\n\n'),
    reopenInContainer: containerHelps && env.devContainers,
  };
}
