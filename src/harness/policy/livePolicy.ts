// The policy of one run, and the one way "Always allow" changes it: the rule is saved to
// .kite/config.json (config/persistRule.ts) and the policy is rebuilt from the config as saved.
// A later identical request in the same run is then allowed by the policy itself; no side list of
// allowed commands is kept anywhere else. When the rule cannot be saved the run says so in its log
// and the policy stays as it was (the next identical request is asked again).
import { appendPolicyRule } from '../config/persistRule';
import type { KiteConfig } from '../config/config';
import type { EventSink } from '../events/sink';
import { PolicyConfigSchema } from './config';
import { allowRuleForCommand, allowRuleForPath, allowRuleForTool, Policy } from './policy';
import type { PolicyCall, PolicyContext, PolicyVerdict } from './types';

export class LivePolicy {
  private policy: Policy;
  /** The host's (settings') additions outlive a reload of the file after "Always allow". */
  private readonly host: KiteConfig['host_policy'];
  constructor(
    private readonly root: string,
    config: KiteConfig,
    private readonly log: EventSink,
  ) {
    this.host = config.host_policy;
    this.policy = new Policy(PolicyConfigSchema.parse(config.policy ?? {}), this.host);
  }

  decide(call: PolicyCall, ctx: PolicyContext): PolicyVerdict {
    return this.policy.decide(call, ctx);
  }

  always(call: PolicyCall): void {
    const rule = call.mcp ? allowRuleForTool(call.name) : call.command !== null ? allowRuleForCommand(call.command) : call.path !== null ? allowRuleForPath(call.name, call.path) : null;
    if (!rule) return;
    try {
      const saved = appendPolicyRule(this.root, rule);
      this.policy = new Policy(PolicyConfigSchema.parse(saved.policy ?? {}), this.host);
    } catch (e) {
      this.log.append({ kind: 'warning', code: 'policy_not_saved', message: `"always allow" could not be saved: ${(e as Error).message}` });
    }
  }
}
