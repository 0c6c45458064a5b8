// Eval cases and hooks: kite eval approves no hooks for a scratch workspace, so a case whose
// starting state (here: its config) has hooks of any event — the new ones and Claude Code's
// UserPromptSubmit alike — does not run, and says why, exactly as for PreToolUse hooks.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../../../src/harness/evals/evalCase';
import { runCase } from '../../../src/harness/evals/runCase';
import { tempDir } from '../../unit/loop/kit';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'evals', 'missing-binary');

function caseWithHooks(hooks: unknown): string {
  const dir = join(tempDir('kite-eval-hooks-'), 'with-hooks');
  mkdirSync(dir);
  cpSync(join(FIXTURE, 'project'), join(dir, 'project'), { recursive: true });
  cpSync(join(FIXTURE, 'replies.json'), join(dir, 'replies.json'));
  const spec = { start: { folder: 'project' }, feature: { id: 'F5', title: 'Late fee line', verify: 'true' }, checks: [], config: { hooks }, model: 'script:replies.json', expect: { outcome: 'done' } };
  writeFileSync(join(dir, 'case.json'), JSON.stringify(spec, null, 2));
  return dir;
}

describe('eval cases with hooks', function () {
  this.timeout(120_000);

  for (const [event, hooks] of [
    ['PreToolUse', { PreToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'exit 0' }] }] }],
    ['SessionStart', { SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hi' }] }] }],
    ['UserPromptSubmit', { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] }],
    ['PostModelReply', { PostModelReply: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] }],
    ['SessionEnd', { SessionEnd: [{ hooks: [{ type: 'command', command: 'exit 0' }] }] }],
  ] as const) {
    it(`a case whose config has ${event} hooks does not run, and says why`, async () => {
      const dir = caseWithHooks(hooks);
      const [c] = loadSuite(dir);
      const r = await runCase(c!, { model: null, logDir: join(dir, 'logs'), logName: 'case', cwd: dir });
      assert.equal(r.status, 'error');
      assert.equal(r.outcome, 'not run');
      assert.match(r.notes, /has hooks in \.kite\/config\.json, and kite eval does not approve hooks for a scratch workspace; the case did not run/);
    });
  }
});
