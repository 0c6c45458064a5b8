// Hooks run commands the workspace names, so a workspace's hooks run only after the person
// approved them once, keyed to a hash of the hook config (asked again when it changes). The
// approval lives outside the workspace, in the person's own Kite state (a repository cannot
// approve itself): $KITE_STATE_DIR, else $XDG_CONFIG_HOME/kite, else ~/.config/kite.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { HooksConfig } from './hookConfig';

export function kiteStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.KITE_STATE_DIR || join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'kite'));
}

const trustFile = (env: NodeJS.ProcessEnv) => join(kiteStateDir(env), 'trust.json');

export function hooksDigest(hooks: HooksConfig): string {
  return createHash('sha256').update(JSON.stringify(hooks)).digest('hex');
}

/** Per workspace: the approved hooks, and (mcp/mcpTrust.ts) the approved MCP servers by name. */
export type WorkspaceTrust = { hooks_sha256?: string; approved_at?: string; mcp_servers?: Record<string, { sha256: string; approved_at: string }> };
export type TrustFile = { workspaces: Record<string, WorkspaceTrust> };

export function readTrust(env: NodeJS.ProcessEnv): TrustFile {
  try {
    const raw = JSON.parse(readFileSync(trustFile(env), 'utf8')) as Partial<TrustFile>;
    return { workspaces: raw.workspaces && typeof raw.workspaces === 'object' ? raw.workspaces : {} };
  } catch {
    return { workspaces: {} }; // none yet (or unreadable): nothing is approved
  }
}

export const trustKey = (root: string) => (existsSync(root) ? realpathSync(root) : resolve(root));

/** Where the approval would be stored, when that is inside the workspace itself (refused). */
export function stateInsideWorkspace(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const r = relative(trustKey(root), kiteStateDir(env));
  return r === '' || (!r.startsWith('..') && !isAbsolute(r)) ? kiteStateDir(env) : null;
}

export function isTrusted(root: string, hooks: HooksConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  if (stateInsideWorkspace(root, env)) return false;
  return readTrust(env).workspaces[trustKey(root)]?.hooks_sha256 === hooksDigest(hooks);
}

export function trustWorkspace(root: string, hooks: HooksConfig, env: NodeJS.ProcessEnv = process.env, now = new Date()): string {
  const inside = stateInsideWorkspace(root, env);
  if (inside) throw new Error(`Kite's state folder ${inside} is inside the workspace; a workspace cannot approve its own hooks (set KITE_STATE_DIR elsewhere)`);
  const t = readTrust(env);
  t.workspaces[trustKey(root)] = { ...t.workspaces[trustKey(root)], hooks_sha256: hooksDigest(hooks), approved_at: now.toISOString() };
  return writeTrust(t, env);
}

/** Replaces the trust file atomically; returns its path. */
export function writeTrust(t: TrustFile, env: NodeJS.ProcessEnv = process.env): string {
  const file = trustFile(env);
  mkdirSync(kiteStateDir(env), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(t, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
  return file;
}
