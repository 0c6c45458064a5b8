// The live side of trajectory contracts (policy/contracts.ts), as wrappers around the loop's
// collaborators rather than edits of the loop: a step of the policy chain (a call a forbid
// contract would break is refused as a policy decision with rule `contract:<id>`; a warn contract
// is logged and told to the model), a gate in front of the gate (done is refused while a require
// contract is unmet or a passing gate would break one), and a sink that folds every event the run
// writes into the contracts' automata.
import type { EventSink } from '../events/sink';
import type { GateCheckOptions, GateLike, GateVerdict } from '../gate/gate';
import type { PolicyLike } from '../loop/toolCall';
import type { EventBody, KiteEvent } from '../protocol/events';
import { describeContract, type Contract, type ContractMonitor } from './contracts';
import type { PolicyCall, PolicyContext, PolicyVerdict } from './types';

export const contractRule = (c: Contract) => `contract:${c.id}`;

export class ContractPolicy implements PolicyLike {
  constructor(
    private readonly inner: PolicyLike,
    private readonly monitor: ContractMonitor,
    private readonly log: EventSink,
  ) {}

  decide(call: PolicyCall, ctx: PolicyContext): PolicyVerdict {
    const v = this.inner.decide(call, ctx);
    if (v.decision === 'deny') return v;
    const hits = this.monitor.wouldViolate({ kind: 'tool', name: call.name, args: call.args, path: call.path });
    const forbid = hits.find((h) => h.contract.action === 'forbid');
    if (forbid) return { decision: 'deny', rule: contractRule(forbid.contract), reason: `contract ${forbid.contract.id}: ${describeContract(forbid.contract)} (${forbid.why})` };
    for (const h of hits.filter((x) => x.contract.action === 'warn')) {
      const message = `contract ${h.contract.id}: ${describeContract(h.contract)} (${h.why})`;
      this.log.append({ kind: 'warning', code: contractRule(h.contract), message });
      this.log.append({ kind: 'user', reason: 'notice', text: `[Kite] Warning, ${message}. The call was allowed.` });
    }
    return v;
  }
}

/** Done is refused like a failed gate while a require contract is unmet, or when passing would break a contract. */
export class ContractGate implements GateLike {
  constructor(
    private readonly inner: GateLike,
    private readonly monitor: ContractMonitor,
  ) {}

  check(opts: GateCheckOptions): Promise<GateVerdict> {
    const breaks = this.monitor
      .wouldViolate({ kind: 'gate', passed: true })
      .filter((h) => h.contract.action !== 'warn')
      .map((h) => `contract ${h.contract.id}: ${describeContract(h.contract)} (${h.why})`);
    const unmet = this.monitor
      .verdicts()
      .filter((v) => v.action === 'require' && v.status !== 'held')
      .map((v) => `contract ${v.id}: ${v.message}`);
    const problems = [...unmet, ...breaks];
    if (!problems.length) return this.inner.check(opts);
    // The first line names the contracts: it is what `kite diagnose` and the eval notes show.
    const feedback = `[Kite] You are not done: ${problems.join('; ')}.\nThe checks did not run (gate attempt ${opts.attempt} of ${opts.maxAttempts}); meet the contract${problems.length === 1 ? '' : 's'} first.`;
    return Promise.resolve({ passed: false, feedback, checks: [] });
  }
}

/** Folds every event the run writes into the monitor (after the inner sink wrote it). */
export class ContractSink implements EventSink {
  constructor(
    private readonly inner: EventSink,
    private readonly monitor: ContractMonitor,
  ) {}

  append(body: EventBody): KiteEvent {
    const e = this.inner.append(body);
    this.monitor.observe(e);
    return e;
  }
}
