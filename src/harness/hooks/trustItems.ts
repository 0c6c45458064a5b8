// What a workspace asks the person to trust before a run: today its hook commands (MCP servers
// plug in here as more items). One list serves `kite trust` and VS Code's trust modal, and the
// digest the person approved is checked again when the approval is stored, so what is recorded is
// exactly what was shown.
import { loadConfig } from '../config/config';
import { hasHooks, RUN_HOOK_EVENTS, type HooksConfig } from './hookConfig';
import { hooksDigest, isTrusted, trustWorkspace } from './trust';

export interface TrustItem {
  kind: 'hook';
  /** Where it comes from, e.g. "PreToolUse [write_file|edit_file]". */
  label: string;
  /** The exact command line that would run. */
  command: string;
  timeout_s: number | null;
}

export interface TrustStatus {
  root: string;
  items: TrustItem[];
  /** True when nothing needs trust, or these exact items are approved on this machine. */
  trusted: boolean;
  /** Identifies the items shown; trustShown() refuses a different one. */
  digest: string;
}

export function hookTrustItems(hooks: HooksConfig): TrustItem[] {
  return RUN_HOOK_EVENTS.flatMap((event) =>
    (hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => ({ kind: 'hook' as const, label: `${event}${g.matcher ? ` [${g.matcher}]` : ''}`, command: h.command, timeout_s: h.timeout ?? null }))),
  );
}

export function trustStatus(root: string, env: NodeJS.ProcessEnv = process.env): TrustStatus {
  const { hooks } = loadConfig(root);
  if (!hasHooks(hooks)) return { root, items: [], trusted: true, digest: hooksDigest({}) };
  return { root, items: hookTrustItems(hooks), trusted: isTrusted(root, hooks, env), digest: hooksDigest(hooks) };
}

export class TrustChangedError extends Error {
  readonly code = 'trust_changed';
}

/** Records the approval of what the person was shown (digest), refusing when the config changed since. */
export function trustShown(root: string, digest: string, env: NodeJS.ProcessEnv = process.env): string {
  const { hooks } = loadConfig(root);
  if (hooksDigest(hasHooks(hooks) ? hooks : {}) !== digest) throw new TrustChangedError(`the hooks in ${root}/.kite/config.json changed after you were asked; nothing was approved, start again to see the new commands`);
  return trustWorkspace(root, hooks, env);
}
