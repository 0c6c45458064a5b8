// The loop's state is the fold of its own log: every event the run writes is applied to its one
// RunState the moment it is on disk, so a fresh run, a resume (which starts from the fold of the
// log) and a replay see the same state by construction.
import type { EventSink } from '../events/sink';
import type { EventBody, KiteEvent } from '../protocol/events';
import { applyEvent, type RunState } from '../protocol/reducer';

export class FoldingSink implements EventSink {
  constructor(
    private readonly inner: EventSink,
    readonly state: RunState,
  ) {}

  append(body: EventBody): KiteEvent {
    const e = this.inner.append(body);
    // The state folds what the run said, not the redacted copy on disk: a tool call runs with the
    // arguments the model sent (a resume, folding the disk copy, sees the redacted ones). Tool
    // results are screened for secrets before they are written (toolCall.ts, secrets/), so for
    // them the live state and a resume's fold are the same — except a value a detector set to
    // "audit" lets through and the log's own Redactor still replaces on disk.
    applyEvent(this.state, { ...e, ...body } as KiteEvent);
    return e;
  }
}
