// Composition root of the extension: wires parts together, nothing else (ARCHITECTURE.md §5.8).
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): { version: string } {
  const log = vscode.window.createOutputChannel('Kite', { log: true });
  context.subscriptions.push(log, vscode.commands.registerCommand('kite.showLog', () => log.show()));
  log.info('Kite activated');
  return { version: String(context.extension.packageJSON.version) };
}

export function deactivate(): void {}
