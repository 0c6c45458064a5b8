// The event log schema: one JSON object per line in .kite/runs/<run>.jsonl. This file is THE
// definition used by the harness, the extension, the webview and the debug adapter.
//
// Field names of the original (Python) Kite are kept so old tools still read our logs:
//   t (seconds since start, 2 decimals), kind; session_start; model {turn, ms, stop, content,
//   input_tokens, output_tokens}; tool {name, args, ms, is_error, output}; gate {passed, feedback};
//   session_end {status, turns, tokens}.
// Added: an envelope (v, seq, run) and the kinds a dependable harness needs.
//
// How the conversation is rebuilt from the log (see conversation.ts, shared by loop and reducer):
//   - `user` events with reason 'briefing' open the conversation;
//   - each `model` event is one assistant message (its `content`, exactly as received);
//   - the next user message is: one tool_result per tool_use of that assistant message, in order,
//     taken from the `tool` events (output + is_error exactly as the model saw them), followed by the
//     text of any `user` events logged before the next `model` event (gate feedback, notices).
// A call's arguments are stored once: proposed / approval_request / intent / tool hold either
// `args` or `args_ref`, a reference to the model event's tool_use input (or to the person's edit
// in the approval); the rule and its one resolver are in argsRef.ts.
import { z } from 'zod';
import { ArgsRefSchema } from './argsRef';
import { AssistantBlockSchema, StopReasonSchema } from './content';
import { SandboxInfoSchema } from './sandboxInfo';

export const LOG_VERSION = 1;

export const OutcomeSchema = z.enum([
  'done',
  'gate_failed',
  'budget_exceeded',
  'stuck',
  'error',
  'refused', // the model declined (stop_reason refusal)
  'context_exceeded', // stop_reason model_context_window_exceeded
  'cancelled', // a person stopped the run
  'unverified', // the gate had no command to run (and no person confirmed): nothing committed, left for a person
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const ModeSchema = z.enum(['attended', 'unattended']);
export type Mode = z.infer<typeof ModeSchema>;

export const LimitsSchema = z.object({
  turns: z.number().int().positive().nullable(),
  tokens: z.number().int().positive().nullable(),
  usd: z.number().positive().nullable(),
  wall_s: z.number().positive().nullable(),
  /** Tokens tool results may put into the conversation over the run (absent in older logs). */
  observation_tokens: z.number().int().positive().nullable().optional(),
  /** The same, per tool name (`budget.per_tool`). */
  per_tool: z.record(z.string(), z.number().int().positive()).nullable().optional(),
});
export type Limits = z.infer<typeof LimitsSchema>;

export const EffectSchema = z.enum(['none', 'write', 'exec']);
export type Effect = z.infer<typeof EffectSchema>;

export const DecisionSchema = z.enum(['allow', 'ask', 'deny']);
export type Decision = z.infer<typeof DecisionSchema>;

export const FeatureStatusSchema = z.enum([
  'todo',
  'in_progress',
  'done',
  'gate_failed',
  'budget_exceeded',
  'stuck',
  'error',
  'proposed',
  'unverified', // its last run had nothing to verify it with: a person decides (add a check, or reset it)
]);
export type FeatureStatus = z.infer<typeof FeatureStatusSchema>;

export const FeatureSnapshotSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: FeatureStatusSchema,
});

/** What one model call was billed: the agent's turns, a judge's verdict and a compaction's summary alike. */
const billedUsage = {
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
};

/** A judged check's call (gate/judge.ts): a separate model call, never the agent's conversation.
 *  Its usage counts in the run's budgets and `kite cost` (protocol/totals.ts judgeCallsOf). */
