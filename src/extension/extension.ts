// Composition root of the extension: wires parts together, nothing else (ARCHITECTURE.md §5.8).
// Activation stays cheap: every command is registered at once as a proxy, and the real parts
// (zod schemas, the RPC client, views) load right after, off the activation path.
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { KITE_COMMANDS } from './commandIds';
import { registerTimeline, type TimelineApi } from './timeline/registerTimeline';
import { registerReplayDebugger } from './debug/registerReplayDebugger';
import { RunLogFolders } from './runLogFolders';
import { longTaskMonitorFromEnv, type LongTaskMonitor } from './longTaskMonitor';
import { registerRestore } from './restore/registerRestore';
import type { KiteParts } from './wireKite';
import type { TranscriptDocuments } from './debug/transcriptDocuments';

export interface KiteApi {
  version: string;
  /** Time spent inside activate() (ms). */
  activationMs: number;
  /** Resolves once the views, the approval UI and the harness client are wired. */
  ready: Promise<KiteParts>;
  /** The timeline view and tabs (follow a log, open a run; test hooks). */
  timeline: TimelineApi;
  /** The event-loop stall monitor KITE_LONG_TASK_LOG=FILE turned on (null: not asked for). */
  longTasks: LongTaskMonitor | null;
  /** The transcript documents (test hook: how many this host made by reading the log itself). */
  transcripts: Pick<TranscriptDocuments, 'readHere' | 'whyReadHere' | 'slowestServedMs'>;
}

export function activate(context: vscode.ExtensionContext): KiteApi {
  const t0 = performance.now();
  // First, so that it sees activation too (opt-in: KITE_LONG_TASK_LOG=FILE).
  const longTasks = longTaskMonitorFromEnv();
  if (longTasks) context.subscriptions.push(longTasks);
  // Modules without 'vscode' (pure, unit-tested texts) translate through @vscode/l10n: same bundle.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Kite', { log: true });
  // Where each workspace folder keeps its run logs (log_dir): shared by the timeline, the debugger and the Runs view.
  const folders = new RunLogFolders(log);
  const ready = import('./wireKite').then((m) => {
    const parts = m.wireKite(context, log, folders);
    log.info(`Kite ready ${(performance.now() - t0).toFixed(1)} ms after activation began`);
    return parts;
  });
  ready.catch((err: unknown) => log.error(`Kite failed to start: ${String(err)}`));
  context.subscriptions.push(
    log,
    folders,
    vscode.commands.registerCommand('kite.showLog', () => log.show()),
    ...KITE_COMMANDS.map((id) => vscode.commands.registerCommand(id, async (...args: never[]) => (await ready).commands[id](...args))),
  );
  // Registered at once (light: the webview session code loads when a timeline first opens).
  const timeline = registerTimeline(context, folders, log);
  const transcripts = registerReplayDebugger(context, folders, log); // the adapter itself loads on the first debug session
  // The model's reply as it streams, into the timeline of its run.
  void ready.then((parts) => context.subscriptions.push(parts.onDidStream((n) => timeline.stream(n))), () => undefined);
  registerRestore(context, folders, () => timeline.followed(), log);
  const activationMs = performance.now() - t0;
  log.info(`Kite activated in ${activationMs.toFixed(1)} ms`);
  return { version: String(context.extension.packageJSON.version), activationMs, ready, timeline, longTasks, transcripts };
}

export function deactivate(): void {}
