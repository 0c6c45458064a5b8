// Runs a workspace's hook commands with Claude Code's protocol: the event as JSON on stdin
// (hook_event_name, session_id, cwd and the event's own fields); what each answers is read by
// hookAnswer.ts (block, or context for the model). Every command runs like every other: through
// the run's process runner (confined, sandboxed, with a timeout), from the workspace root. Every
// run is a `hook` event. A replay runs no hook command: each answers as the recording says.
import type { EventSink } from '../events/sink';
import type { KiteEvent, Outcome } from '../protocol/events';
import type { ProcessRunner } from '../sandbox/types';
import { answerOf } from './hookAnswer';
import { groupsOf, hookCount, matcherSelects, type HookEventName, type HooksConfig, type SessionStartSource } from './hookConfig';

const DEFAULT_TIMEOUT_S = 60;

/** One firing of an event: what a matcher selects on, the tool_use id (tool events), the stdin fields. */
export interface HookInput {
  id: string | null;
  match: string | null;
  fields: Record<string, unknown>;
}

export interface HookVerdict {
  /** The first hook that blocked (the ones after it did not run); null: none did. */
  blocked: { reason: string; command: string } | null;
  /** What the hooks that ran gave the model (SessionStart, PromptSubmit), in order. */
  context: string[];
}

export interface HookRunnerOptions {
  hooks: HooksConfig;
  /** false: the person has not approved these hooks (kite trust): every hook blocks, none runs. */
  trusted: boolean;
  runner: ProcessRunner;
  root: string;
  log: EventSink;
  sessionId: () => string;
  /** A replay: the recorded run's events; hooks answer from its `hook` events and no command runs. */
  recorded?: readonly KiteEvent[];
}

const UNTRUSTED = 'the workspace hooks are not approved on this machine (run `kite trust` to review and approve them); the call is blocked, not run without them';
const UNRECORDED = 'the recording has no decision of this hook here (a replay never runs hook commands)';
/** Events whose hooks may give the model context. */
const GIVES_CONTEXT: ReadonlySet<HookEventName> = new Set(['SessionStart', 'PromptSubmit']);

type Answer = { decision: 'allow' | 'block'; reason: string; context: string | null; ms: number };

export class HookRunner {
  private readonly recorded: Map<string, KiteEvent[]> | null;

  constructor(private readonly o: HookRunnerOptions) {
    this.recorded = o.recorded ? recordedAnswers(o.recorded) : null;
  }

  /** Runs the event's selected hooks in order; the first block ends it. */
  async run(event: HookEventName, input: HookInput, signal: AbortSignal): Promise<HookVerdict> {
    const context: string[] = [];
    for (const { configured, group } of groupsOf(this.o.hooks, event)) {
      if (!matcherSelects(group.matcher, input.match)) continue;
      for (const h of group.hooks) {
        const a = this.recorded ? this.fromRecording(event, input.id, h.command) : await this.runOne(event, configured, input, h, signal);
        this.o.log.append({ kind: 'hook', event, matcher: group.matcher ?? null, command: h.command, id: input.id, decision: a.decision, reason: a.reason, ms: a.ms, ...(a.context !== null ? { context: a.context } : {}) });
        if (a.decision === 'block') return { blocked: { reason: a.reason, command: h.command }, context };
        if (a.context !== null) context.push(a.context);
      }
    }
    return { blocked: null, context };
  }

  private async runOne(event: HookEventName, configured: string, input: HookInput, h: { command: string; timeout?: number }, signal: AbortSignal): Promise<Answer> {
    const t0 = Date.now();
    if (!this.o.trusted) return { decision: 'block', reason: UNTRUSTED, context: null, ms: 0 };
    const timeout = h.timeout ?? DEFAULT_TIMEOUT_S;
    // Claude Code's name for the event as configured (UserPromptSubmit stays UserPromptSubmit): existing hooks check it.
    const stdin = JSON.stringify({ session_id: this.o.sessionId(), hook_event_name: configured, cwd: this.o.root, ...input.fields });
    const r = answerOf(await this.o.runner.run({ command: h.command, cwd: this.o.root, timeout_s: timeout, stdin, signal }), timeout, GIVES_CONTEXT.has(event));
    return { decision: r.block === null ? 'allow' : 'block', reason: r.block ?? '', context: r.context, ms: Date.now() - t0 };
  }

  private fromRecording(event: HookEventName, id: string | null, command: string): Answer {
    const e = this.recorded?.get(keyOf(event, id, command))?.shift();
    if (!e || e.kind !== 'hook') return { decision: 'block', reason: UNRECORDED, context: null, ms: 0 };
    return { decision: e.decision, reason: e.reason, context: e.context ?? null, ms: e.ms };
  }

  preToolUse(call: { id: string; name: string; args: unknown }, signal: AbortSignal): Promise<HookVerdict> {
    return this.run('PreToolUse', { id: call.id, match: call.name, fields: { tool_name: call.name, tool_input: call.args } }, signal);
  }

  /** After a call ran: a block cannot undo it; its reason is told to the model with the result. */
  postToolUse(call: { id: string; name: string; args: unknown; output: string; is_error: boolean }, signal: AbortSignal): Promise<HookVerdict> {
    return this.run('PostToolUse', { id: call.id, match: call.name, fields: { tool_name: call.name, tool_input: call.args, tool_response: { output: call.output, is_error: call.is_error } } }, signal);
  }

  sessionStart(source: SessionStartSource, signal: AbortSignal): Promise<HookVerdict> {
    return this.run('SessionStart', { id: null, match: source, fields: { source } }, signal);
  }

  /** The briefing, or a person's message (steer). */
  promptSubmit(prompt: string, source: 'briefing' | 'steer', signal: AbortSignal): Promise<HookVerdict> {
    return this.run('PromptSubmit', { id: null, match: null, fields: { prompt, prompt_source: source } }, signal);
  }

  postModelReply(reply: { turn: number; text: string; stop_reason: string; tool_calls: { id: string; name: string; input: unknown }[] }, signal: AbortSignal): Promise<HookVerdict> {
    return this.run('PostModelReply', { id: null, match: null, fields: reply }, signal);
  }

  stop(signal: AbortSignal): Promise<HookVerdict> {
    return this.run('Stop', { id: null, match: null, fields: { stop_hook_active: false } }, signal);
  }

  /** Claude Code's SessionEnd carries `reason`; here it is the outcome. */
  sessionEnd(end: { outcome: Outcome; summary: string }, signal: AbortSignal): Promise<HookVerdict> {
    return this.run('SessionEnd', { id: null, match: null, fields: { reason: end.outcome, outcome: end.outcome, summary: end.summary } }, signal);
  }

  /** How many commands an event runs when none blocks. */
  count(event: HookEventName): number {
    return hookCount(this.o.hooks, event);
  }
}

const keyOf = (event: string, id: string | null, command: string) => `${event}\u0000${id ?? ''}\u0000${command}`;

/** The recorded `hook` events, per event, call and command, in the order they ran. */
function recordedAnswers(events: readonly KiteEvent[]): Map<string, KiteEvent[]> {
  const m = new Map<string, KiteEvent[]>();
  for (const e of events) {
    if (e.kind !== 'hook') continue;
    const k = keyOf(e.event, e.id, e.command);
    const list = m.get(k) ?? [];
    list.push(e);
    m.set(k, list);
  }
  return m;
}
