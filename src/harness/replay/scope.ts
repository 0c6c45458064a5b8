// What the debugger shows and what expressions see at a position: plain-data views built from
// the event index. The Variables view and the expression language use the SAME roots, so every
// variable's evaluateName (e.g. `tool.args.path`, `reply.usage.output_tokens`) works in Watch.
// Views are exact for the moment: a tool call seen at its `proposed` event has no result yet.
import type { Message } from '../protocol/content';
import type { EventOf, KiteEvent } from '../protocol/events';
import { tokensOf } from '../protocol/totals';
import type { ExprScope } from './expressions';
import { indexOfSeq, type EventList } from './eventList';
import { fileContentAt, filesTouchedAt } from './fileContents';
import type { EventIndex } from './eventIndex';

/** Identifiers an expression may start with. */
export const SCOPE_ROOTS = [
  'event', 'kind', 'seq', 'turn', 'tokens', 'cost', 'turns', 'gate_failures',
  'tool', 'reply', 'stop', 'gate', 'progress', 'totals', 'files', 'messages', 'session', 'divergence',
] as const;

export interface ScopeSources {
  index: EventIndex;
  /** Messages sent to the model for the turn of event i (null when there is no model call). */
  messagesFor(i: number): Message[] | null;
  /** Live mode: the recording the live run is compared with. */
  recorded?: EventList | null;
}

/** Recorded vs live at a divergence event, with the recorded event it is about when known. */
export function divergenceView(e: KiteEvent, recorded: EventList | null | undefined): Record<string, unknown> | null {
  if (e.kind !== 'divergence') return null;
  const at = recorded ? indexOfSeq(recorded, e.at_seq) : -1;
  const recordedEvent = recorded && at >= 0 ? recorded.at(at) : null;
  return { what: e.what, at_seq: e.at_seq, id: e.id, recorded: e.recorded, live: e.live, ...(recordedEvent ? { recorded_event: recordedEvent } : {}) };
}

export function replyView(index: EventIndex, i: number): Record<string, unknown> | null {
  const m = index.modelOfGroup[index.groupOfEvent[i]];
  if (m < 0 || m > i) return null;
  const e = index.events.at(m) as EventOf<'model'>;
  return {
    turn: e.turn,
    stop: e.stop,
    usage: {
      input_tokens: e.input_tokens,
      output_tokens: e.output_tokens,
      cache_creation_input_tokens: e.cache_creation_input_tokens,
      cache_read_input_tokens: e.cache_read_input_tokens,
    },
    tokens: tokensOf(e),
    cost: e.cost_usd,
    text: e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'),
    tool_calls: e.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : [])),
    ms: e.ms,
    model: e.model,
    retries: e.retries,
    seq: e.seq,
  };
}

export function toolView(index: EventIndex, i: number): Record<string, unknown> | null {
  const c = index.callAt(i);
  if (!c) return null;
  const ev = (j: number) => (j >= 0 && j <= i ? index.events.at(j) : null);
  const proposed = ev(c.proposed) as EventOf<'proposed'> | null;
  const policy = ev(c.policy) as EventOf<'policy'> | null;
  const approval = ev(c.approval) as EventOf<'approval'> | null;
  const intent = ev(c.intent) as EventOf<'intent'> | null;
  const tool = ev(c.tool) as EventOf<'tool'> | null;
  const answered = approval ? ({ approve: 'approved', edit: 'edited', deny: 'denied' } as const)[approval.decision] : null;
  const status = tool ? (tool.is_error ? 'error' : 'done') : intent ? 'running' : (answered ?? (policy ? `policy: ${policy.decision}` : 'proposed'));
  // From the person's answer on, the args are what runs: their version when they edited it.
  const edited = approval?.decision === 'edit' && approval.edited_args !== undefined ? approval.edited_args : undefined;
  return {
    id: c.id,
    name: c.name,
    status,
    decision: approval?.decision ?? null,
    args: intent?.args ?? tool?.args ?? edited ?? proposed?.args ?? null,
    proposed_args: proposed?.args ?? null,
    result: tool ? tool.output : null,
    is_error: tool ? tool.is_error : null,
    error: tool && tool.is_error ? tool.error_code ?? 'error' : null,
    exit_code: tool?.exit_code ?? null,
    duration_ms: tool ? tool.ms : null,
    path: tool?.path ?? intent?.path ?? null,
    policy: policy ? { decision: policy.decision, rule: policy.rule, reason: policy.reason } : null,
    approval: approval
      ? { decision: approval.decision, reason: approval.reason, always: approval.always, diff: approval.diff, ...(approval.edited_args !== undefined ? { edited_args: approval.edited_args } : {}) }
      : null,
    intent: intent ? { effect: intent.effect, path: intent.path, pre_hash: intent.pre_hash, post_hash: intent.post_hash } : null,
  };
}

