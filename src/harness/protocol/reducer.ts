// Run state as a fold over the event log: one pure reducer used by resume, replay, the timeline
// and the debugger. Deterministic, no I/O, browser-safe. applyEvent mutates and returns the same
// object (O(1) amortized per event); take snapshots with cloneRunState (its cost grows with what is
// open in the run, not with the run's length: finished calls and messages are shared).
import type { StopReason, ToolUseBlock } from './content';
import { callRecord, tableOf } from './callTable';
import { Conversation } from './conversation';
import { countRepeat, repetitionKey, resetAfterChange } from './repetition';
import { addModelEvent, addTokens, emptyTokenTotals, judgeCallsOf, type TokenTotals } from './totals';
import { cloneContextTally, emptyContextTally, tallyEvent, type ContextTally } from './contextTally';
import {
  assertNever,
  type CheckResult,
  type Decision,
  type Effect,
  type EventOf,
  type FeatureStatus,
  type KiteEvent,
  type Limits,
  type Mode,
  type Outcome,
} from './events';

/** Where an unfinished call stopped: after its proposal, its policy verdict, waiting for the
 * person, answered by the person (approve, edit or deny), or with its intent on disk (the tool may have run). */
export type CallStage = 'proposed' | 'policy' | 'approval' | 'answered' | 'intent' | 'done';

/** The events of a call the log already holds, kept while it is unfinished: finishing it after a
 *  crash or a pause re-runs the call without logging (or asking) any of them twice. */
export type RecordedKind = 'proposed' | 'policy' | 'approval_request' | 'approval' | 'intent';
export type RecordedEvents = Partial<{ [K in RecordedKind]: EventOf<K> }>;

export interface CallState {
  id: string;
  name: string;
  turn: number;
  stage: CallStage;
  proposedSeq: number | null;
  /** Proposed arguments; released (undefined) once the call is done, the log keeps them. */
  args: unknown;
  decision: Decision | null;
  rule: string | null;
  approval: 'approve' | 'deny' | 'edit' | null;
  /** Arguments after the person's edit, while the call is unfinished. */
  editedArgs?: unknown;
  intent: EventOf<'intent'> | null; // kept while unfinished (resume needs pre/post hashes)
  effect: Effect | null;
  path: string | null;
  isError: boolean | null;
  errorCode: string | null;
  exitCode: number | null;
  resultSeq: number | null;
  recovered: boolean;
  /** Repetition key (tool + arguments), while unfinished; only in a live fold. */
  repeatKey: string | null;
  /** Its events so far, while unfinished (released when done). */
  recorded: RecordedEvents | null;
}

export type { TokenTotals } from './totals';

export interface RunMeta {
  run: string;
  feature: string;
  title: string;
  model: string;
  mode: Mode; // as recorded at start; RunState.mode is the current one (after resumes)
  limits: Limits;
  git_head: string | null;
  root: string;
  branch: string | null;
  replay_of: string | null;
  started_at: string;
  max_gate_failures: number;
  max_tokens: number;
  checks: string[];
  verify: string | null;
  command_timeout_s: number;
}

export interface GateRecord {
  seq: number;
  attempt: number;
  passed: boolean;
  feedback: string;
  checks: CheckResult[];
  /** Nothing verified the claim (no gate command): the run ends unverified. */
  unverified?: string;
  /** The run had changed no file (the feature expects a change). */
  noChange?: boolean;
}

/** What the run does next: ask the model, finish its tool calls, run the gate (the model said
 * done), write its outcome (gate passed, attempts used up, budget stopped, the model refused or
 * ran out of context), or nothing (ended). The loop (loop/session.ts) picks its step from it. */
export type Phase = 'not_started' | 'awaiting_model' | 'tools' | 'awaiting_gate' | 'finishing' | 'ended';

