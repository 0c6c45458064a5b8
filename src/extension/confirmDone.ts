// The modal behind the server's kite/confirmDoneWithoutCheck: a feature that says "verify": "none"
// (and a workspace with no checks) claims done; only a person may accept that. Anything but the
// explicit "Mark Done" is no, and the run ends unverified (nothing committed).
import * as vscode from 'vscode';

const DONE = 'Mark Done';

export async function confirmDoneWithoutCheck(q: { feature: string; title: string }, log: vscode.LogOutputChannel): Promise<boolean> {
  try {
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Kite: the agent says {0} ({1}) is done, and nothing can check it ("verify": "none", no checks configured).', q.feature, q.title),
      { modal: true, detail: 'Mark Done commits the work as the feature. Otherwise the run ends unverified: nothing is committed and the changes stay for you to review.' },
      DONE,
    );
    log.info(`${q.feature} without a check: ${pick === DONE ? 'the person marked it done' : 'not confirmed (unverified)'}`);
    return pick === DONE;
  } catch (err) {
    log.error(`could not ask whether ${q.feature} is done (${String(err)}); answering no`);
    return false;
  }
}
