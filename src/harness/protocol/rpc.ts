// JSON-RPC between the VS Code extension (client) and the harness server process (dist/harnessServer.js).
// One definition of every method name and payload, parsed with zod on both ends (a trust boundary).
// Pure: imported by src/harness/server and src/extension; no node builtins, no 'vscode'.
import { z } from 'zod';
import { EventSchema, ModeSchema, OutcomeSchema } from './events';
import { SandboxInfoSchema } from './sandboxInfo';
import { ToolNameSchema } from './toolName';

/** Method names. Requests go extension → server (except confirmUnsandboxed); notifications server → extension. */
export const Rpc = {
  startRun: 'kite/startRun',
  resumeRun: 'kite/resumeRun',
  stopRun: 'kite/stopRun',
  answerApproval: 'kite/answerApproval',
  listRuns: 'kite/listRuns',
  serverInfo: 'kite/serverInfo',
  resolveSettings: 'kite/resolveSettings',
  /** The person saved (created, deleted, renamed) these files in the editor: every active run in a
   *  workspace holding them records it, and its commit leaves them out (issue 13, item 20). */
  personEdited: 'kite/personEdited',
  /** request extension → server: a person's message to a running agent (delivered at its next turn) */
  steer: 'kite/steer',
  /** Runs eval cases (Evals view); cancelled through the request's cancellation token. */
  runEvals: 'kite/runEvals',
  /** `kite eval add LOG` for VS Code's "Add to Evals". */
  addEval: 'kite/addEval',
  /** What the workspace asks to trust before a run (hook commands) and whether it is approved. */
  trustStatus: 'kite/trustStatus',
  /** Records the person's approval of the items shown (same store as `kite trust`). */
  trustWorkspace: 'kite/trustWorkspace',
  /** The workspace's MCP servers, whether each is approved, and (asked for) the tools of the approved ones. */
  mcpServers: 'kite/mcpServers',
  /** request server → extension: may this run's commands run without a sandbox? (a modal asks) */
  confirmUnsandboxed: 'kite/confirmUnsandboxed',
  /** request server → extension: a feature with "verify": "none" claims done; may it be marked done? (a modal asks) */
  confirmDoneWithoutCheck: 'kite/confirmDoneWithoutCheck',
  /** request server → extension: one reply of a VS Code language model (protocol/languageModel.ts) */
  lmRequest: 'kite/lmRequest',
  /** notification extension → server: a streamed part of an lmRequest's reply */
  lmPart: 'kite/lmPart',
  /** notifications (server → extension) */
  event: 'kite/event',
  approvalRequested: 'kite/approvalRequested',
  approvalWithdrawn: 'kite/approvalWithdrawn',
  runEnded: 'kite/runEnded',
  /** the model's reply as it streams (throttled deltas; never logged) */
  stream: 'kite/stream',
  serverLog: 'kite/serverLog',
  /** notification: one eval case finished (during kite/runEvals). */
  evalCaseEnded: 'kite/evalCaseEnded',
} as const;

/** A run as the server knows it: a token it made up at start (the log path comes with the first event). */
export const RunTokenSchema = z.string().min(1);

/** The kite.* settings a run depends on, named as in package.json without "kite.". */
export const RUN_SETTING_KEYS = [
  'model',
  'budget.turns',
  'budget.tokens',
  'budget.usd',
  'budget.wallSeconds',
  'budget.observationTokens',
  'maxGateFailures',
  'policy.denyCommands',
  'policy.allowCommands',
  'sandbox',
] as const;
export type RunSettingKey = (typeof RUN_SETTING_KEYS)[number];

/**
 * One setting as VS Code's inspect() reports it: its value in each scope that sets it. Unchecked on
 * purpose (a settings.json may hold anything): which scopes count and how they meet
 * .kite/config.json is decided in one place, the harness's config/settingsLayer.ts.
 */
export const SettingScopesSchema = z.object({
  globalValue: z.unknown().optional(),
  workspaceValue: z.unknown().optional(),
  workspaceFolderValue: z.unknown().optional(),
});
export type SettingScopes = z.infer<typeof SettingScopesSchema>;

