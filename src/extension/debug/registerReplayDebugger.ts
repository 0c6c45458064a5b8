// The replay debugger in VS Code: debug type `kite`, the transcript documents, launch.json support
// and "Replay Run in Debugger". Recorded replays run the adapter inline (reading a log is all it
// does); live replays run the agent loop, which never runs in the extension host, so they get
// the stand-alone adapter as a separate process.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { ReplayConfigurationProvider } from './replayConfigurationProvider';
import { activeLog, parseReplayArg, pickRun, rootOfLog } from './runLogs';
import { TRANSCRIPT_SCHEME, TranscriptDocuments, transcriptUri } from './transcriptDocuments';

export const DEBUG_TYPE = 'kite';

export function registerReplayDebugger(context: vscode.ExtensionContext): void {
  const adapterJs = context.asAbsolutePath('dist/debugAdapter.js');
  const transcripts = new TranscriptDocuments();
  context.subscriptions.push(
    transcripts,
    vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      // Loaded on first use: activation stays light.
      createDebugAdapterDescriptor: async (session) => {
        if (session.configuration.mode === 'live') {
          // ELECTRON_RUN_AS_NODE: on desktop the extension host's binary is Electron.
          return new vscode.DebugAdapterExecutable(process.execPath, [adapterJs], { env: { ELECTRON_RUN_AS_NODE: '1', KITE_DAP_TRANSCRIPT_URIS: '1' } });
        }
        const { KiteDebugSession } = await import('../../harness/replay/debugSession');
        return new vscode.DebugAdapterInlineImplementation(new KiteDebugSession({ transcriptUri: (log) => transcriptUri(log).toString() }));
      },
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ReplayConfigurationProvider()),
    vscode.commands.registerCommand('kite.replayInDebugger', (arg?: unknown) => replayInDebugger(arg)),
  );
}

/** Start a replay session; resolves false (after telling the person) when there is no log. */
export async function replayInDebugger(arg?: unknown): Promise<boolean> {
  const { log: given, seq } = parseReplayArg(arg);
  const log = given ?? activeLog() ?? (await pickRun());
  if (!log) {
    void vscode.window.showInformationMessage('Kite: no run log to replay. Open a .kite/runs/*.jsonl file, or run the agent first.');
    return false;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(log));
  const root = rootOfLog(log);
  return vscode.debug.startDebugging(folder, {
    type: DEBUG_TYPE,
    request: 'launch',
    name: `Replay ${basename(log)}`,
    log,
    stopOnEntry: true,
    ...(root ? { root } : {}),
    ...(seq !== undefined ? { seq } : {}),
  });
}
