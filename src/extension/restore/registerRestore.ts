// Registers kite.restoreToHere ({log, seq}, or the stopped frame of a Kite debug session) and
// kite.reviewChanges (a log path, a Runs view node, the timeline tab's Uri, else the followed run).
import * as vscode from 'vscode';
import type { RunLogFolders } from '../runLogFolders';
import { RestoreCommands } from './restoreCommands';

export function registerRestore(context: vscode.ExtensionContext, folders: RunLogFolders, followed: () => string | null, log?: vscode.LogOutputChannel): void {
  const commands = new RestoreCommands(folders, followed, log);
  context.subscriptions.push(
    commands,
    vscode.commands.registerCommand('kite.restoreToHere', (arg?: unknown) => commands.restoreToHere(arg)),
    vscode.commands.registerCommand('kite.reviewChanges', (arg?: unknown) => commands.reviewChanges(arg)),
  );
}
