// The modal behind the server's kite/confirmUnsandboxed request. Any failure to ask counts as "no":
// the harness then refuses every command of the run (fail closed).
import * as vscode from 'vscode';
import { DEV_CONTAINERS_EXTENSION, REOPEN_IN_CONTAINER_COMMAND, unsandboxedPrompt } from './sandboxText';

export async function confirmUnsandboxed(q: { reason: string; fix: string }, log: vscode.LogOutputChannel): Promise<boolean> {
  const RUN = vscode.l10n.t('Run Without Sandbox');
  const REOPEN = vscode.l10n.t('Reopen in Container');
  const p = unsandboxedPrompt(q, { platform: process.platform, devContainers: vscode.extensions.getExtension(DEV_CONTAINERS_EXTENSION) !== undefined });
  try {
    const buttons = p.reopenInContainer ? [RUN, REOPEN] : [RUN];
    const pick = await vscode.window.showWarningMessage(p.message, { modal: true, detail: p.detail }, ...buttons);
    log.warn(`no sandbox (${q.reason}): ${pick === RUN ? 'the person chose to run commands without one' : pick === REOPEN ? 'reopening in a container' : 'refused'}`);
    if (pick === REOPEN) void vscode.commands.executeCommand(REOPEN_IN_CONTAINER_COMMAND).then(undefined, (err: unknown) => log.error(`Reopen in Container failed: ${String(err)}`));
    return pick === RUN;
  } catch (err) {
    log.error(`could not ask whether to run without a sandbox (${String(err)}); answering no`);
    return false;
  }
}
