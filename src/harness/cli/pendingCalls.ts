// The calls a paused run waits on, shown in full before anyone approves them (issue 13, item 16):
// the command and its folder, the diff of a write (computed now, by the tool's own preview, so it
// is the change that would be made), or the file a read would reveal. Used by the pause message,
// by `kite resume --approve` (which names the calls it approves) and its usage errors.
import { dirname } from 'node:path';
import type { ApprovalRequest } from '../host';
import type { EventOf, KiteEvent } from '../protocol/events';
import { showControlChars } from '../protocol/controlChars';
import { foldEvents, unfinishedCalls } from '../protocol/reducer';
import { TOOL_NAME } from '../protocol/toolName';
import { ALL_TOOLS, isOutcome, previewWrite } from '../tools/index';
import { requestText } from './approvalText';

export interface PendingCall {
  id: string;
  name: string;
  /** What the person would approve, or null when it cannot be shown (then `note` says why). */
  request: ApprovalRequest | null;
  note: string;
}

/** Every call of the log that has no result yet, with what it would ask (in tool_use order). */
export function pendingCalls(events: readonly KiteEvent[], logPath: string): PendingCall[] {
  const s = foldEvents(events); // with the conversation: calls of the last reply not proposed yet count too
  const start = events.find((e): e is EventOf<'session_start'> => e.kind === 'session_start');
  const policyReason = (id: string) => [...events].reverse().find((e): e is EventOf<'policy'> => e.kind === 'policy' && e.id === id)?.reason ?? '';
  // The calls resume will go through, in order; one after the call the run paused on is not asked yet: shown from its proposal.
  return unfinishedCalls(s).map(({ use }) => {
    const { id, name } = use;
    const asked = s.pendingApprovals[id] ?? proposalOf(id, name, use.input, start?.root ?? null);
    if (!asked) return { id, name, request: null, note: 'not a write or a command (checked, and asked if needed, when the run continues)' };
    return { id, name, ...requestOf(asked, start?.root ?? null, dirname(logPath), policyReason(id)) };
  });
}

type Asked = Pick<EventOf<'approval_request'>, 'id' | 'name' | 'args' | 'effect' | 'path' | 'command' | 'cwd'>;

/** What a not-yet-asked write or command would ask, from its tool's own description of the call. */
function proposalOf(id: string, name: string, args: unknown, root: string | null): Asked | null {
  const tool = ALL_TOOLS.find((t) => t.name === name);
  const parsed = tool?.input.safeParse(args);
  if (!tool || !parsed?.success || tool.effect === 'none') return null;
  const target = tool.target(parsed.data);
  const path = target && 'path' in target ? target.path : null;
  const command = target && 'command' in target ? target.command : null;
  return { id, name, args, effect: tool.effect, path, command, cwd: root };
}

function requestOf(e: Asked, root: string | null, logDir: string, reason: string): { request: ApprovalRequest | null; note: string } {
  if (e.effect === 'exec' || (e.effect !== 'write' && e.path === null)) {
    return { request: { kind: 'command', id: e.id, command: e.command ?? `${e.name} ${JSON.stringify(e.args)}`, cwd: e.cwd ?? root ?? '?' }, note: '' };
  }
  if (e.effect === 'none' && e.path !== null && TOOL_NAME.test(e.name)) return { request: { kind: 'read', id: e.id, tool: e.name, path: e.path, reason }, note: '' };
  const tool = ALL_TOOLS.find((t) => t.name === e.name);
  const args = tool?.input.safeParse(e.args);
  if (!tool || !args?.success || root === null) return { request: null, note: `a write by ${e.name} to ${e.path ?? '?'} whose diff cannot be computed here` };
  const p = previewWrite({ root, logDir }, tool, args.data);
  if (isOutcome(p)) return { request: null, note: `a write to ${e.path ?? '?'} that would fail now: ${p.output}` };
  return { request: { kind: 'write', id: e.id, tool: tool.name, path: p.path, before: p.before, proposed: p.proposed }, note: '' };
}

/** Each pending call in full, under a line naming its id (what `--approve` takes). */
export function pendingCallsText(calls: readonly PendingCall[]): string {
  return calls
    .map((c) => {
      const head = `call ${showControlChars(c.id, { oneLine: true })} (${showControlChars(c.name, { oneLine: true })}):`;
      return c.request ? `${head}\n${requestText(c.request)}` : `${head} ${showControlChars(c.note, { oneLine: true })}`;
    })
    .join('\n\n');
}
