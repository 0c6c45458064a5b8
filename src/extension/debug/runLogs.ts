// Finding the run log a person means: an explicit argument, the active .jsonl editor, or a pick
// from the workspace's .kite/runs (newest first).
import * as vscode from 'vscode';
import { basename, dirname, sep } from 'node:path';
import { stat } from 'node:fs/promises';

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

export async function pickRun(): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles('.kite/runs/*.jsonl', null, 500);
  if (!files.length) return undefined;
  const withTime = await Promise.all(files.map(async (u) => ({ u, mtime: (await stat(u.fsPath).catch(() => null))?.mtimeMs ?? 0 })));
  withTime.sort((a, b) => b.mtime - a.mtime);
  const pick = await vscode.window.showQuickPick(
    withTime.map(({ u, mtime }) => ({ label: basename(u.fsPath, '.jsonl'), description: vscode.workspace.asRelativePath(u), detail: mtime ? new Date(mtime).toLocaleString() : undefined, path: u.fsPath })),
    { placeHolder: 'Replay which run in the debugger?', matchOnDescription: true },
  );
  return pick?.path;
}

/** The workspace a log belongs to: the folder that holds its .kite/runs (undefined elsewhere). */
export function rootOfLog(log: string): string | undefined {
  const marker = `${sep}.kite${sep}runs${sep}`;
  const at = log.lastIndexOf(marker);
  return at >= 0 && dirname(log).endsWith(`${sep}.kite${sep}runs`) ? log.slice(0, at) : undefined;
}
