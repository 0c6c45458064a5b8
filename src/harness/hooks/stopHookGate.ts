// Stop hooks run when the model claims done, before the gate: a block refuses done like a failed
// gate (the reason goes to the model), and the checks do not run.
import type { GateCheckOptions, GateLike, GateVerdict } from '../gate/gate';
import type { HookRunner } from './hookRunner';

export class StopHookGate implements GateLike {
  constructor(
    private readonly inner: GateLike,
    private readonly hooks: HookRunner,
  ) {}

  async check(opts: GateCheckOptions): Promise<GateVerdict> {
    const reason = (await this.hooks.stop(opts.signal ?? new AbortController().signal)).blocked?.reason ?? null;
    if (reason === null) return this.inner.check(opts);
    return { passed: false, feedback: `[Kite] A Stop hook refused done: ${reason}\nThe checks did not run (gate attempt ${opts.attempt} of ${opts.maxAttempts}).`, checks: [] };
  }
}
