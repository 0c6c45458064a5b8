// JSON-RPC between the VS Code extension (client) and the harness server process (dist/harnessServer.js).
// One definition of every method name and payload, parsed with zod on both ends (a trust boundary).
// Pure: imported by src/harness/server and src/extension; no node builtins, no 'vscode'.
import { z } from 'zod';
import { EventSchema, LimitsSchema, ModeSchema, OutcomeSchema } from './events';
import { SandboxInfoSchema } from './sandboxInfo';

/** Method names. Requests go extension → server (except confirmUnsandboxed); notifications server → extension. */
export const Rpc = {
  startRun: 'kite/startRun',
  resumeRun: 'kite/resumeRun',
  stopRun: 'kite/stopRun',
  answerApproval: 'kite/answerApproval',
  listRuns: 'kite/listRuns',
  serverInfo: 'kite/serverInfo',
  /** request server → extension: may this run's commands run without a sandbox? (a modal asks) */
  confirmUnsandboxed: 'kite/confirmUnsandboxed',
  /** notifications (server → extension) */
  event: 'kite/event',
  approvalRequested: 'kite/approvalRequested',
  approvalWithdrawn: 'kite/approvalWithdrawn',
  runEnded: 'kite/runEnded',
  serverLog: 'kite/serverLog',
} as const;

/** A run as the server knows it: a token it made up at start (the log path comes with the first event). */
export const RunTokenSchema = z.string().min(1);

/** Secrets travel only inside these params (never logged, never echoed back). */
const SecretsSchema = z.object({ anthropicApiKey: z.string().optional() });

/**
 * Policy additions from the person's kite.policy.* settings (same meaning as HostPolicySchema in
 * policy/config.ts, which checks the patterns compile): deny patterns are refused before anything
 * the workspace allows; allowAttended patterns run without asking in attended runs only.
 */
export const WirePolicyOverridesSchema = z.object({
  deny: z.array(z.string().min(1)).optional(),
  allowAttended: z.array(z.string().min(1)).optional(),
});
export type WirePolicyOverrides = z.infer<typeof WirePolicyOverridesSchema>;

/** The user-scope kite.sandbox setting. Sent on every start and resume: it replaces the workspace
 *  config's "sandbox": "off", so a workspace cannot turn the sandbox off by itself. */
export const WireSandboxSwitchSchema = z.enum(['on', 'off']);

export const StartRunParamsSchema = z.object({
  root: z.string().min(1),
  featureId: z.string().optional(),
  mode: ModeSchema,
  model: z.string().min(1), // spec: "anthropic:<id>" | "script:<abs path>" | "replay:<log>"
  limits: LimitsSchema.partial().optional(),
  maxGateFailures: z.number().int().positive().optional(),
  allowDirty: z.boolean().optional(),
  policy: WirePolicyOverridesSchema.optional(),
  sandbox: WireSandboxSwitchSchema.optional(),
  secrets: SecretsSchema.optional(),
});
export type StartRunParams = z.infer<typeof StartRunParamsSchema>;

export const ResumeRunParamsSchema = z.object({
  log: z.string().min(1),
  mode: ModeSchema.optional(),
  limits: LimitsSchema.partial().optional(),
  maxGateFailures: z.number().int().positive().optional(),
  policy: WirePolicyOverridesSchema.optional(),
  sandbox: WireSandboxSwitchSchema.optional(),
  secrets: SecretsSchema.optional(),
});
export type ResumeRunParams = z.infer<typeof ResumeRunParamsSchema>;

export const StartRunResultSchema = z.object({ token: RunTokenSchema });
export type StartRunResult = z.infer<typeof StartRunResultSchema>;

export const StopRunParamsSchema = z.object({ token: RunTokenSchema });
export type StopRunParams = z.infer<typeof StopRunParamsSchema>;
export const StopRunResultSchema = z.object({ stopped: z.boolean() });

/** Mirrors host.ts ApprovalRequest (the server checks the two stay assignable). */
export const WireApprovalRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('write'),
    id: z.string(),
    tool: z.enum(['write_file', 'edit_file']),
    path: z.string(),
    before: z.string().nullable(),
    proposed: z.string(),
  }),
  z.object({ kind: z.literal('command'), id: z.string(), command: z.string(), cwd: z.string(), sandbox: SandboxInfoSchema.optional() }),
  /** A read the policy asks about (rule ask:secret-file, e.g. `.env`); "always" allows that path. */
  z.object({ kind: z.literal('read'), id: z.string(), tool: z.string(), path: z.string(), reason: z.string() }),
]);
export type WireApprovalRequest = z.infer<typeof WireApprovalRequestSchema>;

/** Mirrors host.ts ApprovalAnswer. */
export const WireApprovalAnswerSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approve'), always: z.boolean().optional() }),
  z.object({ decision: z.literal('deny'), reason: z.string() }),
  z.object({ decision: z.literal('edit'), content: z.string() }),
]);
export type WireApprovalAnswer = z.infer<typeof WireApprovalAnswerSchema>;

export const AnswerApprovalParamsSchema = z.object({
  token: RunTokenSchema,
  id: z.string(),
  answer: WireApprovalAnswerSchema,
});
export type AnswerApprovalParams = z.infer<typeof AnswerApprovalParamsSchema>;
export const AnswerApprovalResultSchema = z.object({ accepted: z.boolean() }); // false: nobody was waiting

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
});
export type RunSummaryWire = z.infer<typeof RunSummaryWireSchema>;

export const RunErrorCodeSchema = z.enum(['bad_params', 'no_feature', 'dirty_tree', 'not_a_repo', 'missing_key', 'invalid_config', 'cannot_resume', 'not_found', 'failed']);
export type RunErrorCode = z.infer<typeof RunErrorCodeSchema>;

export const RunEndedSchema = z.object({
  token: RunTokenSchema,
  log: z.string().nullable(),
  summary: RunSummaryWireSchema.nullable(),
  error: z.object({ code: RunErrorCodeSchema, message: z.string() }).nullable(),
});
export type RunEnded = z.infer<typeof RunEndedSchema>;

export const ServerLogSchema = z.object({
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error']),
  message: z.string(),
});
export type ServerLog = z.infer<typeof ServerLogSchema>;
