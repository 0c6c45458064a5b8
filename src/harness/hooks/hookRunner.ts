// Runs a workspace's hook commands with Claude Code's protocol: the event as JSON on stdin
// (hook_event_name, session_id, cwd, tool_name, tool_input); exit 2 with a reason on stderr, or
// {"decision": "block", "reason": "…"} on stdout, blocks. Every command runs like every other:
// through the run's process runner (confined, sandboxed, with a timeout), from the workspace root.
// Fail closed: a hook that cannot run, times out, fails or answers garbage blocks, saying so.
// Every run is a `hook` event.
import type { EventSink } from '../events/sink';
import type { ProcessRunner, RunResult } from '../sandbox/types';
import { matcherSelects, type HookEventName, type HooksConfig } from './hookConfig';

const DEFAULT_TIMEOUT_S = 60;

export interface HookCall {
  id: string | null;
  tool_name: string | null;
  tool_input: unknown;
  tool_response?: { output: string; is_error: boolean }; // PostToolUse
}

export interface HookRunnerOptions {
  hooks: HooksConfig;
  /** false: the person has not approved these hooks (kite trust): every hook blocks, none runs. */
  trusted: boolean;
  runner: ProcessRunner;
  root: string;
  log: EventSink;
  sessionId: () => string;
}

const firstLine = (s: string) => s.trim().split('\n')[0]?.slice(0, 300) ?? '';

/** What a finished hook command decided: null allows, a string is the reason it blocks. */
export function decisionOf(r: RunResult, timeoutS: number): string | null {
  if (r.refused) return `the hook could not run: ${firstLine(r.refused)}`;
  if (r.timed_out) return `the hook timed out after ${timeoutS} s`;
  if (r.cancelled) return 'the hook was cancelled';
  if (r.exit_code === 2) return r.stderr.trim() || 'the hook exited 2 (block) without a reason on stderr';
  if (r.exit_code !== 0) return `the hook failed (exit ${r.exit_code ?? 'killed'})${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''}`;
  const out = r.stdout.trim();
  if (!out) return null;
  let v: unknown;
  try {
    v = JSON.parse(out);
  } catch {
    return `the hook answered something that is not JSON: ${JSON.stringify(out.slice(0, 100))}`;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `the hook answered JSON that is not an object: ${out.slice(0, 100)}`;
  const o = v as { decision?: unknown; reason?: unknown; continue?: unknown; stopReason?: unknown; hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown } };
  const reason = (x: unknown, fallback: string) => (typeof x === 'string' && x.trim() ? x.trim() : fallback);
  if (o.decision === 'block') return reason(o.reason, 'blocked by the hook (no reason given)');
  if (o.hookSpecificOutput?.permissionDecision === 'deny') return reason(o.hookSpecificOutput.permissionDecisionReason, 'denied by the hook (no reason given)');
  if (o.continue === false) return reason(o.stopReason, 'the hook said not to continue');
  return null;
}

export class HookRunner {
  constructor(private readonly o: HookRunnerOptions) {}

  /** Runs the event's hooks in order; the first block ends it. Returns the block's reason, or null. */
  async run(event: HookEventName, call: HookCall, signal: AbortSignal): Promise<string | null> {
    for (const group of this.o.hooks[event] ?? []) {
      if (event !== 'Stop' && !matcherSelects(group.matcher, call.tool_name)) continue;
      for (const h of group.hooks) {
        const t0 = Date.now();
        const timeout = h.timeout ?? DEFAULT_TIMEOUT_S;
        let reason: string | null;
        if (!this.o.trusted) reason = 'the workspace hooks are not approved on this machine (run `kite trust` to review and approve them); the call is blocked, not run without them';
        else {
          const stdin = JSON.stringify({ session_id: this.o.sessionId(), hook_event_name: event, cwd: this.o.root, ...(event === 'Stop' ? { stop_hook_active: false } : { tool_name: call.tool_name, tool_input: call.tool_input, ...(call.tool_response ? { tool_response: call.tool_response } : {}) }) });
          reason = decisionOf(await this.o.runner.run({ command: h.command, cwd: this.o.root, timeout_s: timeout, stdin, signal }), timeout);
        }
        this.o.log.append({ kind: 'hook', event, matcher: group.matcher ?? null, command: h.command, id: call.id, decision: reason === null ? 'allow' : 'block', reason: reason ?? '', ms: Date.now() - t0 });
        if (reason !== null) return reason;
      }
    }
    return null;
  }

  preToolUse(call: { id: string; name: string; args: unknown }, signal: AbortSignal): Promise<string | null> {
    return this.run('PreToolUse', { id: call.id, tool_name: call.name, tool_input: call.args }, signal);
  }

  /** After a call ran: a block cannot undo it; its reason is told to the model with the result. */
  postToolUse(call: { id: string; name: string; args: unknown; output: string; is_error: boolean }, signal: AbortSignal): Promise<string | null> {
    return this.run('PostToolUse', { id: call.id, tool_name: call.name, tool_input: call.args, tool_response: { output: call.output, is_error: call.is_error } }, signal);
  }
}
