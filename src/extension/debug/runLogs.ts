// Finding the run log a person means: an explicit argument, the active .jsonl editor, or a pick
// from the workspace's .kite/runs (newest first).
import * as vscode from 'vscode';
import { z } from 'zod';
import { basename, dirname, sep } from 'node:path';
import { stat } from 'node:fs/promises';

/** What kite.replayInDebugger accepts: a path, a Uri, or {log, seq} (the timeline's "replay from here"). */
const ReplayArgSchema = z.union([z.string().min(1), z.object({ log: z.string().min(1), seq: z.number().int().nonnegative().optional() })]);

export function parseReplayArg(arg: unknown): { log?: string; seq?: number } {
  if (arg instanceof vscode.Uri) return { log: arg.fsPath };
  const r = ReplayArgSchema.safeParse(arg);
  if (!r.success) return {};
  return typeof r.data === 'string' ? { log: r.data } : r.data;
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