export const JudgeResultSchema = z.object({
  model: z.string(), // the judge's model spec (priced by the model that answered)
  pass: z.enum(['yes', 'no']), // the answer that passes
  verdict: z.enum(['yes', 'no']).nullable(), // null: no valid answer (garbage, an error): the check failed closed
  reasons: z.string(), // the judge's reasons, or why there was no verdict
  evidence_chars: z.number().int().nonnegative(), // size of the evidence sent
  truncated: z.boolean(), // the evidence was cut to its bound
  files: z.array(z.string()), // files the rubric named, sent in full (bounded)
  reply: z.array(AssistantBlockSchema), // the judge's answer as received (a replay answers from it)
  ...billedUsage,
  price_unknown: z.literal(true).optional(),
});
export type JudgeResult = z.infer<typeof JudgeResultSchema>;

export const CheckResultSchema = z.object({
  command: z.string(), // a judged check: its rubric
  exit_code: z.number().int().nullable(), // null when killed (timeout); a judged check: 0 passed, 1 not
  ms: z.number().nonnegative(),
  timed_out: z.boolean(),
  output_tail: z.string(), // the clipped tail shown to the model (a judged check: verdict and reasons)
  source: z.enum(['check', 'verify', 'judge']),
  sandbox: SandboxInfoSchema.optional(), // which sandbox ran it (absent in older logs)
  judge: JudgeResultSchema.optional(), // source 'judge'
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

/** Present on every event written by this Kite. Absent on logs of the original Python Kite. */
const envelope = {
  v: z.literal(LOG_VERSION),
  seq: z.number().int().nonnegative(), // 0-based, strictly increasing within a log file
  run: z.string(), // run id = log file name without .jsonl
  t: z.number().nonnegative(), // seconds since the run started, 2 decimals
  // Hash chain: sha256 hex of the previous line's exact bytes (null on the first line). Absent in
  // older logs; events/reader.ts checks it from the first event that carries it.
  prev: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest').nullable().optional(),
};

export const SessionStartSchema = z.object({
  ...envelope,
  kind: z.literal('session_start'),
  feature: z.string(),
  title: z.string(),
  model: z.string(), // "anthropic:<id>" | "script:<abs path>" | "replay:<log>"
  mode: ModeSchema,
  limits: LimitsSchema,
  max_gate_failures: z.number().int().positive(),
  max_tokens: z.number().int().positive(), // per reply
  checks: z.array(z.string()),
  verify: z.string().nullable(),
  command_timeout_s: z.number().positive(),
  git_head: z.string().nullable(),
  root: z.string(), // absolute workspace root
  repo_id: z.string().nullable().optional(), // the repository's root commit(s): resume refuses another repository (absent in older logs)
  branch: z.string().nullable(),
  replay_of: z.string().nullable(), // the recorded log when this run is a replay
  started_at: z.string(), // ISO wall-clock time
  system: z.string(), // system prompt exactly as sent
  tools: z.array(z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) })),
  features: z.array(FeatureSnapshotSchema), // the progress file's features at the start
  allowed_tools: z.array(z.string()).nullable().optional(), // the feature's tool list (null: all); only these are sent (absent in older logs)
  sandbox: SandboxInfoSchema.optional(), // how this run contains its commands (absent in older logs)
});

export const UserEventSchema = z.object({
  ...envelope,
  kind: z.literal('user'),
  // steer: a person's message to the running agent ("Tell the Agent"), delivered at the next turn, word for word.
  // hook_context: what a hook said to the model (SessionStart / PromptSubmit context, a PostModelReply block of a reply without calls).
  reason: z.enum(['briefing', 'gate_feedback', 'notice', 'steer', 'hook_context']),
  text: z.string(),
});

