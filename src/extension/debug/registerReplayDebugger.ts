// The replay debugger in VS Code: debug type `kite`, the transcript documents, launch.json support
// and "Replay Run in Debugger". Recorded replays of ordinary logs run the adapter inline (reading
// a log is all it does); live replays run the agent loop, which never runs in the extension host,
// and very large logs take seconds to index, so both get the stand-alone adapter as a process —
// started by a worker thread and reached on a private socket (harness/replay/adapterSpawn.ts), so
// the host's loop never waits for the spawn.
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { ReplayConfigurationProvider } from './replayConfigurationProvider';
import type { RunLogFolders } from '../runLogFolders';
import { activeLog, parseReplayArg, pickRun, rootOfLog } from './runLogs';
import { DEBUG_TYPE, TRANSCRIPT_SCHEME, TranscriptDocuments, transcriptUri } from './transcriptDocuments';
import { WriteDocuments, writeDocUri } from './writeDocuments';
import { ReplaySessions } from './replaySessions';
import { adapterCommand, adapterEnvironment, adapterRunsOutOfProcess } from '../../harness/replay/adapterPlacement';
import { WRITE_DOC_SCHEME } from '../../harness/replay/writeSnapshot';
import { startAdapterProcess, type StartedAdapter } from '../../harness/replay/adapterSpawn';

export function registerReplayDebugger(context: vscode.ExtensionContext, folders: RunLogFolders, log?: vscode.LogOutputChannel): TranscriptDocuments {
  const adapterJs = context.asAbsolutePath('dist/debugAdapter.js');
  const adapters = new Set<StartedAdapter>();
  const sessions = new ReplaySessions((log) => transcripts.refresh(log));
  const transcripts = new TranscriptDocuments(sessions);
  context.subscriptions.push(
    { dispose: () => adapters.forEach((a) => a.kill()) },
    sessions,
    transcripts,
    vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, transcripts),
    vscode.workspace.registerTextDocumentContentProvider(WRITE_DOC_SCHEME, new WriteDocuments()),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      // Loaded on first use: activation stays light.
      createDebugAdapterDescriptor: async (session) => {
        if (adapterRunsOutOfProcess(session.configuration.mode, session.configuration.log)) {
          const { command, args } = adapterCommand(process.execPath, adapterJs);
          const env = adapterEnvironment(session.configuration.mode);
          // Started by a worker thread, served on a private socket: VS Code would spawn an
          // executable on the host's loop, which waits there until the child has exec'd.
          try {
            const adapter = await startAdapterProcess({ command, args, env: { ...process.env, ...env } });
            adapters.add(adapter);
            void adapter.exited.then(() => adapters.delete(adapter));
            return new vscode.DebugAdapterNamedPipeServer(adapter.pipe);
          } catch (e) {
            log?.warn(`replay: the debug adapter could not be started off the extension host's loop (${e instanceof Error ? e.message : String(e)}); VS Code starts it instead`);
            return new vscode.DebugAdapterExecutable(command, args, { env });
          }
        }
        const { KiteDebugSession } = await import('../../harness/replay/debugSession');
        return new vscode.DebugAdapterInlineImplementation(new KiteDebugSession({ transcriptUri: (log, window) => transcriptUri(log, window).toString(), writeUri: (log, seq, path) => writeDocUri(log, seq, path).toString() }));
      },
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ReplayConfigurationProvider(folders)),
    vscode.commands.registerCommand('kite.replayInDebugger', (arg?: unknown) => replayInDebugger(folders, arg)),
  );
  return transcripts;
}

/** Start a replay session; resolves false (after telling the person) when there is no log. */
export async function replayInDebugger(folders: RunLogFolders, arg?: unknown): Promise<boolean> {
  const { log: given, seq } = parseReplayArg(arg);
  const log = given ?? activeLog() ?? (await pickRun(folders));
  if (!log) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Kite: no run log to replay. Open a run log (.jsonl in the log folder, .kite/runs by default), or run the agent first.'));
    return false;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(log));
  const root = await rootOfLog(log);
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