export interface RunState {
  meta: RunMeta | null;
  start: EventOf<'session_start'> | null;
  mode: Mode | null;
  limits: Limits | null;
  conversation: Conversation | null; // null when folded with { conversation: false }
  /** Repetition key -> times proposed since the last write that changed a file (live folds only). */
  repeats: Map<string, number>;
  phase: Phase;
  events: number;
  lastSeq: number;
  lastT: number;
  turns: number;
  modelCalls: number; // model events + compaction summaries (each one a model reply): a scripted model continues at this reply index
  lastStop: StopReason | null;
  lastText: string; // text of the latest assistant reply that had text
  tokens: TokenTotals;
  cost_usd: number;
  retries: number;
  calls: Record<string, CallState>;
  /** Unfinished calls (proposed, no tool result yet), in proposal order: id -> stage. */
  pending: Record<string, CallStage>;
  pendingApprovals: Record<string, EventOf<'approval_request'>>;
  gates: GateRecord[];
  gateFailures: number;
  /** A failed gate whose feedback `user` event is not in the log yet. */
  feedbackOwed: string | null;
  files: Record<string, { post_hash: string | null; seq: number }>;
  /** Files the person saved in the editor during the run: path -> hash after the save and its seq. */
  personEdits: Record<string, { hash: string | null; seq: number }>;
  warnings: { seq: number; code: string; message: string }[];
  budgetStop: { seq: number; limit: EventOf<'budget_stop'>['limit']; used: number; max: number; tool?: string; per_tool?: boolean } | null;
  divergences: EventOf<'divergence'>[];
  paused: { seq: number; reason: string; pending: string[] } | null;
  resumed: number;
  briefed: boolean; // the briefing `user` event is in the log
  /** The last reply and its PostModelReply hooks so far: how many allowed it, the reason one blocked it. */
  replyHooks: { turn: number; text: string; stop: string; calls: { id: string; name: string; input: unknown }[]; allowed: number; blocked: string | null } | null;
  progressCount: number; // `progress` events: the first is the start, a later one the closing update
  features: { id: string; title: string; status: FeatureStatus }[];
  proposals: string[];
  /** Conversation size and what tool results put into it (protocol/contextTally.ts). */
  context: ContextTally;
  /** Set by initialRunState({ contextTally: false }): `context` stays empty (a view that shows no sizes). */
  skipContextTally?: true;
  compactions: EventOf<'compaction'>[];
  outcome: { seq: number; status: Outcome; commit: string | null; summary: string; error: string | null; turns: number; tokens: number; cost_usd: number } | null;
}

/** `contextTally: false` skips counting the conversation's size (`context` stays empty): for views that
 *  never show it (`kite timeline`), where sizing every reply's content costs ~5% of reading a log. */
export function initialRunState(opts: { conversation?: boolean; contextTally?: boolean } = {}): RunState {
  return {
    ...(opts.contextTally === false ? { skipContextTally: true as const } : {}),
    meta: null,
    start: null,
    mode: null,
    limits: null,
    conversation: opts.conversation === false ? null : new Conversation(),
    repeats: new Map(),
    phase: 'not_started',
    events: 0,
    lastSeq: -1,
    lastT: 0,
    turns: 0,
    modelCalls: 0,
    lastStop: null,
    lastText: '',
    tokens: emptyTokenTotals(),
    cost_usd: 0,
    retries: 0,
    calls: callRecord<CallState>(),
    pending: {},
    pendingApprovals: {},
    gates: [],
    gateFailures: 0,
    feedbackOwed: null,
    files: {},
    personEdits: {},
    warnings: [],
    budgetStop: null,
    divergences: [],
    paused: null,
    resumed: 0,
    briefed: false,
    replyHooks: null,
    progressCount: 0,
    features: [],
    proposals: [],
    context: emptyContextTally(),
    compactions: [],
    outcome: null,
  };
}

function newCall(id: string, name: string, turn: number, args: unknown, seq: number | null): CallState {
  return { id, name, turn, stage: 'proposed', proposedSeq: seq, args, decision: null, rule: null, approval: null, intent: null, effect: null, path: null, isError: null, errorCode: null, exitCode: null, resultSeq: null, recovered: false, repeatKey: null, recorded: null };
}

/** The call for an id, created when the log has no `proposed` for it (Python-Kite logs). */
function callFor(s: RunState, id: string, name: string, args: unknown): CallState {
  return writableCall(s, id) ?? addCall(s, newCall(id, name, s.turns, args, null));
}

