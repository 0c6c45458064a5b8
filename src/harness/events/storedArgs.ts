// The writer's half of protocol/argsRef.ts: a call's arguments that the model event (or the
// person's edit in the approval) already holds on disk are written as a reference, not again.
// Holds the hashes of one model event's calls, never the run's content.
import { ArgsRefResolver, canonicalJson, isRefEvent, type ArgsRef } from '../protocol/argsRef';
import type { EventBody, KiteEvent } from '../protocol/events';
import { sha256 } from '../tools/hash';

type RefBody = Extract<EventBody, { kind: 'proposed' | 'approval_request' | 'intent' | 'tool' }>;

const isRefBody = (b: EventBody): b is RefBody => b.kind === 'proposed' || b.kind === 'approval_request' || b.kind === 'intent' || b.kind === 'tool';

export class StoredArgs {
  /** sha256 of a value as the loop gave it, for the values redaction changed on disk ("model:<id>", "approval:<id>"). */
  private given = new Map<string, string>();

  /** `refs`: the state at the end of the log when a writer continues one (resume), else empty. */
  constructor(private readonly refs: ArgsRefResolver = new ArgsRefResolver(sha256)) {}

  /** The body to write: its args replaced by a reference when they are already stored. */
  compact(body: EventBody): EventBody {
    if (!isRefBody(body) || body.args === undefined) return body;
    // An edited write runs with the person's version: look for it first.
    const places: ArgsRef['in'][] = body.kind === 'intent' || body.kind === 'tool' ? ['approval', 'model'] : ['model'];
    let given: string | undefined;
    for (const where of places) {
      const t = this.refs.target(body.id, where);
      if (!t) continue;
      if (t.value !== body.args) {
        given ??= sha256(canonicalJson(body.args));
        if (given !== (this.given.get(`${where}:${body.id}`) ?? t.sha256)) continue;
      }
      const { args: _stored, ...rest } = body;
      return { ...rest, args_ref: { call: body.id, in: where, sha256: t.sha256 } };
    }
    return body;
  }

  /**
   * After `written` is on disk (`body`: as the loop gave it; `redacted`: the line differs from it):
   * remembers what later lines may refer to, and resolves written's own reference for listeners.
   */
  stored(body: EventBody, written: KiteEvent, redacted: boolean): void {
    if (written.kind === 'model') this.given = new Map();
    if (redacted && body.kind === 'model') {
      for (const b of body.content) if (b.type === 'tool_use') this.given.set(`model:${b.id}`, sha256(canonicalJson(b.input)));
    }
    if (redacted && body.kind === 'approval' && body.edited_args !== undefined) this.given.set(`approval:${body.id}`, sha256(canonicalJson(body.edited_args)));
    const problem = this.refs.event(written, written.seq + 1);
    if (problem && isRefEvent(written)) throw new Error(`Kite wrote a reference it cannot resolve (a bug): ${problem.message}`);
  }
}
