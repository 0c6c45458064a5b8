// Finding the run log a person means: an explicit argument, the active .jsonl editor, or a pick
// from the workspace's log folder (log_dir, default .kite/runs; newest first).
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RunLogFolders } from '../runLogFolders';

/**
 * What kite.replayInDebugger accepts: a path, a Uri, or {log, seq} (the timeline's "replay from
 * here"); anything else means "no argument". Checked by hand: this file loads at activation,
 * where zod is not wanted.
 */
export function parseReplayArg(arg: unknown): { log?: string; seq?: number } {
  if (arg instanceof vscode.Uri) return { log: arg.fsPath };
  if (typeof arg === 'string') return arg ? { log: arg } : {};
  if (typeof arg !== 'object' || arg === null) return {};
  const { log, seq } = arg as { log?: unknown; seq?: unknown };
  if (typeof log !== 'string' || !log) return {};
  if (seq === undefined) return { log };
  return typeof seq === 'number' && Number.isInteger(seq) && seq >= 0 ? { log, seq } : {};
}

export function activeLog(): string | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.scheme === 'file' && doc.uri.fsPath.endsWith('.jsonl') ? doc.uri.fsPath : undefined;
}

export async function pickRun(folders: RunLogFolders, placeHolder = 'Replay which run in the debugger?'): Promise<string | undefined> {
  const logs = (await folders.logs()).slice(0, 500);
  if (!logs.length) return undefined;
  const pick = await vscode.window.showQuickPick(
    logs.map(({ path, mtime }) => ({ label: basename(path, '.jsonl'), description: vscode.workspace.asRelativePath(path), detail: mtime ? new Date(mtime).toLocaleString() : undefined, path })),
    { placeHolder, matchOnDescription: true },
  );
  return pick?.path;
}

/** The workspace a log belongs to: the folder whose log folder holds it (undefined elsewhere). */
export async function rootOfLog(log: string): Promise<string | undefined> {
  const { workspaceOfLog } = await import('../../harness/events/logFiles'); // zod: not at activation
  return workspaceOfLog(log);
}