/** The raw kite.* settings the extension read. Absent from start/resume params: no host settings,
 *  the workspace's .kite/config.json decides alone (as in the CLI). */
export const RawSettingsSchema = z.partialRecord(z.enum(RUN_SETTING_KEYS), SettingScopesSchema);
export type RawSettings = z.infer<typeof RawSettingsSchema>;

export const StartRunParamsSchema = z.object({
  root: z.string().min(1),
  featureId: z.string().optional(),
  mode: ModeSchema,
  allowDirty: z.boolean().optional(),
  settings: RawSettingsSchema.optional(),
});
export type StartRunParams = z.infer<typeof StartRunParamsSchema>;

/** The model and limits of a resumed run come from its log; the settings add policy, gate and sandbox. */
export const ResumeRunParamsSchema = z.object({
  log: z.string().min(1),
  mode: ModeSchema.optional(),
  settings: RawSettingsSchema.optional(),
});
export type ResumeRunParams = z.infer<typeof ResumeRunParamsSchema>;

/** What the harness makes of the settings for a workspace, asked before a start or resume so the
 *  extension can ask for an API key or point at a broken setting before anything runs. */
export const ResolveSettingsParamsSchema = z.object({ root: z.string().min(1), settings: RawSettingsSchema });
export type ResolveSettingsParams = z.infer<typeof ResolveSettingsParamsSchema>;
export const SettingProblemSchema = z.object({ setting: z.string(), message: z.string() }); // e.g. kite.policy.denyCommands[2]
export const ResolvedSettingsSchema = z.object({
  model: z.string(), // the spec a new run would use
  /** One line for the log: the model and where each value came from. */
  summary: z.string(),
  warnings: z.array(z.string()),
  /** Unusable settings: a run must not start (a dropped deny pattern would loosen the policy). */
  problems: z.array(SettingProblemSchema),
});
export type ResolvedSettings = z.infer<typeof ResolvedSettingsSchema>;

/** Whether a model spec (a ResolvedSettings model, or a log's) needs an API key. */
export function needsApiKey(modelSpec: string): boolean {
  return keyProviderOf(modelSpec) !== null;
}

/** The providers whose keys Kite keeps (local OpenAI-compatible servers need none). */
export type KeyProvider = 'anthropic' | 'openai';

/** Whose API key a model spec needs, or null for none (script, replay, local servers). */
export function keyProviderOf(modelSpec: string): KeyProvider | null {
  return modelSpec.startsWith('anthropic:') ? 'anthropic' : modelSpec.startsWith('openai:') ? 'openai' : null;
}

export const StartRunResultSchema = z.object({ token: RunTokenSchema });
export type StartRunResult = z.infer<typeof StartRunResultSchema>;

export const PersonEditedParamsSchema = z.object({ paths: z.array(z.string().min(1)).max(10_000) });
export type PersonEditedParams = z.infer<typeof PersonEditedParamsSchema>;
/** How many active runs were told (0: no run is going). */
export const PersonEditedResultSchema = z.object({ runs: z.number().int().nonnegative() });

export const StopRunParamsSchema = z.object({ token: RunTokenSchema });
export type StopRunParams = z.infer<typeof StopRunParamsSchema>;
export const StopRunResultSchema = z.object({ stopped: z.boolean() });

/** A script a command runs that the run changed since it started (package.json script, Makefile,
 *  workspace script file), with its unified diff: the approval shows it (issue 13, item 17). */
export const ScriptChangeSchema = z.object({ file: z.string(), script: z.string().nullable(), diff: z.string() });
export type ScriptChange = z.infer<typeof ScriptChangeSchema>;

/** An MCP tool call waiting for approval: server and tool as configured, validated args, the rule that asked. */
export const McpApprovalInfoSchema = z.object({ server: z.string(), tool: z.string(), args: z.record(z.string(), z.unknown()), rule: z.string(), reason: z.string() });