export const ModelEventSchema = z.object({
  ...envelope,
  kind: z.literal('model'),
  turn: z.number().int().positive(),
  ms: z.number().nonnegative(),
  stop: StopReasonSchema,
  content: z.array(AssistantBlockSchema),
  ...billedUsage,
  /** The answering model has no known price: cost_usd is 0 because nothing could be counted. */
  price_unknown: z.literal(true).optional(),
  /** The token counts are estimates (the model's tokenizer; VS Code's language models report no usage). */
  estimated: z.literal(true).optional(),
  model: z.string(), // model id that answered
  /** The model behind `model` as its provider names it (vscode-lm: the chat model selectChatModels returned), so a log says which one answered. */
  model_info: z.object({ id: z.string(), name: z.string(), version: z.string() }).optional(),
  retries: z.number().int().nonnegative(), // transport retries before this reply
});

/** A transport-level retry of a model call (429/5xx/timeout/cut stream). Never re-runs tools. */
export const ModelRetrySchema = z.object({
  ...envelope,
  kind: z.literal('model_retry'),
  turn: z.number().int().positive(),
  attempt: z.number().int().positive(),
  reason: z.string(),
  wait_ms: z.number().nonnegative(),
});

/** A tool call exactly as the model proposed it (before validation). */
export const ProposedSchema = z.object({
  ...envelope,
  kind: z.literal('proposed'),
  turn: z.number().int().positive(),
  id: z.string(), // tool_use id
  name: z.string(),
  args: z.unknown().optional(), // absent when args_ref is set
  args_ref: ArgsRefSchema.optional(), // argsRef.ts
});

export const PolicyEventSchema = z.object({
  ...envelope,
  kind: z.literal('policy'),
  id: z.string(),
  name: z.string(),
  decision: DecisionSchema,
  rule: z.string(), // id of the rule that matched, e.g. "deny:git-push", "confine:outside-workspace"
  reason: z.string(),
});

export const ApprovalRequestSchema = z.object({
  ...envelope,
  kind: z.literal('approval_request'),
  id: z.string(),
  name: z.string(),
  args: z.unknown().optional(), // absent when args_ref is set
  args_ref: ArgsRefSchema.optional(), // argsRef.ts
  effect: EffectSchema,
  path: z.string().nullable(), // workspace-relative path for writes
  command: z.string().nullable(), // for exec
  cwd: z.string().nullable(),
});

export const ApprovalSchema = z.object({
  ...envelope,
  kind: z.literal('approval'),
  id: z.string(),
  decision: z.enum(['approve', 'deny', 'edit']),
  reason: z.string().nullable(), // the user's reason on deny
  edited_args: z.unknown().optional(), // the final args on edit
  diff: z.string().nullable(), // unified diff of the user's edit against the proposal
  always: z.boolean(), // "always allow" wrote a policy rule
});

/** Written BEFORE a tool with an effect runs, so a crash leaves evidence of what was attempted. */
export const IntentSchema = z.object({
  ...envelope,
  kind: z.literal('intent'),
  id: z.string(),
  name: z.string(),
  args: z.unknown().optional(), // final args (after any edit by the user); absent when args_ref is set
  args_ref: ArgsRefSchema.optional(), // argsRef.ts
  effect: EffectSchema,
  path: z.string().nullable(),
  pre_hash: z.string().nullable(), // sha256 of the file before (null: absent)
  post_hash: z.string().nullable(), // sha256 the file will have after the write
});

export const ToolEventSchema = z.object({
  ...envelope,
  kind: z.literal('tool'),
  id: z.string(),
  name: z.string(),
  args: z.unknown().optional(), // absent when args_ref is set
  args_ref: ArgsRefSchema.optional(), // argsRef.ts
  ms: z.number().nonnegative(),
  is_error: z.boolean(),
  output: z.string(), // exactly what the model saw (already reduced/clipped)
  error_code: z.string().nullable(), // typed error code when is_error
  exit_code: z.number().int().nullable().optional(), // for run
  path: z.string().nullable().optional(), // for file tools
  post_hash: z.string().nullable().optional(), // file hash after a write
  recovered: z.boolean().optional(), // result reconstructed on resume, the tool did not run again
  sandbox: SandboxInfoSchema.optional(), // run: which sandbox ran (or refused) the command
});

