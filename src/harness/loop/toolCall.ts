// One tool call, from proposal to result, in the order the log convention fixes:
//   proposed → (invalid: tool is_error) | policy → [deny: tool is_error 'denied']
//   | [ask: approval_request → approval] → intent (write/exec, BEFORE running) → tool.
// Returns exactly what the model will see. Never throws for tool problems; only for cancellation.
import { lstatSync } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import type { BudgetStop } from '../budget/budget';
import type { EventSink } from '../events/sink';
import type { HookRunner } from '../hooks/hookRunner';
import type { ApprovalAnswer, ApprovalRequest, Host } from '../host';
import type { PolicyContext, PolicyVerdict, PolicyCall } from '../policy/types';
import type { ToolUseBlock } from '../protocol/content';
import { assertNever, type Effect } from '../protocol/events';
import type { SandboxInfo } from '../protocol/sandboxInfo';
import type { SecretGuard } from '../secrets/secretGuard';
import { sha256 } from '../tools/hash';
import { describeCall } from '../tools/index';
import { resolveInWorkspace } from '../tools/paths';
import { commitWrite, isOutcome, previewWrite } from '../tools/preview';
import type { ToolContext, ToolOutcome, Toolbox } from '../tools/types';
import { runBase, scriptChangesField } from '../policy/changedScripts';
import { repetitionKey } from '../protocol/repetition';
import type { RunState } from '../protocol/reducer';
import { repetitionWarning, STUCK_AT, WARN_AT } from './repetition';

export interface PolicyLike {
  decide(call: PolicyCall, ctx: PolicyContext): PolicyVerdict;
}

export interface ToolCallDeps {
  /** The run's state (`log` folds into it): the repetition counts come from it. */
  state: Pick<RunState, 'repeats'>;
  toolbox: Toolbox;
  policy: PolicyLike;
  policyContext: PolicyContext;
  host: Host;
  log: EventSink;
  toolContext: ToolContext; // root, logDir, runner, timeout
  now: () => number; // ms, monotonic
  /** "Always allow" was chosen: persist the rule and apply it from now on. */
  onAlways?: (call: PolicyCall) => void;
  /** The run's sandbox. `info` says where commands run now (read at ask time: it changes once the
   *  person accepts running without one); `fatal` is set once a command was refused for want of one. */
  sandbox?: { readonly info: SandboxInfo; readonly fatal: string | null };
  /** Screens every tool result for secrets before the model sees it (secrets/secretGuard.ts). */
  secrets?: SecretGuard;
  /** The workspace's hooks (hooks/): PreToolUse and PostToolUse here, the other events in the loop. */
  hooks?: HookRunner;
  /** The observation budget's verdict on a result about to enter the conversation (context/observationBudget.ts). */
  observation?: (tool: string, output: string) => { stop: BudgetStop; withheld: string } | null;
}

export type ToolCallResult = { kind: 'result'; output: string; is_error: boolean } | { kind: 'stuck'; message: string } | { kind: 'paused'; message: string };

export class CancelledError extends Error {
  readonly code = 'cancelled';
  constructor() {
    super('the run was cancelled');
  }
}

/** The reason, then what did NOT happen — unless the reason already says so. */
function refusal(reason: string, effect: Effect, path: string | null): string {
  const r = reason.trim().replace(/\.+$/, '');
  return /\bnot (been )?(run|modified|written|executed|changed|read)\b|did not run/i.test(r) ? `${r}.` : `${r}. ${notDone(effect, path)}`;
}

function notDone(effect: Effect, path: string | null): string {
  switch (effect) {
    case 'write':
      return path ? `The file ${path} was not modified.` : 'No file was modified.';
    case 'exec':
      return 'The command did not run.';
    case 'none':
      return 'The tool did not run.';
    default:
      return assertNever(effect, 'effect');
  }
}

