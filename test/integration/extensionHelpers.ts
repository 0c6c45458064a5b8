// Shared by the extension*.test.ts suites: Kite's test API, a clean sample workspace per test (real
// git), the scripted model setting, and event-driven waits on the real UI (diff editors, CodeLens).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { KiteParts } from '../../src/extension/wireKite';
import type { KiteEvent } from '../../src/harness/protocol/events';
import type { RunEnded } from '../../src/harness/protocol/rpc';
import { testEnv } from './env';
import { waitFor } from './waitFor';

export const KITE_ID = 'kite-dev.kite';

export async function kite(): Promise<KiteParts> {
  const ext = vscode.extensions.getExtension<KiteApi>(KITE_ID);
  assert.ok(ext, `${KITE_ID} is not installed`);
  const api = await ext.activate();
  return api.ready;
}

export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

/**
 * Back to the sample as first committed (runs commit). Logs in .kite/runs are git-ignored and stay
 * (other suites tell new runs from old ones by the logs already there).
 */
export async function resetWorkspace(): Promise<string> {
  const { workspace } = testEnv();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const first = git(workspace, 'rev-list', '--max-parents=0', 'HEAD');
  git(workspace, 'reset', '-q', '--hard', first);
  git(workspace, 'clean', '-q', '-fd');
  return workspace;
}

export function headCommit(): string {
  return git(testEnv().workspace, 'rev-parse', 'HEAD');
}

export function fixtureText(rel: string): string {
  return readFileSync(join(testEnv().repo, 'test', 'fixtures', 'sample', rel), 'utf8');
}

export function scriptedWrite(script: string, toolId: string): string {
  const replies = JSON.parse(readFileSync(join(testEnv().repo, 'test', 'fixtures', 'scripts', script), 'utf8')) as { content: { type: string; id?: string; input?: { content?: string } }[] }[];
  for (const r of replies) for (const b of r.content) if (b.type === 'tool_use' && b.id === toolId && b.input?.content !== undefined) return b.input.content;
  throw new Error(`${script}: no write with id ${toolId}`);
}

/** kite.model = script:<fixture> in the USER settings (workspace settings would dirty the git tree). */
export async function useScript(name: string): Promise<void> {
  const path = join(testEnv().repo, 'test', 'fixtures', 'scripts', name);
  await vscode.workspace.getConfiguration('kite').update('model', `script:${path}`, vscode.ConfigurationTarget.Global);
}

/** Stops every run Kite still drives and waits until each has ended. */
export async function stopRuns(k: KiteParts): Promise<void> {
  for (const r of k.activeRuns()) {
    const ended = nextRunEnd(k);
    if (await vscode.commands.executeCommand<boolean>('kite.stopAgent', { token: r.token })) await ended.catch(() => undefined);
  }
}

export function nextRunEnd(k: KiteParts, timeoutMs = 45_000): Promise<RunEnded> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`no run ended within ${timeoutMs} ms`))), timeoutMs);
    const sub = k.onDidEndRun((e) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(e);
    });
  });
}

/** The diff editor whose right side is Kite's proposal for `rel`, once it is the active editor. */
export function waitForProposal(rel: string, toolId?: string, timeoutMs = 20_000): Promise<vscode.TextEditor> {
  return waitFor(
    `the approval diff for ${rel}${toolId ? ` (${toolId})` : ''}`,
    () => {
      const e = vscode.window.activeTextEditor;
      const u = e?.document.uri;
      return e && u?.scheme === 'kite-proposal' && u.path.endsWith(`/${rel}`) && (!toolId || u.query.endsWith(`/${toolId}`)) ? e : undefined;
    },
    [vscode.window.onDidChangeActiveTextEditor, vscode.window.onDidChangeVisibleTextEditors, vscode.window.tabGroups.onDidChangeTabs],
    timeoutMs,
  );
}

export function proposalTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'kite-proposal');
}

export function waitForPending(k: KiteParts, what: string, match: (p: ReturnType<KiteParts['pendingApprovals']>[number]) => boolean): Promise<ReturnType<KiteParts['pendingApprovals']>[number]> {
  return waitFor(what, () => k.pendingApprovals().find(match), [k.onDidChangeApprovals]);
}

/** The CodeLenses VS Code would render on the proposal, as VS Code asks for them. */
export async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const all = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return all.filter((l) => l.command);
}

/** Clicks a CodeLens: runs its command with its arguments, like the editor does. */
export async function click(lens: vscode.CodeLens): Promise<void> {
  assert.ok(lens.command);
  await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
}

export function readEvents(log: string): KiteEvent[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as KiteEvent);
}

export function toolEvent(events: KiteEvent[], id: string): Extract<KiteEvent, { kind: 'tool' }> {
  const t = events.find((e): e is Extract<KiteEvent, { kind: 'tool' }> => e.kind === 'tool' && e.id === id);
  assert.ok(t, `no tool event for ${id}`);
  return t;
}

export function approvalEvent(events: KiteEvent[], id: string): Extract<KiteEvent, { kind: 'approval' }> {
  const a = events.find((e): e is Extract<KiteEvent, { kind: 'approval' }> => e.kind === 'approval' && e.id === id);
  assert.ok(a, `no approval event for ${id}`);
  return a;
}

/** Re-reads an async value whenever `events` fire until `ok` holds. */
export async function waitForAsync<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, events: vscode.Event<unknown>[], timeoutMs = 15_000): Promise<T> {
  let last: T | undefined;
  let latest: T | undefined;
  const check = (): T | undefined => (latest !== undefined && ok(latest) ? latest : undefined);
  const refresh = async (): Promise<void> => {
    latest = await read();
    last = latest;
  };
  await refresh();
  if (check()) return latest as T;
  const bump = new vscode.EventEmitter<void>();
  const subs = events.map((e) => e(() => void refresh().then(() => bump.fire())));
  try {
    return await waitFor(what, check, [bump.event], timeoutMs);
  } catch (e) {
    throw new Error(`${(e as Error).message}; last value: ${JSON.stringify(last)}`);
  } finally {
    for (const s of subs) s.dispose();
    bump.dispose();
  }
}