/** The call to change: copied first when a snapshot shares it (calls are copy-on-write). */
function writableCall(s: RunState, id: string): CallState | undefined {
  return tableOf(s.calls).writable(id);
}

function addCall(s: RunState, c: CallState): CallState {
  tableOf(s.calls).set(c.id, c);
  return c;
}

function setStage(s: RunState, c: CallState, stage: CallStage): void {
  c.stage = stage;
  if (stage === 'done') delete s.pending[c.id];
  else s.pending[c.id] = stage;
}

/** Keeps a call's event while it is unfinished (live folds: the loop finishes calls from them). */
function remember(s: RunState, c: CallState, e: EventOf<RecordedKind>): void {
  if (!s.conversation) return;
  (c.recorded ??= {})[e.kind] = e as never;
}

/** The reply's text blocks, joined: a closing summary when the model says done. */
export function replyText(content: readonly { type: string; text?: string }[]): string {
  // A loop, not filter/map/join: every model event of every fold passes here (issue 17).
  let text: string | null = null;
  for (const b of content) if (b.type === 'text') text = text === null ? (b.text ?? '') : `${text}\n${b.text ?? ''}`;
  return text === null ? '' : text.trim();
}

/** What a model event adds to the run's counts (turns, calls, tokens, cost): all `kite timeline`'s last line reads of it. */
export function foldModelCounts(s: RunState, e: EventOf<'model'>): void {
  s.turns = Math.max(s.turns, e.turn);
  s.modelCalls++;
  s.lastStop = e.stop;
  addModelEvent(s, e);
}

