// The wire code a thrown harness error reaches the extension as: decided by the error's class and
// typed code, never by its message. ResumeError codes each have their own, right, wire code.
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/harness/config/config';
import { SettingsError } from '../../../src/harness/config/settingsLayer';
import { LogReadError } from '../../../src/harness/events/reader';
import { ModelSpecError } from '../../../src/harness/model/index';
import { ModelError } from '../../../src/harness/model/model';
import { ProgressError } from '../../../src/harness/progress/progressFile';
import { GitError } from '../../../src/harness/progress/runGit';
import { ResumeError, type ResumeErrorCode } from '../../../src/harness/resume';
import { RunError, type RunErrorCode } from '../../../src/harness/run';
import { RESUME_ERROR_WIRE, RUN_ERROR_WIRE, wireErrorCode, wireLockHolder } from '../../../src/harness/server/wireErrorCode';

describe('server: wire error codes', () => {
  it('every ResumeError code maps to its wire code (old_format, no_root and repo_state no longer fall through to "failed")', () => {
    const expected: Record<ResumeErrorCode, string> = {
      corrupt_log: 'cannot_resume',
      not_started: 'cannot_resume',
      already_finished: 'cannot_resume',
      is_replay: 'cannot_resume',
      old_format: 'cannot_resume',
      no_root: 'cannot_resume',
      repo_state: 'repo_state',
      broken_chain: 'cannot_resume',
      wrong_workspace: 'cannot_resume',
      locked: 'locked',
      symlink: 'invalid_config',
      price_unknown: 'invalid_config',
    };
    for (const code of Object.keys(expected) as ResumeErrorCode[]) assert.equal(wireErrorCode(new ResumeError(code, 'm')), expected[code], code);
    assert.deepEqual(RESUME_ERROR_WIRE, expected);
  });

  it('every RunError code maps to its wire code', () => {
    const expected: Record<RunErrorCode, string> = { no_root: 'not_found', not_a_repo: 'not_a_repo', dirty: 'dirty_tree', repo_state: 'repo_state', symlink: 'invalid_config', locked: 'locked', untrusted_hooks: 'invalid_config', price_unknown: 'invalid_config' };
    for (const code of Object.keys(expected) as RunErrorCode[]) assert.equal(wireErrorCode(new RunError(code, 'm')), expected[code], code);
    assert.deepEqual(RUN_ERROR_WIRE, expected);
  });

  it('a held log lock travels as `locked` with its holder (pid, host, since), for a resume and a new run alike', () => {
    const holder = { pid: 4242, host: 'devbox', started_at: '2026-03-01T10:15:00.000Z' };
    assert.deepEqual(wireLockHolder(new ResumeError('locked', 'm', holder)), holder);
    assert.deepEqual(wireLockHolder(new RunError('locked', 'm', holder)), holder);
    assert.equal(wireLockHolder(new ResumeError('locked', 'the log grew while Kite read it')), null);
    assert.equal(wireLockHolder(new ResumeError('corrupt_log', 'm')), null);
    assert.equal(wireLockHolder(new Error('locked')), null);
  });

  it('config, settings, progress, model, log and git errors map by their typed code', () => {
    assert.equal(wireErrorCode(new ConfigError('invalid_json', 'm')), 'invalid_config');
    assert.equal(wireErrorCode(new ConfigError('unreadable', 'm')), 'invalid_config');
    assert.equal(wireErrorCode(new SettingsError([{ setting: 'kite.policy.denyCommands[0]', message: 'm' }])), 'invalid_settings');
    assert.equal(wireErrorCode(new ProgressError('not_found', 'm')), 'not_found');
    assert.equal(wireErrorCode(new ProgressError('unknown_feature', 'm')), 'no_feature');
    assert.equal(wireErrorCode(new ProgressError('invalid_progress', 'm')), 'invalid_config');
    assert.equal(wireErrorCode(new ModelError('missing_key', 'm')), 'missing_key');
    assert.equal(wireErrorCode(new ModelError('auth', 'm')), 'missing_key');
    assert.equal(wireErrorCode(new ModelError('script_invalid', 'm')), 'invalid_config');
    assert.equal(wireErrorCode(new ModelError('network', 'm')), 'failed');
    assert.equal(wireErrorCode(new ModelSpecError('bad_spec', 'm')), 'invalid_config');
    assert.equal(wireErrorCode(new LogReadError('not_found', 'm', '/x.jsonl')), 'not_found');
    assert.equal(wireErrorCode(new LogReadError('unsupported_version', 'm', '/x.jsonl')), 'cannot_resume');
    assert.equal(wireErrorCode(new GitError('dirty', 'm')), 'dirty_tree');
    assert.equal(wireErrorCode(new GitError('commit_failed', 'm')), 'failed');
  });

  it('anything else is "failed", even when it carries a code-like field or message', () => {
    assert.equal(wireErrorCode(Object.assign(new Error('dirty'), { code: 'dirty' })), 'failed');
    assert.equal(wireErrorCode({ code: 'missing_key' }), 'failed');
    assert.equal(wireErrorCode('no_feature'), 'failed');
    assert.equal(wireErrorCode(null), 'failed');
  });

});
