// The `tools` phase: the calls of the last reply that have no result yet, in tool_use order.
// In a fresh run that is every call of the reply, run by handleToolUse. After a crash or a pause
// the same step finishes what the log shows unfinished, WITHOUT asking the model:
//   - not yet approved (proposed / policy / waiting for the person): handleToolUse runs again
//     behind RecordedCallSink, so the person is re-asked and nothing is logged twice;
//   - answered (approve / edit / deny), not started: finished with the recorded answer;
//   - intent on disk, no result: a write is checked against its pre/post hashes (done → recorded
//     as recovered; not done → run now; neither → the model is told the file changed outside
//     Kite); a command is never silently re-run — the model is told it may have partly run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolUseBlock } from '../protocol/content';
import type { EventOf } from '../protocol/events';
import { unfinishedCalls, type CallState, type RecordedEvents } from '../protocol/reducer';
import { isMcpToolName } from '../mcp/mcpTools';
import { sha256 } from '../tools/hash';
import { answerOf } from './recorded';
import type { LoopDeps } from './session';
import { handleToolUse } from './toolCall';
import { replyBlockedResult } from './hookSteps';

export type ToolsStepResult = { kind: 'ok' } | { kind: 'stuck' | 'paused'; message: string };

const CUT_CALL = 'This call was part of a reply cut off at max_tokens; it did NOT run. Send it again if you still need it.';

export async function toolsStep(deps: LoopDeps, signal: AbortSignal): Promise<ToolsStepResult> {
  const s = deps.state;
  const blocked = s.replyHooks?.blocked ?? null;
  for (const { use, call } of unfinishedCalls(s)) {
    const rec = call?.recorded ?? {};
    if (blocked !== null && !rec.proposed) {
      // A PostModelReply hook blocked the reply: none of its calls runs, each is told why.
      deps.log.append({ kind: 'tool', id: use.id, name: use.name, args: use.input, ms: 0, is_error: true, output: replyBlockedResult(blocked), error_code: 'denied' });
      continue;
    }
    if (s.lastStop === 'max_tokens' && !rec.proposed) {
      // The loop never runs the calls of a reply cut at max_tokens (modelStep answers them at
      // once); these are left over from a crash right after such a reply.
      deps.log.append({ kind: 'tool', id: use.id, name: use.name, args: use.input, ms: 0, is_error: true, output: CUT_CALL, error_code: 'failed', recovered: true });
      continue;
    }
    const r = call?.stage === 'intent' && rec.intent ? await finishAfterIntent(deps, use, call, rec, rec.intent, signal) : await runCall(deps, use, call, rec, signal);
    if (r.kind !== 'ok') return r;
    if (s.budgetStop) return { kind: 'ok' }; // the observation budget withheld a result: the run is finishing
  }
  return { kind: 'ok' };
}

/** The calls of a reply cut at max_tokens are not trusted: each gets a result saying it did not run. */
export function answerCutCalls(deps: LoopDeps, uses: readonly ToolUseBlock[]): void {
  for (const u of uses) deps.log.append({ kind: 'tool', id: u.id, name: u.name, args: u.input, ms: 0, is_error: true, output: CUT_CALL, error_code: 'failed' });
}

/** Runs handleToolUse with everything already on disk suppressed or answered. */
async function runCall(deps: LoopDeps, use: ToolUseBlock, call: CallState | null, rec: RecordedEvents, signal: AbortSignal): Promise<ToolsStepResult> {
  for (const e of [rec.proposed, rec.policy, rec.approval_request, rec.approval, rec.intent]) if (e) deps.recorded.sink.alreadyLogged(use.id, e);
  if (rec.approval) deps.recorded.host.record(use.id, answerOf(rec.approval));
  const r = await handleToolUse(use, call?.turn ?? deps.state.turns, deps, signal);
  return r.kind === 'result' ? { kind: 'ok' } : { kind: r.kind, message: r.message };
}

async function finishAfterIntent(deps: LoopDeps, use: ToolUseBlock, call: CallState, rec: RecordedEvents, intent: EventOf<'intent'>, signal: AbortSignal): Promise<ToolsStepResult> {
  const record = (output: string, isError: boolean, extra: { error_code: string | null; exit_code?: number | null; post_hash?: string | null }) => {
    deps.log.append({ kind: 'tool', id: use.id, name: use.name, args: intent.args, ms: 0, is_error: isError, output, path: intent.path, recovered: true, ...extra });
    return { kind: 'ok' } as const;
  };
  switch (intent.effect) {
    case 'exec': {
      // An MCP call's effect is the server's: unknown, so like a command it is reported, never re-sent.
      if (isMcpToolName(use.name)) {
        return record(
          `Kite stopped (a crash) while this MCP tool call (${use.name}) was being sent or answered. It may have run on the server; its result is lost, and it was NOT sent again. Check its effects before deciding whether to call it again.`,
          true,
          { error_code: 'interrupted', exit_code: null },
        );
      }
      const command = (intent.args as { command?: unknown } | null)?.command;
      return record(
        `Kite stopped (a crash) while this command was starting or running${typeof command === 'string' ? `: \`${command}\`` : ''}. ` +
          'It may have partly run; its output is lost, and it was NOT run again. Check its effects before deciding whether to run it again.',
        true,
        { error_code: 'interrupted', exit_code: null },
      );
    }
    case 'write': {
      const path = intent.path ?? call.path;
      const abs = path ? join(deps.toolContext.root, path) : null;
      const current = abs && existsSync(abs) ? sha256(readFileSync(abs)) : null;
      if (current !== null && current === intent.post_hash) {
        return record(`${path} already holds the content of this call: the write completed before Kite stopped (recovered from the log after a crash; it was not written again).`, false, {
          error_code: null,
          post_hash: current,
        });
      }
      if (current === intent.pre_hash) return runCall(deps, use, call, rec, signal);
      return record(
        `${path} changed outside Kite while this call was interrupted by a crash: it holds neither its content from before your call nor the content you asked for. ` +
          'Your change was NOT applied. Read the file again before changing it.',
        true,
        { error_code: 'changed_outside' },
      );
    }
    case 'none':
      return runCall(deps, use, call, rec, signal);
  }
}