export function applyEvent(s: RunState, e: KiteEvent): RunState {
  s.events++;
  s.lastSeq = e.seq;
  s.lastT = e.t;
  if (!s.skipContextTally) tallyEvent(s.context, e);
  switch (e.kind) {
    case 'session_start':
      s.start = e;
      s.meta = {
        run: e.run,
        feature: e.feature,
        title: e.title,
        model: e.model,
        mode: e.mode,
        limits: e.limits,
        git_head: e.git_head,
        root: e.root,
        branch: e.branch,
        replay_of: e.replay_of,
        started_at: e.started_at,
        max_gate_failures: e.max_gate_failures,
        max_tokens: e.max_tokens,
        checks: e.checks,
        verify: e.verify,
        command_timeout_s: e.command_timeout_s,
      };
      s.mode = e.mode;
      s.limits = e.limits;
      if (e.features.length) s.features = e.features;
      s.phase = 'awaiting_model';
      break;
    case 'user':
      s.conversation?.addUserText(e.text);
      if (e.reason === 'gate_feedback') s.feedbackOwed = null;
      else if (e.reason === 'briefing') s.briefed = true;
      // The model said done, then the person (or a hook) spoke: it answers them before the gate decides.
      else if ((e.reason === 'steer' || e.reason === 'hook_context') && s.phase === 'awaiting_gate') s.phase = 'awaiting_model';
      break;
    case 'model': {
      foldModelCounts(s, e);
      s.conversation?.addAssistant(e.content);
      const text = replyText(e.content);
      if (text) s.lastText = text;
      s.phase = phaseAfterReply(e.stop, e.content.some((b) => b.type === 'tool_use'));
      s.replyHooks = { turn: e.turn, text, stop: e.stop, calls: e.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, input: b.input }] : [])), allowed: 0, blocked: null };
      break;
    }
    case 'model_retry':
      s.retries++;
      break;
    case 'proposed': {
      const c = addCall(s, newCall(e.id, e.name, e.turn, e.args, e.seq));
      setStage(s, c, 'proposed');
      if (s.conversation) {
        c.repeatKey = repetitionKey(e.name, e.args);
        countRepeat(s.repeats, c.repeatKey);
      }
      remember(s, c, e);
      break;
    }
    case 'policy': {
      const c = callFor(s, e.id, e.name, undefined);
      c.decision = e.decision;
      c.rule = e.rule;
      setStage(s, c, 'policy');
      remember(s, c, e);
      break;
    }
    case 'approval_request': {
      const c = callFor(s, e.id, e.name, e.args);
      c.effect = e.effect;
      c.path = e.path;
      s.pendingApprovals[e.id] = e;
      setStage(s, c, 'approval');
      remember(s, c, e);
      break;
    }
    case 'approval': {
      const c = writableCall(s, e.id);
      delete s.pendingApprovals[e.id];
      if (!c) break;
      c.approval = e.decision;
      if (e.decision === 'edit') c.editedArgs = e.edited_args;
      setStage(s, c, 'answered');
      remember(s, c, e);
      break;
    }
    case 'intent': {
      const c = callFor(s, e.id, e.name, e.args);
      c.intent = e;
      c.effect = e.effect;
      c.path = e.path;
      setStage(s, c, 'intent');
      remember(s, c, e);
      break;
    }
    case 'tool': {
      const c = callFor(s, e.id, e.name, e.args);
      const wrote = !e.is_error && (c.effect === 'write' || (e.post_hash !== undefined && e.post_hash !== null));
      const path = e.path ?? c.path;
      if (wrote && path) s.files[path] = { post_hash: e.post_hash ?? c.intent?.post_hash ?? null, seq: e.seq };
      // A write that changed a file: every other call may now give a different answer.
      if (!e.is_error && c.repeatKey !== null && c.intent?.effect === 'write' && c.intent.pre_hash !== c.intent.post_hash) resetAfterChange(s.repeats, c.repeatKey);
      c.isError = e.is_error;
      c.errorCode = e.error_code;
      c.exitCode = e.exit_code ?? null;
      c.path = path ?? null;
      c.resultSeq = e.seq;
      c.recovered = e.recovered === true;
      c.args = undefined;
      c.editedArgs = undefined;
      c.intent = null;
      c.repeatKey = null;
      c.recorded = null;
      delete s.pendingApprovals[e.id];
      setStage(s, c, 'done');
      const conv = s.conversation;
      if (conv) {
        conv.addToolResult(e.id, e.output, e.is_error);
        if (conv.unansweredToolUses().length === 0 && s.phase === 'tools') s.phase = 'awaiting_model';
      } else if (Object.keys(s.pending).length === 0 && s.phase === 'tools') s.phase = 'awaiting_model';
      break;
    }
    case 'gate':
      // A judged check's call counts like a reply (tokens, dollars), not a turn nor a scripted reply.
      for (const j of judgeCallsOf(e)) addModelEvent(s, j);
      s.gates.push({ seq: e.seq, attempt: e.attempt, passed: e.passed, feedback: e.feedback, checks: e.checks, ...(e.unverified !== undefined ? { unverified: e.unverified } : {}), ...(e.no_change ? { noChange: true } : {}) });
      // No command to run is not a failed attempt the model could fix: the run ends unverified.
      if (e.unverified !== undefined && !e.passed) {
        s.phase = 'finishing';
        break;
      }
      if (!e.passed) s.gateFailures++;
      if (e.passed || (s.meta !== null && s.gateFailures >= s.meta.max_gate_failures)) s.phase = 'finishing';
      else {
        s.phase = 'awaiting_model';
        s.feedbackOwed = e.feedback;
      }
      break;
    case 'budget_stop':
      s.budgetStop = { seq: e.seq, limit: e.limit, used: e.used, max: e.max, ...(e.tool ? { tool: e.tool } : {}), ...(e.per_tool ? { per_tool: true } : {}) };
      s.phase = 'finishing';
      break;
    case 'compaction':
      s.conversation?.applyCompaction(e);
      s.compactions.push(e);
      if (e.summary) {
        // The summary was a model call: its tokens and dollars count like a reply's (not a turn).
        addTokens(s.tokens, e.summary);
        s.cost_usd += e.summary.cost_usd;
        s.modelCalls++;
      }
      break;
    case 'warning':
      s.warnings.push({ seq: e.seq, code: e.code, message: e.message });
      break;
    case 'paused':
      s.paused = { seq: e.seq, reason: e.reason, pending: e.pending };
      break;
    case 'resumed':
      s.resumed++;
      s.paused = null;
      s.mode = e.mode;
      s.limits = e.limits;
      break;
    case 'divergence':
      s.divergences.push(e);
      break;
    case 'progress':
      s.progressCount++;
      s.features = e.features;
      s.proposals = e.proposals;
      break;
    case 'session_end':
      s.outcome = { seq: e.seq, status: e.status, commit: e.commit, summary: e.summary, error: e.error, turns: e.turns, tokens: e.tokens, cost_usd: e.cost_usd };
      s.phase = 'ended';
      break;
    case 'hook': // a record of what a hook decided; its effect is in the events around it
      // except a PostModelReply verdict: the loop refuses the reply's calls from it (a resume and a replay too).
      if (e.event === 'PostModelReply' && s.replyHooks) {
        if (e.decision === 'block') s.replyHooks.blocked = e.reason;
        else s.replyHooks.allowed++;
      }
      break;
    case 'person_edit':
      s.personEdits[e.path] = { hash: e.hash, seq: e.seq };
      break;
    case 'restore': // a person put files back after the run; the run's own state does not change
      break;
    default:
      return assertNever(e, 'event kind');
  }
  return s;
}

