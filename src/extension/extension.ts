// Composition root of the extension: wires parts together, nothing else (ARCHITECTURE.md §5.8).
// Activation stays cheap: the harness server and vscode-languageclient load on first use.
import * as vscode from 'vscode';
import { wireKite, type KiteApi } from './wireKite';

export function activate(context: vscode.ExtensionContext): KiteApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Kite', { log: true });
  context.subscriptions.push(log, vscode.commands.registerCommand('kite.showLog', () => log.show()));
  const api = wireKite(context, log);
  const activationMs = performance.now() - t0;
  log.info(`Kite activated in ${activationMs.toFixed(1)} ms`);
  return { version: String(context.extension.packageJSON.version), activationMs, ...api };
}

export function deactivate(): void {}