/** Mirrors host.ts ApprovalRequest (the server checks the two stay assignable). `tool` is the asking
 *  tool's own name: any tool can ask, so no fixed list here, but it must be a well-formed tool name. */
export const WireApprovalRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('write'),
    id: z.string(),
    tool: ToolNameSchema,
    path: z.string(),
    before: z.string().nullable(),
    proposed: z.string(),
  }),
  z.object({ kind: z.literal('command'), id: z.string(), command: z.string(), cwd: z.string(), sandbox: SandboxInfoSchema.optional(), scriptChanges: z.array(ScriptChangeSchema).optional(), mcp: McpApprovalInfoSchema.optional() }),
  /** A read the policy asks about (rule ask:secret-file, e.g. `.env`); "always" allows that path. */
  z.object({ kind: z.literal('read'), id: z.string(), tool: ToolNameSchema, path: z.string(), reason: z.string() }),
]);
export type WireApprovalRequest = z.infer<typeof WireApprovalRequestSchema>;

/** Mirrors host.ts ApprovalAnswer. */
export const WireApprovalAnswerSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve'), always: z.boolean().optional() }),
  z.object({ decision: z.literal('deny'), reason: z.string() }),
  z.object({ decision: z.literal('edit'), content: z.string(), reason: z.string().optional() }), // reason: why some hunks were rejected
]);
export type WireApprovalAnswer = z.infer<typeof WireApprovalAnswerSchema>;

export const AnswerApprovalParamsSchema = z.object({
  token: RunTokenSchema,
  id: z.string(),
  answer: WireApprovalAnswerSchema,
});
export type AnswerApprovalParams = z.infer<typeof AnswerApprovalParamsSchema>;
export const AnswerApprovalResultSchema = z.object({ accepted: z.boolean() }); // false: nobody was waiting

/** Longest message a person may send to the agent (it goes into the log and the conversation). */
export const STEER_MAX_CHARS = 20_000;
export const SteerParamsSchema = z.object({
  token: RunTokenSchema,
  text: z
    .string()
    .refine((t) => t.trim().length > 0, 'the message is empty')
    .refine((t) => t.length <= STEER_MAX_CHARS, `the message is longer than ${STEER_MAX_CHARS} characters`),
});
export type SteerParams = z.infer<typeof SteerParamsSchema>;
/** queued false: no such run (it ended). waiting: messages queued for its next turn, this one included. */
export const SteerResultSchema = z.object({ queued: z.boolean(), waiting: z.number().int().nonnegative() });
export type SteerResult = z.infer<typeof SteerResultSchema>;

/** Deltas of the reply being generated since the last notification (thinking and text kept apart). */
export const StreamNotificationSchema = z.object({
  token: RunTokenSchema,
  log: z.string().nullable(),
  turn: z.number().int().positive(),
  text: z.string(),
  thinking: z.string(),
});
export type StreamNotification = z.infer<typeof StreamNotificationSchema>;

export const RunInfoSchema = z.object({ token: RunTokenSchema, log: z.string().nullable(), feature: z.string().nullable() });
export const ListRunsResultSchema = z.object({ runs: z.array(RunInfoSchema) });

export const ServerInfoSchema = z.object({ pid: z.number().int(), node: z.string() });
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/** Mirrors sandbox/runSandbox.ts UnsandboxedQuestion, plus which run asks. */
export const ConfirmUnsandboxedParamsSchema = z.object({
  token: RunTokenSchema,
  root: z.string(),
  reason: z.string(), // why there is no sandbox
  fix: z.string(), // how to get one
});
export type ConfirmUnsandboxedParams = z.infer<typeof ConfirmUnsandboxedParamsSchema>;
/** run: true only when the person chose "Run Without Sandbox". */
export const ConfirmUnsandboxedResultSchema = z.object({ run: z.boolean() });
export type ConfirmUnsandboxedResult = z.infer<typeof ConfirmUnsandboxedResultSchema>;

