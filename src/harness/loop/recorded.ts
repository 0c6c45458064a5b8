// Wrappers, not edits (ARCHITECTURE.md §2): to finish a call a crash or a pause interrupted, the
// loop runs its own handleToolUse again, behind a sink that drops the events already on disk for
// that call (so the log does not say "proposed" twice, and the fold does not count it twice) and a
// host that gives back an answer the person already gave (so they are not asked twice). In a fresh
// run nothing is recorded and both pass everything through.
import type { ApprovalAnswer, ApprovalRequest, Host } from '../host';
import type { EventSink } from '../events/sink';
import type { EventBody, EventOf, KiteEvent } from '../protocol/events';
import type { RecordedKind } from '../protocol/reducer';



export class RecordedCallSink implements EventSink {
  private readonly skip = new Map<string, Map<RecordedKind, KiteEvent>>();

  constructor(private readonly inner: EventSink) {}

  /** Drop the next `kind` event of call `id` once: `recorded` is already in the log. */
  alreadyLogged(id: string, recorded: KiteEvent & { kind: RecordedKind }): void {
    let m = this.skip.get(id);
    if (!m) this.skip.set(id, (m = new Map()));
    m.set(recorded.kind, recorded);
  }

  append(body: EventBody): KiteEvent {
    if ('id' in body && typeof body.id === 'string' && isSkippable(body.kind)) {
      const m = this.skip.get(body.id);
      const recorded = m?.get(body.kind);
      if (m && recorded && sameAsRecorded(body, recorded)) {
        m.delete(body.kind);
        return recorded;
      }
    }
    return this.inner.append(body);
  }
}

function isSkippable(kind: string): kind is RecordedKind {
  return kind === 'proposed' || kind === 'policy' || kind === 'approval_request' || kind === 'approval' || kind === 'intent';
}

/** A policy that decides differently now (new rules, --unattended) is logged, not hidden. */
function sameAsRecorded(body: EventBody, recorded: KiteEvent): boolean {
  if (body.kind === 'policy' && recorded.kind === 'policy') return body.decision === recorded.decision && body.rule === recorded.rule;
  if (body.kind === 'intent' && recorded.kind === 'intent') return body.pre_hash === recorded.pre_hash && body.post_hash === recorded.post_hash;
  return true;
}

/** The answer the person gave before the crash, as the host would have returned it. */
export function answerOf(e: EventOf<'approval'>): ApprovalAnswer {
  switch (e.decision) {
    case 'approve':
      return { decision: 'approve' }; // "always" already wrote its rule before the crash
    case 'deny':
      return { decision: 'deny', reason: e.reason ?? '' };
    case 'edit': {
      const content = (e.edited_args as { content?: unknown } | undefined)?.content;
      return typeof content === 'string' ? { decision: 'edit', content } : { decision: 'approve' };
    }
  }
}

/** Answers recorded approvals without asking; everything else goes to the real host. */
export class RecordedAnswerHost implements Host {
  private readonly answers = new Map<string, ApprovalAnswer>();

  constructor(private readonly inner: Host) {
    if (inner.onEvent) this.onEvent = (e) => inner.onEvent?.(e);
    if (inner.confirmUnsandboxed) this.confirmUnsandboxed = (q, signal) => inner.confirmUnsandboxed?.(q, signal) ?? Promise.resolve(false);
  }

  confirmUnsandboxed?: Host['confirmUnsandboxed'];

  onEvent?: (event: KiteEvent) => void;

  record(id: string, answer: ApprovalAnswer): void {
    this.answers.set(id, answer);
  }

  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const a = this.answers.get(request.id);
    if (a) {
      this.answers.delete(request.id);
      return Promise.resolve(a);
    }
    return this.inner.approve(request, signal);
  }
}
