// Which wire code (protocol/rpc.ts RunErrorCode) a thrown harness error reaches the extension as.
// Every error class that can end a start or resume carries a typed `code`; each table below is
// exhaustive over its union, so a new code does not compile until someone decides its wire code.
// Anything else (a bug, a zod error) is 'failed'.
import { ConfigError, type ConfigErrorCode } from '../config/config';
import { SettingsError } from '../config/settingsLayer';
import { LogReadError, type LogReadErrorCode } from '../events/reader';
import { ModelSpecError, type ModelSpecErrorCode } from '../model/index';
import { ModelError, type ModelErrorCode } from '../model/model';
import { ProgressError, type ProgressErrorCode } from '../progress/progressFile';
import { GitError, type GitErrorCode } from '../progress/runGit';
import type { LockHolder, RunErrorCode as WireCode } from '../protocol/rpc';
import { ResumeError, type ResumeErrorCode } from '../resume';
import { RunError, type RunErrorCode } from '../run';

export const RUN_ERROR_WIRE: Record<RunErrorCode, WireCode> = {
  no_root: 'not_found', // the folder named to work in does not exist (or is a file)
  not_a_repo: 'not_a_repo',
  dirty: 'dirty_tree',
  repo_state: 'repo_state',
  symlink: 'invalid_config', // a Kite path in the repository is a symlink: the project needs fixing
  locked: 'locked', // another Kite writes this log (wireLockHolder: its pid)
  untrusted_hooks: 'invalid_config', // the workspace's hooks are not approved (kite trust)
  price_unknown: 'invalid_config', // the fix is a `prices` entry in .kite/config.json
};

export const RESUME_ERROR_WIRE: Record<ResumeErrorCode, WireCode> = {
  corrupt_log: 'cannot_resume',
  not_started: 'cannot_resume',
  already_finished: 'cannot_resume',
  is_replay: 'cannot_resume',
  old_format: 'cannot_resume', // readable, never resumable
  no_root: 'cannot_resume', // the run's folder is gone; Kite will not resume it elsewhere
  repo_state: 'repo_state', // like a new run: finish the rebase or merge, then resume
  broken_chain: 'cannot_resume', // only `kite resume --accept-damaged-log` continues it
  wrong_workspace: 'cannot_resume', // a log from another project or repository
  locked: 'locked', // another window or process is running it (wireLockHolder: its pid)
  symlink: 'invalid_config',
  price_unknown: 'invalid_config',
};

export const CONFIG_ERROR_WIRE: Record<ConfigErrorCode, WireCode> = {
  invalid_json: 'invalid_config',
  invalid_config: 'invalid_config',
  unreadable: 'invalid_config',
};

export const PROGRESS_ERROR_WIRE: Record<ProgressErrorCode, WireCode> = {
  not_found: 'not_found',
  invalid_json: 'invalid_config',
  invalid_progress: 'invalid_config',
  no_feature: 'no_feature',
  unknown_feature: 'no_feature',
};

export const MODEL_ERROR_WIRE: Record<ModelErrorCode, WireCode> = {
  missing_key: 'missing_key',
  auth: 'missing_key', // a rejected key: the fix is the same, set another one
  script_invalid: 'invalid_config',
  script_exhausted: 'failed',
  bad_request: 'failed',
  context_exceeded: 'failed', // the run ends context_exceeded; the start itself did not fail
  network: 'failed',
  overloaded: 'failed',
  cancelled: 'failed',
  unknown: 'failed',
  no_permission: 'failed', // the message says how to allow Kite in VS Code
  blocked: 'failed',
  model_not_found: 'invalid_config', // the fix is another kite.model
  no_answer: 'failed',
};

export const MODEL_SPEC_ERROR_WIRE: Record<ModelSpecErrorCode, WireCode> = {
  bad_spec: 'invalid_config',
  adapter_missing: 'failed',
  host_only: 'invalid_config', // vscode-lm: where no VS Code window answers
};

export const LOG_READ_ERROR_WIRE: Record<LogReadErrorCode, WireCode> = {
  not_found: 'not_found',
  unsupported_version: 'cannot_resume',
  not_a_log: 'cannot_resume',
};

export const GIT_ERROR_WIRE: Record<GitErrorCode, WireCode> = {
  not_a_repo: 'not_a_repo',
  dirty: 'dirty_tree',
  commit_failed: 'failed',
  secret_in_commit: 'failed',
  worktree_failed: 'failed',
  git_failed: 'failed',
};

/** For a `dirty_tree` error: the uncommitted paths (empty for other errors). */
export function wireDirtyPaths(err: unknown): readonly string[] {
  return err instanceof RunError && err.code === 'dirty' ? err.paths : [];
}

/** For a `locked` error: the Kite holding the log's lock, when known. */
export function wireLockHolder(err: unknown): LockHolder | null {
  return (err instanceof RunError || err instanceof ResumeError) && err.code === 'locked' ? err.holder : null;
}

export function wireErrorCode(err: unknown): WireCode {
  if (err instanceof RunError) return RUN_ERROR_WIRE[err.code];
  if (err instanceof ResumeError) return RESUME_ERROR_WIRE[err.code];
  if (err instanceof ConfigError) return CONFIG_ERROR_WIRE[err.code];
  if (err instanceof SettingsError) return err.code;
  if (err instanceof ProgressError) return PROGRESS_ERROR_WIRE[err.code];
  if (err instanceof ModelError) return MODEL_ERROR_WIRE[err.code];
  if (err instanceof ModelSpecError) return MODEL_SPEC_ERROR_WIRE[err.code];
  if (err instanceof LogReadError) return LOG_READ_ERROR_WIRE[err.code];
  if (err instanceof GitError) return GIT_ERROR_WIRE[err.code];
  return 'failed';
}
