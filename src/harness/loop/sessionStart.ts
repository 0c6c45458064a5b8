// The first event of a run: what it was started with (model, mode, limits, checks, the system
// prompt and tools sent, where commands run). The fold of it is the state a run's loop starts from.
import type { KiteConfig } from '../config/config';
import type { Feature, ProgressFile } from '../progress/progressFile';
import type { EventOf, Limits, Mode } from '../protocol/events';
import type { SandboxInfo } from '../protocol/sandboxInfo';
import type { ToolSpec } from '../model/model';
import { verifyOf } from './assemble';

export interface SessionStartInput {
  config: KiteConfig;
  feature: Feature;
  mode: Mode;
  limits: Limits;
  model: string;
  root: string;
  gitHead: string | null;
  branch: string | null;
  replayOf: string | null;
  startedAt: Date;
  /** The progress file when the run started (before its feature became in_progress). */
  progressAtStart: ProgressFile | null;
  deps: { system: string; tools: ToolSpec[]; sandbox: { info: SandboxInfo } };
}

export function sessionStartOf(i: SessionStartInput): Omit<EventOf<'session_start'>, 'v' | 'seq' | 'run' | 't'> {
  return {
    kind: 'session_start',
    feature: i.feature.id,
    title: i.feature.title,
    model: i.model,
    mode: i.mode,
    limits: i.limits,
    max_gate_failures: i.config.max_gate_failures,
    max_tokens: i.config.max_tokens,
    checks: i.config.checks,
    verify: verifyOf(i.feature),
    command_timeout_s: i.config.command_timeout,
    git_head: i.gitHead,
    root: i.root,
    branch: i.branch,
    replay_of: i.replayOf,
    started_at: i.startedAt.toISOString(),
    system: i.deps.system,
    tools: i.deps.tools,
    allowed_tools: i.feature.tools ?? null,
    features: (i.progressAtStart?.features ?? []).map((f) => ({ id: f.id, title: f.title, status: f.status })),
    sandbox: i.deps.sandbox.info,
  };
}