export function gateView(index: EventIndex, i: number): Record<string, unknown> | null {
  const g = index.lastGate[i];
  if (g < 0) return null;
  const e = index.events.at(g) as EventOf<'gate'>;
  return {
    attempt: e.attempt,
    passed: e.passed,
    feedback: e.feedback,
    seq: e.seq,
    checks: e.checks.map((c) => ({ command: c.command, exit_code: c.exit_code, timed_out: c.timed_out, ms: c.ms, source: c.source, output_tail: c.output_tail })),
  };
}

export function progressView(index: EventIndex, i: number): Record<string, unknown> | null {
  const p = index.lastProgress[i];
  if (p < 0) return null;
  const e = index.events.at(p);
  if (e.kind === 'progress') return { features: e.features, proposals: e.proposals, seq: e.seq };
  if (e.kind === 'session_start') return { features: e.features, proposals: [], seq: e.seq };
  return null;
}

/** Running totals at event i (the same numbers the reducer's fold gives; a unit test checks). */
export function totalsView(index: EventIndex, i: number): Record<string, unknown> {
  const d = index.tokenDetail;
  return {
    turns: index.turns[i],
    tokens: index.tokens[i],
    cost: Math.round(index.cost[i] * 1e6) / 1e6,
    gate_failures: index.gateFailures[i],
    token_detail: { input: d.input[i], output: d.output[i], cache_write: d.cache_write[i], cache_read: d.cache_read[i] },
    retries: index.retries[i],
    warnings: index.warnings[i],
  };
}

/** path -> content at that moment, or a sentence saying why it is unknown. */
export function filesView(index: EventIndex, i: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of filesTouchedAt(index, i)) {
    const c = fileContentAt(index, p, i);
    out[p] = c.known ? c.content : `<unknown: ${c.reason}>`;
  }
  return out;
}

/** The expression scope at event i. Costly roots are functions, computed only when used. */
export function buildScope(src: ScopeSources, i: number): ExprScope {
  const { index } = src;
  const e = index.events.at(i);
  const reply = replyView(index, i);
  return {
    event: e,
    kind: e.kind,
    seq: e.seq,
    turn: index.events.length ? groupTurn(index, i) : 0,
    tokens: index.tokens[i],
    cost: index.cost[i],
    turns: index.turns[i],
    gate_failures: index.gateFailures[i],
    tool: () => toolView(index, i),
    reply,
    stop: reply?.stop,
    gate: () => gateView(index, i),
    progress: () => progressView(index, i),
    totals: () => totalsView(index, i),
    files: () => filesView(index, i),
    messages: () => src.messagesFor(i),
    session: index.sessionStart,
    divergence: () => divergenceView(e, src.recorded),
  };
}

export function groupTurn(index: EventIndex, i: number): number {
  const m = index.modelOfGroup[index.groupOfEvent[i]];
  if (m >= 0) return (index.events.at(m) as EventOf<'model'>).turn;
  const e = index.events.at(i);
  return e.kind === 'model' || e.kind === 'model_retry' || e.kind === 'proposed' ? e.turn : 0;
}