export const GateEventSchema = z.object({
  ...envelope,
  kind: z.literal('gate'),
  attempt: z.number().int().positive(),
  passed: z.boolean(),
  feedback: z.string(), // what the model is told ('' when passed)
  checks: z.array(CheckResultSchema),
  changed_gate_files: z.array(z.string()).optional(), // gate-defining files the run changed (package.json, Makefile, verify test…)
  // No gate command at all: why nothing verified the claim. The run ends `unverified` (not counted as a failed attempt).
  unverified: z.string().optional(),
  // The run changed no file and the feature does not say it expects none (counted as a failed attempt).
  no_change: z.boolean().optional(),
  // `"verify": "none"` and a person confirmed done without a check (attended runs only).
  confirmed_by_person: z.boolean().optional(),
});

export const BudgetStopSchema = z.object({
  ...envelope,
  kind: z.literal('budget_stop'),
  limit: z.enum(['turns', 'tokens', 'usd', 'wall_s', 'observation_tokens']),
  used: z.number(),
  max: z.number(),
  tool: z.string().optional(), // observation_tokens: the tool whose result was withheld
  per_tool: z.boolean().optional(), // observation_tokens: the tool's own limit (budget.per_tool) was reached
});

/** The conversation was compacted before a model call (context/compactor.ts): old tool results
 *  became stubs and, when that was not enough, the older turns a model-written summary. The
 *  reducer applies it to the conversation (conversation.ts), so resume and replay send exactly
 *  the compacted messages. The summary's usage counts in every budget, like a reply's. */
export const CompactionSchema = z.object({
  ...envelope,
  kind: z.literal('compaction'),
  turn: z.number().int().nonnegative(), // model turns before it
  tokens_before: z.number().int().nonnegative(), // estimated request size
  tokens_after: z.number().int().nonnegative(),
  window: z.number().int().positive(),
  conv_chars_after: z.number().int().nonnegative(), // the conversation's size afterwards (folds without a conversation agree)
  stubbed: z.array(z.object({ id: z.string(), name: z.string(), chars: z.number().int().nonnegative(), stub: z.string() })),
  summary: z
    .object({
      through: z.number().int().positive(), // messages [1, through) were replaced (message 0 keeps the briefing)
      turns: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]), // first and last summarized turn
      text: z.string(), // the model's summary
      kept: z.array(z.string()), // what is kept verbatim with it (gate feedback, refusals, denials, edits)
      ...billedUsage,
      model: z.string(),
    })
    .nullable(),
  note: z.string(), // e.g. that the cached prefix breaks here, once
});

export const WarningSchema = z.object({
  ...envelope,
  kind: z.literal('warning'),
  code: z.string(), // e.g. "repetition", "prefix_changed", "max_tokens"
  message: z.string(),
  server: z.string().optional(), // mcp_* codes: the MCP server it is about (the Kite view's state)
  text: z.string().optional(), // steer_blocked: the person's message a PromptSubmit hook kept from the agent
});

export const PausedSchema = z.object({
  ...envelope,
  kind: z.literal('paused'),
  reason: z.string(),
  pending: z.array(z.string()), // tool_use ids waiting for approval
});

export const ResumedSchema = z.object({
  ...envelope,
  kind: z.literal('resumed'),
  after_seq: z.number().int(),
  pid: z.number().int(),
  mode: ModeSchema,
  limits: LimitsSchema,
  note: z.string(),
  sandbox: SandboxInfoSchema.optional(), // how the resumed part contains its commands
});

export const DivergenceSchema = z.object({
  ...envelope,
  kind: z.literal('divergence'),
  at_seq: z.number().int(), // seq of the recorded event that diverged
  id: z.string().nullable(),
  what: z.string(),
  recorded: z.unknown(),
  live: z.unknown(),
});

