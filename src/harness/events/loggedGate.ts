// Wraps the gate: every verdict becomes a `gate` event with per-check results.
import type { GateCheckOptions, GateLike, GateVerdict } from '../gate/gate';
import type { EventSink } from './sink';

export class LoggedGate implements GateLike {
  constructor(
    private readonly inner: GateLike,
    private readonly log: EventSink,
  ) {}

  async check(opts: GateCheckOptions): Promise<GateVerdict> {
    const v = await this.inner.check(opts);
    this.log.append({ kind: 'gate', attempt: opts.attempt, passed: v.passed, feedback: v.feedback, checks: v.checks });
    return v;
  }
}
