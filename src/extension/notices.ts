// Kite's notifications about runs, through one place: each says what happened in one sentence and
// offers what a person can do next (Retry, Resume, Reset to Todo, Open Log). Tests read what was
// shown (onDidShow) and run an action's command, which is what clicking its button does.
import * as vscode from 'vscode';

export interface NoticeAction {
  title: string;
  command: string;
  args: unknown[];
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  text: string;
  actions: NoticeAction[];
}

export class Notices implements vscode.Disposable {
  private readonly shown = new vscode.EventEmitter<Notice>();
  readonly onDidShow = this.shown.event;

  show(notice: Notice): void {
    const show = notice.level === 'info' ? vscode.window.showInformationMessage : notice.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
    this.shown.fire(notice);
    void show(notice.text, ...notice.actions.map((a) => a.title)).then((picked) => {
      const a = notice.actions.find((x) => x.title === picked);
      return a ? vscode.commands.executeCommand(a.command, ...a.args) : undefined;
    });
  }

  dispose(): void {
    this.shown.dispose();
  }
}

/** What a person can do about a feature whose run did not end done. */
export function nextStepActions(feature: string, log: string | null, resumable: boolean): NoticeAction[] {
  return [
    { title: 'Retry', command: 'kite.retryFeature', args: [feature] },
    ...(resumable && log ? [{ title: 'Resume', command: 'kite.resumeRun', args: [log] }] : []),
    { title: 'Reset to Todo', command: 'kite.resetFeature', args: [feature] },
    ...(log ? [{ title: 'Open Log', command: 'kite.openRun', args: [log] }] : []),
  ];
}