export async function handleToolUse(use: ToolUseBlock, turn: number, deps: ToolCallDeps, signal: AbortSignal): Promise<ToolCallResult> {
  const { log } = deps;
  const { id, name, input } = use;
  log.append({ kind: 'proposed', turn, id, name, args: input });

  // The fold counted this proposal (or, finishing an interrupted call, had counted it already).
  const count = deps.state.repeats.get(repetitionKey(name, input)) ?? 1;
  if (count >= STUCK_AT) {
    const message = `the same call (${name} with identical arguments) was proposed ${count} times`;
    log.append({ kind: 'warning', code: 'repetition', message: `${message}; stopping the run as stuck` });
    return { kind: 'stuck', message };
  }
  let warning = '';
  if (count >= WARN_AT) {
    warning = repetitionWarning(name, count);
    log.append({ kind: 'warning', code: 'repetition', message: `${name} called ${count} times with identical arguments` });
  }

  const finish = (o: ToolOutcome, ms: number, args: unknown, toolName = name, extra = ''): ToolCallResult => {
    // The model boundary: secrets are withheld here, so the tool event, the conversation, the log
    // and a resume's fold all hold the same screened text.
    const raw = o.output + extra + warning;
    const screened = deps.secrets?.screenToolResult({ id, tool: toolName, path: o.path ?? null, output: raw, is_error: o.is_error }) ?? { output: raw, blocked: false, audits: [] };
    const over = deps.observation?.(toolName, screened.output) ?? null;
    if (over) {
      // Withheld before it enters the conversation; the budget_stop moves the run to its end.
      log.append({ kind: 'tool', id, name: toolName, args, ms: Math.round(ms), is_error: true, output: over.withheld, error_code: 'observation_budget', exit_code: o.exit_code, path: o.path, post_hash: o.post_hash, ...(o.sandbox ? { sandbox: o.sandbox } : {}) });
      log.append({ kind: 'budget_stop', limit: over.stop.limit, used: over.stop.used, max: over.stop.max, ...(over.stop.tool ? { tool: over.stop.tool } : {}), ...(over.stop.per_tool ? { per_tool: true } : {}) });
      return { kind: 'result', output: over.withheld, is_error: true };
    }
    const output = screened.output;
    const isError = o.is_error || screened.blocked;
    log.append({
      kind: 'tool',
      id,
      name: toolName,
      args,
      ms: Math.round(ms),
      is_error: isError,
      output,
      error_code: screened.blocked ? 'denied' : o.is_error ? (o.error_code ?? 'failed') : null,
      exit_code: o.exit_code,
      path: o.path,
      post_hash: o.post_hash,
      ...(o.sandbox ? { sandbox: o.sandbox } : {}),
    });
    for (const message of screened.audits) log.append({ kind: 'warning', code: 'secret_audit', message });
    return { kind: 'result', output, is_error: isError };
  };
  const refuse = (code: ToolOutcome['error_code'], output: string): ToolCallResult => finish({ output, is_error: true, error_code: code }, 0, input);

  const v = deps.toolbox.validate(name, input);
  if (!v.ok) return finish(v.outcome, 0, input);
  const { tool, args } = v;
  // An MCP server that stopped: its tools are refused before anyone is asked.
  const unavailable = tool.unavailable?.() ?? null;
  if (unavailable !== null) return refuse('unknown_tool', unavailable);

  // Confinement first: a path outside the workspace is refused whatever the policy says.
  const { path: rawPath, command } = describeCall(tool, args);
  let rel: string | null = null;
  let hardLinks: number | undefined;
  if (rawPath !== null) {
    const r = resolveInWorkspace(deps.toolContext.root, deps.toolContext.logDir, rawPath, { forWrite: tool.effect === 'write' });
    if (!r.ok) {
      log.append({ kind: 'policy', id, name, decision: 'deny', rule: r.rule, reason: r.message });
      return refuse(r.code, refusal(`Refused (${r.rule}): ${r.message}`, tool.effect, null));
    }
    rel = r.rel;
    if (tool.effect === 'none') hardLinks = linkCount(r.abs);
  }

  const mcp = tool.mcp ? { mcp: tool.mcp } : {};
  const verdict = deps.policy.decide({ name, args, effect: tool.effect, path: rel, command, ...(hardLinks !== undefined ? { hardLinks } : {}), ...mcp }, deps.policyContext);
  // Keyed to the file, not the rule's name (a workspace rule may call itself anything): a read of a
  // hard-linked file runs only after a person was asked, and the question always says it is one.
  const hardLinkRead = (hardLinks ?? 1) > 1 && verdict.decision === 'ask';
  const linkNote = `"${rel}" has ${hardLinks} hard links; another of its names may be a file outside the workspace`;
  const readReason = hardLinkRead && !verdict.reason.includes(`has ${hardLinks} hard links`) ? `${linkNote}. ${verdict.reason}` : verdict.reason;
  log.append({ kind: 'policy', id, name, decision: verdict.decision, rule: verdict.rule, reason: verdict.reason });
  if (verdict.decision === 'deny') return refuse('denied', refusal(`Denied by policy (rule ${verdict.rule}): ${verdict.reason}`, tool.effect, rel));
  // PreToolUse hooks come after the policy (each run is a `hook` event); a block is a refusal the model sees.
  const blocked = deps.hooks ? ((await deps.hooks.preToolUse({ id, name, args }, signal)).blocked?.reason ?? null) : null;
  if (blocked !== null) return refuse('denied', refusal(`Blocked by a PreToolUse hook: ${blocked}`, tool.effect, rel));

  // What a write will do: needed for the approval diff and the intent hashes.
  let before: string | null = null;
  let proposed: string | null = null;
  if (tool.effect === 'write') {
    const p = previewWrite(deps.toolContext, tool, args);
    if (isOutcome(p)) return finish(p, 0, input);
    rel = p.path;
    before = p.before;
    proposed = p.proposed;
  }

  let runArgs: unknown = args;
  let editedContent: string | null = null;
  let editNote = '';
  if (verdict.decision === 'ask') {
    const request: ApprovalRequest =
      tool.effect === 'write' && rel && proposed !== null
        ? { kind: 'write', id, tool: tool.name, path: rel, before, proposed }
        : tool.effect === 'none' && rel !== null
          ? { kind: 'read', id, tool: tool.name, path: rel, reason: readReason }
          : { kind: 'command', id, command: command ?? (tool.mcp ? `MCP server "${tool.mcp.server}", tool ${tool.mcp.tool}: ${JSON.stringify(args)}` : `${name} ${JSON.stringify(args)}`), cwd: deps.toolContext.root, ...(deps.sandbox ? { sandbox: deps.sandbox.info } : {}), ...scriptChangesField(command, deps.toolContext.root, runBase(deps.state)), ...(tool.mcp ? { mcp: { server: tool.mcp.server, tool: tool.mcp.tool, args: (args ?? {}) as Record<string, unknown>, rule: verdict.rule, reason: verdict.reason } } : {}) };
    log.append({
      kind: 'approval_request',
      id,
      name,
      args,
      effect: tool.effect,
      path: rel,
      command,
      cwd: request.kind === 'command' ? request.cwd : null,
    });
    let answer: ApprovalAnswer;
    try {
      answer = await awaitApproval(deps.host, request, signal);
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      log.append({ kind: 'paused', reason: `approval not answered: ${(e as Error).message}`, pending: [id] });
      return { kind: 'paused', message: `waiting for approval of ${name} (${id})` };
    }
    switch (answer.decision) {
      case 'approve':
        log.append({ kind: 'approval', id, decision: 'approve', reason: null, diff: null, always: answer.always ?? false });
        if (answer.always) deps.onAlways?.({ name, args, effect: tool.effect, path: rel, command, ...mcp });
        break;
      case 'deny':
        log.append({ kind: 'approval', id, decision: 'deny', reason: answer.reason, diff: null, always: false });
        return refuse('denied', `The person denied this call${answer.reason ? ` and said: "${answer.reason}"` : ''}. ${notDone(tool.effect, rel)}`);
      case 'edit': {
        if (tool.effect !== 'write' || !rel || proposed === null) {
          log.append({ kind: 'approval', id, decision: 'deny', reason: 'an edit answer is only possible for file writes', diff: null, always: false });
          return refuse('denied', `The approval answer was invalid for this call. ${notDone(tool.effect, rel)}`);
        }
        const diff = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, proposed, answer.content, 'your proposal', 'kept by the person');
        runArgs = { path: rel, content: answer.content };
        editedContent = answer.content;
        proposed = answer.content;
        editNote =
          `\n\nThe person edited your proposal before approving it. ${rel} now holds THEIR version; build on it. ` +
          (answer.reason ? `They said why: "${answer.reason}"\n` : '') +
          `Their changes against your proposal (unified diff):\n${diff}`;
        log.append({ kind: 'approval', id, decision: 'edit', reason: answer.reason ?? null, edited_args: runArgs, diff, always: false });
        break;
      }
      default:
        return assertNever(answer, 'approval answer');
    }
  }

  if (tool.effect !== 'none') {
    log.append({
      kind: 'intent',
      id,
      name,
      args: runArgs,
      effect: tool.effect,
      path: rel,
      pre_hash: before === null ? null : sha256(before),
      post_hash: proposed === null ? null : sha256(proposed),
    });
  }
  const began = deps.now();
  // An edited write stores exactly the person's content (same write path as the tools use).
  const outcome = editedContent !== null && rel !== null ? commitWrite(deps.toolContext, rel, editedContent) : await deps.toolbox.run(tool, runArgs, { ...deps.toolContext, signal, callId: id, ...(hardLinkRead ? { hardLinkApproved: true } : {}) });
  if (outcome.path === undefined && rel) outcome.path = rel;
  const ms = deps.now() - began;
  // PostToolUse hooks see the result; what they report goes to the model with it (the call already ran).
  const post = deps.hooks ? ((await deps.hooks.postToolUse({ id, name, args: runArgs, output: outcome.output, is_error: outcome.is_error }, signal)).blocked?.reason ?? null) : null;
  return finish(outcome, ms, runArgs, name, editNote + (post !== null ? `\n\n[Kite] A PostToolUse hook reported: ${post}` : ''));
}

/** Hard links of the regular file a read names (undefined for anything else: the tool reports it). */
function linkCount(abs: string): number | undefined {
  try {
    const st = lstatSync(abs);
    return st.isFile() ? st.nlink : undefined;
  } catch {
    return undefined;
  }
}

function awaitApproval(host: Host, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<ApprovalAnswer>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    host.approve(request, signal).then(
      (a) => {
        signal.removeEventListener('abort', onAbort);
        resolve(a);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
