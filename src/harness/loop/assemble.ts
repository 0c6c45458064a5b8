// Builds the loop's collaborators for one feature in one work tree. runFeature uses it for a new
// run; resume (log slice) uses it to continue a run from the state its log folds to.
import { resolve } from 'node:path';
import type { KiteConfig } from '../config/config';
import { LoggedGate } from '../events/loggedGate';
import { LoggedModel } from '../events/loggedModel';
import type { EventSink } from '../events/sink';
import { Gate } from '../gate/gate';
import type { Host } from '../host';
import type { Model } from '../model/model';
import { priceOf } from '../model/pricing';
import { PolicyConfigSchema } from '../policy/config';
import { allowRuleForCommand, allowRuleForPath, Policy } from '../policy/policy';
import type { PolicyCall, PolicyContext, PolicyVerdict } from '../policy/types';
import { appendPolicyRule } from '../config/persistRule';
import type { Limits, Mode } from '../protocol/events';
import type { Feature } from '../progress/progressFile';
import { createRunner } from '../sandbox/runner';
import { RunSandbox } from '../sandbox/runSandbox';
import { createToolbox } from '../tools/index';
import type { ProcessRunner } from '../sandbox/types';
import type { Toolbox } from '../tools/types';
import type { LoopDeps } from './session';
import { SYSTEM_PROMPT } from '../prompts/system';

export interface AssembleInput {
  root: string; // absolute work tree root
  config: KiteConfig;
  feature: Feature;
  mode: Mode;
  limits: Limits;
  model: Model; // the raw model, positioned at its next reply
  turnsSoFar: number; // 0 for a new run
  log: EventSink;
  host: Host;
  now: () => number;
  runner?: ProcessRunner; // injected by tests
  toolbox?: Toolbox; // injected by tests
  env?: NodeJS.ProcessEnv;
  /** Tests: a sandbox that pretends the machine has none (fail-closed paths). */
  sandbox?: RunSandbox;
}

export function logDirOf(root: string, config: KiteConfig): string {
  return resolve(root, config.log_dir);
}

export function verifyOf(feature: Feature): string | null {
  return feature.verify?.trim() ? feature.verify.trim() : null;
}

/** The policy of a run; "Always allow" swaps in the policy of the updated config. */
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
    const rule = call.command !== null ? allowRuleForCommand(call.command) : call.path !== null ? allowRuleForPath(call.name, call.path) : null;
    if (!rule) return;
    try {
      const updated = appendPolicyRule(this.root, rule);
      this.policy = new Policy(PolicyConfigSchema.parse(updated.policy ?? {}), this.host);
    } catch (e) {
      this.log.append({ kind: 'warning', code: 'policy_not_saved', message: `"always allow" could not be saved: ${(e as Error).message}` });
    }
  }
}

export function assembleLoop(input: AssembleInput): LoopDeps & { logged: LoggedModel; sandbox: RunSandbox } {
  const { root, config, feature } = input;
  const sandbox =
    input.sandbox ??
    new RunSandbox({
      root,
      logDir: logDirOf(root, config),
      settings: config.sandbox,
      offBy: config.sandbox_off_by ?? undefined,
      mode: input.mode,
      env: input.env ?? process.env,
      log: input.log,
      confirmUnsandboxed: (q, signal) => input.host.confirmUnsandboxed?.(q, signal ?? new AbortController().signal) ?? Promise.resolve(false),
    });
  const runner = input.runner ?? createRunner({ sandbox });
  const toolbox = input.toolbox ?? createToolbox();
  const verify = verifyOf(feature);
  // Priced by the model that answered (recorded replies name it); a script without model names
  // is priced as the configured model, else the default one.
  const fallback = input.model.id.startsWith('anthropic:') ? input.model.id : (config.model ?? input.model.id);
  const price = (answeredBy: string) => priceOf(answeredBy.startsWith('script:') || answeredBy.startsWith('replay:') ? fallback : answeredBy, config.prices);
  const logged = new LoggedModel(input.model, input.log, price, input.turnsSoFar, input.now);
  const gate = new LoggedGate(new Gate({ root, checks: config.checks, verify, timeoutS: config.command_timeout, runner }), input.log);
  const policy = new LivePolicy(root, config, input.log);
  return {
    logged,
    onAlways: (call) => policy.always(call),
    model: logged,
    gate,
    log: input.log,
    toolbox,
    policy,
    policyContext: { mode: input.mode, checks: config.checks, verify, featureTools: feature.tools ?? null },
    host: input.host,
    toolContext: { root, logDir: logDirOf(root, config), runner, commandTimeoutS: config.command_timeout },
    now: input.now,
    system: SYSTEM_PROMPT,
    tools: toolbox.specs(),
    maxTokens: config.max_tokens,
    limits: input.limits,
    maxGateFailures: config.max_gate_failures,
    costOfLast: () => logged.lastCost,
    sandbox,
  };
}
