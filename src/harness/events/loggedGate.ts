// Wraps the gate: every verdict becomes a `gate` event with per-check results. A check's output
// is the one text the model sees that no tool produced (a test that prints .env, say): it is
// screened for secrets before it is logged or fed back.
import type { GateCheckOptions, GateLike, GateVerdict } from '../gate/gate';
import type { EventSink } from './sink';

export class LoggedGate implements GateLike {
  constructor(
    private readonly inner: GateLike,
    private readonly log: EventSink,
    private readonly redact: (text: string) => string = (t) => t,
  ) {}

  async check(opts: GateCheckOptions): Promise<GateVerdict> {
    const raw = await this.inner.check(opts);
    const v: GateVerdict = { ...raw, feedback: this.redact(raw.feedback), checks: raw.checks.map((c) => ({ ...c, output_tail: this.redact(c.output_tail), ...(c.judge ? { judge: { ...c.judge, reasons: this.redact(c.judge.reasons) } } : {}) })) };
    if (opts.signal?.aborted) {
      // Killed checks are not a verdict: no gate event (it would count as a failed attempt).
      const ran = v.checks.map((c) => `\`${c.command}\` ${c.exit_code === 0 && !c.timed_out ? 'passed' : 'killed'}`).join(', ');
      this.log.append({ kind: 'warning', code: 'gate_cancelled', message: `the run was stopped during gate attempt ${opts.attempt}${ran ? ` (${ran})` : ''}; no verdict` });
      return v;
    }
    const changed = v.changed_gate_files !== undefined ? { changed_gate_files: v.changed_gate_files } : {};
    const verdictNotes = {
      ...(v.unverified !== undefined ? { unverified: v.unverified } : {}),
      ...(v.no_change ? { no_change: true } : {}),
      ...(v.confirmed_by_person ? { confirmed_by_person: true } : {}),
    };
    this.log.append({ kind: 'gate', attempt: opts.attempt, passed: v.passed, feedback: v.feedback, checks: v.checks, ...changed, ...verdictNotes });
    return v;
  }
}
