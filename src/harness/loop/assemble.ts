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
import { Policy } from '../policy/policy';
import type { Limits, Mode } from '../protocol/events';
import type { Feature } from '../progress/progressFile';
import { createRunner } from '../sandbox/runner';
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
}

export function logDirOf(root: string, config: KiteConfig): string {
  return resolve(root, config.log_dir);
}

export function verifyOf(feature: Feature): string | null {
  return feature.verify?.trim() ? feature.verify.trim() : null;
}

export function assembleLoop(input: AssembleInput): LoopDeps & { logged: LoggedModel } {
  const { root, config, feature } = input;
  const runner = input.runner ?? createRunner({ env: input.env });
  const toolbox = input.toolbox ?? createToolbox();
  const verify = verifyOf(feature);
  const price = priceOf(input.model.id.startsWith('anthropic:') ? input.model.id : (config.model ?? input.model.id), config.prices);
  const logged = new LoggedModel(input.model, input.log, price, input.turnsSoFar, input.now);
  const gate = new LoggedGate(new Gate({ root, checks: config.checks, verify, timeoutS: config.command_timeout, runner }), input.log);
  return {
    logged,
    model: logged,
    gate,
    log: input.log,
    toolbox,
    policy: new Policy(PolicyConfigSchema.parse(config.policy ?? {})),
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
  };
}