/** After a reply: its tool calls, the gate (it claims done), its outcome (the model refused or the
 *  conversation no longer fits), or another model call (cut at max_tokens, pause_turn). */
function phaseAfterReply(stop: StopReason, hasToolUses: boolean): Phase {
  if (stop === 'refusal' || stop === 'model_context_window_exceeded') return 'finishing';
  if (hasToolUses) return 'tools';
  return stop === 'end_turn' || stop === 'stop_sequence' || stop === 'tool_use' ? 'awaiting_gate' : 'awaiting_model';
}

export function foldEvents(events: Iterable<KiteEvent>, opts?: { conversation?: boolean; contextTally?: boolean }): RunState {
  const s = initialRunState(opts);
  for (const e of events) applyEvent(s, e);
  return s;
}

/** An independent copy for snapshots. Event objects are shared: nothing mutates them. Calls and
 *  finished messages are shared too, copied on write (callTable.ts, chunkedList.ts): the copy
 *  costs O(calls / 256 + open parts), not O(run). */
export function cloneRunState(s: RunState): RunState {
  const calls = callRecord(tableOf(s.calls).copy());
  return {
    ...s,
    limits: s.limits ? { ...s.limits } : null,
    conversation: s.conversation ? s.conversation.clone() : null,
    repeats: new Map(s.repeats),
    tokens: { ...s.tokens },
    calls,
    pending: { ...s.pending },
    pendingApprovals: { ...s.pendingApprovals },
    gates: [...s.gates],
    files: cloneRecord(s.files),
    personEdits: cloneRecord(s.personEdits),
    warnings: [...s.warnings],
    budgetStop: s.budgetStop ? { ...s.budgetStop } : null,
    divergences: [...s.divergences],
    paused: s.paused ? { ...s.paused } : null,
    features: s.features.map((f) => ({ ...f })),
    proposals: [...s.proposals],
    outcome: s.outcome ? { ...s.outcome } : null,
    context: cloneContextTally(s.context),
    compactions: [...s.compactions],
  };
}

function cloneRecord<T extends object>(r: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in r) out[k] = { ...r[k] };
  return out;
}

/** Unfinished calls in tool_use order, including tool_uses the log has no `proposed` for yet
 * (the process died between the model reply and the proposal record). */
export function unfinishedCalls(s: RunState): { use: ToolUseBlock; call: CallState | null }[] {
  if (!s.conversation) return Object.keys(s.pending).map((id) => ({ use: { type: 'tool_use', id, name: s.calls[id].name, input: s.calls[id].args }, call: s.calls[id] }));
  return s.conversation.unansweredToolUses().map((use) => ({ use, call: s.calls[use.id] ?? null }));
}

/** Counted, typed view of why a run has not ended (for resume and UIs). */
export function isFinished(s: RunState): boolean {
  return s.outcome !== null;
}