/** One run of a configured hook command (Claude Code's hooks format, hooks/): what it decided and why. */
export const HookEventSchema = z.object({
  ...envelope,
  kind: z.literal('hook'),
  event: z.string(), // SessionStart, PromptSubmit, PreToolUse, PostToolUse, PostModelReply, Stop, SessionEnd
  matcher: z.string().nullable(), // the matcher that selected it (tool events: a tool name regex; SessionStart: the source)
  command: z.string(),
  id: z.string().nullable(), // the tool_use id for tool events
  decision: z.enum(['allow', 'block']),
  reason: z.string(),
  ms: z.number().nonnegative(),
  context: z.string().optional(), // SessionStart / PromptSubmit: what the hook gave the model (a replay gives it again)
});

export const ProgressEventSchema = z.object({
  ...envelope,
  kind: z.literal('progress'),
  features: z.array(FeatureSnapshotSchema),
  proposals: z.array(z.string()),
});

/** A file the person saved (or created, deleted, renamed) in the editor while the run was going:
 *  the host reports it, the run records it, and the commit leaves it out unless a later write of
 *  the run accounts for its content (issue 13, item 20). `hash`: sha256 after the save; null: gone. */
export const PersonEditSchema = z.object({
  ...envelope,
  kind: z.literal('person_edit'),
  path: z.string(), // workspace-relative, '/'-separated
  hash: z.string().nullable(),
  via: z.literal('editor'),
});

/** A person put the files the run touched back to their content right after event to_seq (src/harness/restore). */
export const RestoreEventSchema = z.object({
  ...envelope,
  kind: z.literal('restore'),
  to_seq: z.number().int().nonnegative(),
  restored_at: z.string(), // ISO wall-clock time (t only continues the run's clock)
  files: z.array(
    z.object({
      path: z.string(), // workspace-relative
      before: z.string().nullable(), // sha256 of the file before the restore (null: it did not exist)
      after: z.string().nullable(), // sha256 after (null: removed)
      changed_by_person: z.boolean(), // it differed from the run's last content and was overwritten on request
    }),
  ),
  kept: z.array(z.object({ path: z.string(), reason: z.string() })), // touched files left as they were, and why
});

export const SessionEndSchema = z.object({
  ...envelope,
  kind: z.literal('session_end'),
  status: OutcomeSchema,
  turns: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  commit: z.string().nullable(),
  summary: z.string(), // the agent's closing words, or why it stopped
  error: z.string().nullable(),
});

export const EventSchema = z.discriminatedUnion('kind', [
  SessionStartSchema,
  UserEventSchema,
  ModelEventSchema,
  ModelRetrySchema,
  ProposedSchema,
  PolicyEventSchema,
  ApprovalRequestSchema,
  ApprovalSchema,
  IntentSchema,
  ToolEventSchema,
  GateEventSchema,
  BudgetStopSchema,
  CompactionSchema,
  WarningSchema,
  PausedSchema,
  ResumedSchema,
  DivergenceSchema,
  ProgressEventSchema,
  SessionEndSchema,
  HookEventSchema,
  PersonEditSchema,
  RestoreEventSchema,
]);

export type KiteEvent = z.infer<typeof EventSchema>;
export type EventKind = KiteEvent['kind'];
export type EventOf<K extends EventKind> = Extract<KiteEvent, { kind: K }>;
export type SessionStart = EventOf<'session_start'>;
export type ModelEvent = EventOf<'model'>;
export type ToolEvent = EventOf<'tool'>;
export type GateEvent = EventOf<'gate'>;
export type SessionEnd = EventOf<'session_end'>;

/** An event before the envelope is stamped by the writer. */
export type EventBody = KiteEvent extends infer E ? (E extends KiteEvent ? Omit<E, 'v' | 'seq' | 'run' | 't' | 'prev'> : never) : never;

export const EVENT_KINDS: readonly EventKind[] = EventSchema.options.map((o) => o.shape.kind.value);

export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}
