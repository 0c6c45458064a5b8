// The calls a crash (or a pause) left without a result, decided WITHOUT asking the model:
//   - not yet approved (proposed / policy / waiting for the person): the loop's own handleToolUse
//     runs again behind ResumeSink, so the person is re-asked and nothing is logged twice;
//   - answered (approve / edit / deny), not started: finished with the recorded answer;
//   - intent on disk, no result: a write is checked against its pre/post hashes (done → recorded
//     as recovered; not done → run now; neither → the model is told the file changed outside
//     Kite); a command is never silently re-run — the model is told it may have partly run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventSink } from '../events/sink';
import type { LoopDeps } from '../loop/session';
import type { LoopState } from '../loop/state';
import { repetitionKey } from '../loop/repetition';
import { handleToolUse } from '../loop/toolCall';
import type { ToolUseBlock } from '../protocol/content';
import type { EventOf, KiteEvent } from '../protocol/events';
import { unfinishedCalls, type CallState, type RunState } from '../protocol/reducer';
import { sha256 } from '../tools/hash';
import { answerOf, type RecordedAnswerHost, type ResumeSink } from './resumeSink';

export type FinishCallsResult = { kind: 'ok' } | { kind: 'stuck' | 'paused'; message: string };

export interface FinishCallsInput {
  run: RunState;
  events: readonly KiteEvent[];
  deps: LoopDeps; // deps.log is `sink`, deps.host is `host`
  sink: ResumeSink;
  log: EventSink; // the raw writer, for recovered results
  host: RecordedAnswerHost;
  loop: LoopState;
  signal: AbortSignal;
}

type Recorded = Partial<{ [K in 'proposed' | 'policy' | 'approval_request' | 'approval' | 'intent']: EventOf<K> }>;

function recordedById(events: readonly KiteEvent[], ids: Set<string>): Map<string, Recorded> {
  const m = new Map<string, Recorded>();
  for (const e of events) {
    if (!('id' in e) || typeof e.id !== 'string' || !ids.has(e.id)) continue;
    const r = m.get(e.id) ?? {};
    switch (e.kind) {
      case 'proposed':
        r.proposed = e;
        break;
      case 'policy':
        r.policy = e;
        break;
      case 'approval_request':
        r.approval_request = e;
        break;
      case 'approval':
        r.approval = e;
        break;
      case 'intent':
        r.intent = e;
        break;
      default:
        break;
    }
    m.set(e.id, r);
  }
  return m;
}

export async function finishUnfinishedCalls(input: FinishCallsInput): Promise<FinishCallsResult> {
  const list = unfinishedCalls(input.run);
  const recorded = recordedById(input.events, new Set(list.map((u) => u.use.id)));
  for (const { use, call } of list) {
    const rec = recorded.get(use.id) ?? {};
    if (input.run.lastStop === 'max_tokens' && !rec.proposed) {
      // The loop never runs the calls of a reply cut at max_tokens; neither does resume.
      const output = 'This call was part of a reply cut off at max_tokens; it did NOT run. Send it again if you still need it.';
      input.log.append({ kind: 'tool', id: use.id, name: use.name, args: use.input, ms: 0, is_error: true, output, error_code: 'failed', recovered: true });
      input.loop.conversation.addToolResult(use.id, output, true);
      continue;
    }
    const r = call?.stage === 'intent' && rec.intent ? await finishAfterIntent(input, use, call, rec, rec.intent) : await rerun(input, use, call, rec);
    if (r.kind !== 'ok') return r;
  }
  return { kind: 'ok' };
}

/** Runs handleToolUse again with everything already on disk suppressed or answered. */
async function rerun(input: FinishCallsInput, use: ToolUseBlock, call: CallState | null, rec: Recorded): Promise<FinishCallsResult> {
  for (const e of [rec.proposed, rec.policy, rec.approval_request, rec.approval, rec.intent]) if (e) input.sink.alreadyLogged(use.id, e);
  if (rec.approval) input.host.record(use.id, answerOf(rec.approval));
  // The proposal was counted when the state was rebuilt; handleToolUse counts it again.
  if (rec.proposed) {
    const key = repetitionKey(use.name, use.input);
    const n = input.loop.repeats.get(key) ?? 0;
    if (n > 0) input.loop.repeats.set(key, n - 1);
  }
  const r = await handleToolUse(use, call?.turn ?? input.loop.turns, input.loop.repeats, input.deps, input.signal);
  switch (r.kind) {
    case 'result':
      input.loop.conversation.addToolResult(use.id, r.output, r.is_error);
      return { kind: 'ok' };
    case 'stuck':
    case 'paused':
      return { kind: r.kind, message: r.message };
  }
}

async function finishAfterIntent(input: FinishCallsInput, use: ToolUseBlock, call: CallState, rec: Recorded, intent: EventOf<'intent'>): Promise<FinishCallsResult> {
  const record = (output: string, isError: boolean, extra: { error_code: string | null; exit_code?: number | null; post_hash?: string | null }) => {
    input.log.append({ kind: 'tool', id: use.id, name: use.name, args: intent.args, ms: 0, is_error: isError, output, path: intent.path, recovered: true, ...extra });
    input.loop.conversation.addToolResult(use.id, output, isError);
    return { kind: 'ok' } as const;
  };
  switch (intent.effect) {
    case 'exec': {
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
      const abs = path ? join(input.deps.toolContext.root, path) : null;
      const current = abs && existsSync(abs) ? sha256(readFileSync(abs)) : null;
      if (current !== null && current === intent.post_hash) {
        return record(`${path} already holds the content of this call: the write completed before Kite stopped (recovered from the log after a crash; it was not written again).`, false, {
          error_code: null,
          post_hash: current,
        });
      }
      if (current === intent.pre_hash) return rerun(input, use, call, rec);
      return record(
        `${path} changed outside Kite while this call was interrupted by a crash: it holds neither its content from before your call nor the content you asked for. ` +
          'Your change was NOT applied. Read the file again before changing it.',
        true,
        { error_code: 'changed_outside' },
      );
    }
    case 'none':
      return rerun(input, use, call, rec);
  }
}