/** Mirrors host.ts DoneWithoutCheckQuestion, plus which run asks. */
export const ConfirmDoneParamsSchema = z.object({ token: RunTokenSchema, feature: z.string(), title: z.string() });
export type ConfirmDoneParams = z.infer<typeof ConfirmDoneParamsSchema>;
/** done: true only when the person chose "Mark Done". */
export const ConfirmDoneResultSchema = z.object({ done: z.boolean() });
export type ConfirmDoneResult = z.infer<typeof ConfirmDoneResultSchema>;

export const EventNotificationSchema = z.object({
  token: RunTokenSchema,
  log: z.string(), // absolute path of the run's log
  event: EventSchema,
});
export type EventNotification = z.infer<typeof EventNotificationSchema>;

export const ApprovalRequestedSchema = z.object({
  token: RunTokenSchema,
  log: z.string().nullable(),
  root: z.string(),
  request: WireApprovalRequestSchema,
});
export type ApprovalRequested = z.infer<typeof ApprovalRequestedSchema>;

/** The run no longer waits for this approval (stopped, or the server gave up on it). */
export const ApprovalWithdrawnSchema = z.object({ token: RunTokenSchema, id: z.string() });
export type ApprovalWithdrawn = z.infer<typeof ApprovalWithdrawnSchema>;

export const RunSummaryWireSchema = z.object({
  feature: z.string(),
  outcome: OutcomeSchema,
  turns: z.number(),
  tokens: z.number(),
  cost_usd: z.number(),
  commit: z.string().nullable(),
  logPath: z.string(),
  proposals: z.array(z.string()),
  /** Paused for an approval nobody answered (no session_end): Resume Run continues it. */
  paused: z.boolean().optional(),
  /** Why it ended as it did, one sentence (events/whyEnded.ts): the notification says it. */
  why: z.string().optional(),
});
export type RunSummaryWire = z.infer<typeof RunSummaryWireSchema>;

/** Why a run did not start or stopped with an error (server/wireErrorCode.ts maps each harness error
 *  code to one of these). repo_state: a rebase, merge… in progress or a detached HEAD; the person
 *  finishes it, then starts or resumes again. invalid_settings: a kite.* setting is unusable. */
export const RunErrorCodeSchema = z.enum([
  'bad_params',
  'no_feature',
  'dirty_tree',
  'not_a_repo',
  'repo_state',
  'missing_key',
  'invalid_config',
  'invalid_settings',
  'cannot_resume',
  'locked', // another Kite (a window, a `kite resume`) writes the run's log: `holder` says which
  'not_found',
  'failed',
]);
export type RunErrorCode = z.infer<typeof RunErrorCodeSchema>;

/** Who holds a log's lock file (`<log>.lock`, events/logLock.ts). */
export const LockHolderSchema = z.object({ pid: z.number().int(), host: z.string(), started_at: z.string() });
export type LockHolder = z.infer<typeof LockHolderSchema>;

export const RunEndedSchema = z.object({
  token: RunTokenSchema,
  log: z.string().nullable(),
  summary: RunSummaryWireSchema.nullable(),
  // dirty_tree: `paths` are the uncommitted files (the message says it the CLI's way: "--allow-dirty").
  error: z.object({ code: RunErrorCodeSchema, message: z.string(), holder: LockHolderSchema.optional(), paths: z.array(z.string()).optional() }).nullable(),
});
export type RunEnded = z.infer<typeof RunEndedSchema>;

export const ServerLogSchema = z.object({
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error']),
  message: z.string(),
});
export type ServerLog = z.infer<typeof ServerLogSchema>;

