// What a finished hook command said, read with Claude Code's protocol: exit 2 with a reason on
// stderr, or {"decision": "block", "reason": "…"} on stdout, blocks. Fail closed: a hook that
// could not run, timed out, failed or answered garbage blocks, saying so. SessionStart and
// PromptSubmit hooks may also give the model context: hookSpecificOutput.additionalContext, or
// (exit 0) plain text on stdout.
import type { RunResult } from '../sandbox/types';

export interface HookAnswer {
  /** Why the hook blocks; null: it allows. */
  block: string | null;
  /** Text for the model (SessionStart, PromptSubmit); null: none. */
  context: string | null;
}

const firstLine = (s: string) => s.trim().split('\n')[0]?.slice(0, 300) ?? '';
const blocks = (block: string): HookAnswer => ({ block, context: null });

/** `textIsContext`: plain (non-JSON) stdout is context for the model rather than garbage. */
export function answerOf(r: RunResult, timeoutS: number, textIsContext: boolean): HookAnswer {
  if (r.refused) return blocks(`the hook could not run: ${firstLine(r.refused)}`);
  if (r.timed_out) return blocks(`the hook timed out after ${timeoutS} s`);
  if (r.cancelled) return blocks('the hook was cancelled');
  if (r.exit_code === 2) return blocks(r.stderr.trim() || 'the hook exited 2 (block) without a reason on stderr');
  if (r.exit_code !== 0) return blocks(`the hook failed (exit ${r.exit_code ?? 'killed'})${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''}`);
  const out = r.stdout.trim();
  if (!out) return { block: null, context: null };
  // Text that looks like JSON must be JSON: a broken answer is never taken for context.
  if (textIsContext && !/^[[{]/.test(out)) return { block: null, context: out };
  let v: unknown;
  try {
    v = JSON.parse(out);
  } catch {
    return blocks(`the hook answered something that is not JSON: ${JSON.stringify(out.slice(0, 100))}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return blocks(`the hook answered JSON that is not an object: ${out.slice(0, 100)}`);
  const o = v as { decision?: unknown; reason?: unknown; continue?: unknown; stopReason?: unknown; hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown; additionalContext?: unknown } };
  const reason = (x: unknown, fallback: string) => (typeof x === 'string' && x.trim() ? x.trim() : fallback);
  if (o.decision === 'block') return blocks(reason(o.reason, 'blocked by the hook (no reason given)'));
  if (o.hookSpecificOutput?.permissionDecision === 'deny') return blocks(reason(o.hookSpecificOutput.permissionDecisionReason, 'denied by the hook (no reason given)'));
  if (o.continue === false) return blocks(reason(o.stopReason, 'the hook said not to continue'));
  const extra = o.hookSpecificOutput?.additionalContext;
  if (extra !== undefined && typeof extra !== 'string') return blocks(`the hook answered an additionalContext that is not text: ${JSON.stringify(extra).slice(0, 100)}`);
  return { block: null, context: textIsContext && extra?.trim() ? extra.trim() : null };
}
