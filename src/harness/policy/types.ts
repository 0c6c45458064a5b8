// Contract of the policy: ordered rules decide allow / ask / deny and name the rule that matched.
import type { Decision, Effect, Mode } from '../protocol/events';
import type { McpToolRef } from '../tools/types';

export interface PolicyCall {
  name: string;
  args: unknown; // validated
  effect: Effect;
  path: string | null; // workspace-relative target for file tools
  command: string | null; // for `run`
  /** For a read of an existing file: its hard-link count (> 1: another name may be a file outside the workspace). */
  hardLinks?: number;
  /** An MCP server's tool: decided by server and tool (default ask), never by command patterns. */
  mcp?: McpToolRef;
}

export interface PolicyVerdict {
  decision: Decision;
  rule: string; // e.g. "allow:reads", "ask:writes", "deny:git-push", "allow:checks", "unattended:refuse"
  reason: string; // said to the model when denied
}

export interface PolicyContext {
  mode: Mode;
  checks: string[]; // configured gate checks (always allowed)
  verify: string | null; // the feature's verify command (always allowed)
  featureTools: string[] | null; // a feature may restrict its tools
  verifyFiles?: string[]; // files the verify command names (protected like the checks' files)
  mayChange?: string[]; // the feature's may_change: globs whose protection it lifts
}
