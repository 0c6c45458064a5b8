// Tells the harness which files the person saves, creates, deletes or renames in VS Code while a
// run is going, so the run's commit holds only the run's work (issue 13, item 20). Kite's own
// writes never pass through here: the harness writes files directly, and the approval diff's
// proposal documents are not `file:` documents.
import * as vscode from 'vscode';
import type { HarnessClient } from './harnessClient';

export function reportPersonEdits(client: HarnessClient, log: vscode.LogOutputChannel): vscode.Disposable {
  const send = (uris: readonly vscode.Uri[]): void => {
    const paths = uris.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
    if (!paths.length || client.active.size === 0) return; // no run to tell: do not start the server for it
    client.personEdited(paths).catch((e: unknown) => log.warn(`could not tell the harness about your edits to ${paths.join(', ')}: ${e instanceof Error ? e.message : String(e)}`));
  };
  return vscode.Disposable.from(
    vscode.workspace.onDidSaveTextDocument((d) => send([d.uri])),
    vscode.workspace.onDidCreateFiles((e) => send(e.files)),
    vscode.workspace.onDidDeleteFiles((e) => send(e.files)),
    vscode.workspace.onDidRenameFiles((e) => send(e.files.flatMap((f) => [f.oldUri, f.newUri]))),
  );
}