/** Evals: a suite folder (absolute), optionally only some of its cases (folder names). */
export const RunEvalsParamsSchema = z.object({ root: z.string().min(1), suite: z.string().min(1), cases: z.array(z.string().min(1)).optional(), jobs: z.number().int().positive().optional() });
export type RunEvalsParams = z.infer<typeof RunEvalsParamsSchema>;
export const EvalCaseResultSchema = z.object({
  case: z.string(),
  model: z.string(),
  status: z.enum(['pass', 'fail', 'error']),
  outcome: z.string(),
  turns: z.number(),
  tokens: z.number(),
  cost_usd: z.number(),
  ms: z.number(),
  unmet: z.array(z.string()),
  notes: z.string(),
  log: z.string().nullable(),
  error: z.string().nullable(),
});
export type EvalCaseResult = z.infer<typeof EvalCaseResultSchema>;
/** error: the suite could not be loaded (a bad case names its file and field). */
export const RunEvalsResultSchema = z.object({ results: z.array(EvalCaseResultSchema), logDir: z.string().nullable(), cancelled: z.boolean(), error: z.string().nullable() });
export type RunEvalsResult = z.infer<typeof RunEvalsResultSchema>;
export const EvalCaseEndedSchema = z.object({ suite: z.string(), result: EvalCaseResultSchema });
export type EvalCaseEnded = z.infer<typeof EvalCaseEndedSchema>;

export const AddEvalParamsSchema = z.object({ root: z.string().min(1), log: z.string().min(1), suite: z.string().min(1).optional(), name: z.string().min(1).optional() });
export type AddEvalParams = z.infer<typeof AddEvalParamsSchema>;
/** file: the case.json written; error: why no case was written (the log names no commit, …). */
export const AddEvalResultSchema = z.object({ file: z.string().nullable(), name: z.string().nullable(), expect: z.string().nullable(), error: z.string().nullable() });
export type AddEvalResult = z.infer<typeof AddEvalResultSchema>;

/** One thing a workspace asks to trust: a hook command, or an MCP server not approved here (state says why). */
export const TrustItemSchema = z.object({ kind: z.enum(['hook', 'mcp_server']), label: z.string(), command: z.string(), timeout_s: z.number().nullable(), state: z.enum(['not_approved', 'changed']).optional() });
export const TrustStatusParamsSchema = z.object({ root: z.string().min(1) });
/** hooks_trusted: the hooks alone are approved (or none): refusing only MCP servers still lets a run start, without their tools. */
export const TrustStatusSchema = z.object({ root: z.string(), items: z.array(TrustItemSchema), trusted: z.boolean(), hooks_trusted: z.boolean().optional(), digest: z.string(), error: z.string().nullable().optional() });
export type TrustStatusWire = z.infer<typeof TrustStatusSchema>;
export const TrustWorkspaceParamsSchema = z.object({ root: z.string().min(1), digest: z.string().min(1) });
export const TrustWorkspaceResultSchema = z.object({ file: z.string().nullable(), error: z.string().nullable() });
export type TrustWorkspaceResult = z.infer<typeof TrustWorkspaceResultSchema>;

/** MCP servers for the Kite view. tools: also start each approved server (never another) to list its tools. */
export const McpServersParamsSchema = z.object({ root: z.string().min(1), tools: z.boolean().optional() });
export type McpServersParams = z.infer<typeof McpServersParamsSchema>;
export const McpToolWireSchema = z.object({ name: ToolNameSchema, tool: z.string(), description: z.string(), read_only: z.boolean() });
export type McpToolWire = z.infer<typeof McpToolWireSchema>;
/** One declared server: command line with env names only; tools null when not listed (not asked, or not approved). */
export const McpServerWireSchema = z.object({
  name: z.string(),
  source: z.string(),
  command: z.string(),
  state: z.enum(['approved', 'not_approved', 'changed']),
  tools: z.array(McpToolWireSchema).nullable(),
  /** Why its tools could not be listed (it did not start, timed out, lists a schema Kite cannot offer). */
  tools_error: z.string().nullable(),
});
export type McpServerWire = z.infer<typeof McpServerWireSchema>;
/** error: a config file that declares servers is unreadable (it names the file and field). */
export const McpServersResultSchema = z.object({ servers: z.array(McpServerWireSchema), shadowed: z.array(z.string()), error: z.string().nullable() });
export type McpServersResult = z.infer<typeof McpServersResultSchema>;
