// Fail closed: where no sandbox can be set up, an unattended run refuses its first command (the
// gate's too) and ends error with the fix; an attended run asks once and logs the answer; the
// explicit opt-out is "sandbox": "off", which a host (VS Code) can overrule.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalAnswer, Host, UnsandboxedQuestion } from '../../../src/harness/host';
import { ScriptedModel, say, use } from '../../../src/harness/model/scripted';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { userNamespaceProblem } from '../../../src/harness/sandbox/probe';
import { tempDir } from '../../unit/loop/kit';
import { buildOnce, events, hostileProject, identities, out, runKite } from '../hostile/hostileKit';

/** A PATH with node, git and the basics but no bwrap: "bubblewrap is not installed". */
function pathWithoutBwrap(): string {
  const bin = join(tempDir('kite-nobwrap-'), 'bin');
  mkdirSync(bin);
  for (const tool of ['git', 'sh', 'env', 'prlimit', 'touch', 'cat', 'ls']) {
    const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    symlinkSync(real, join(bin, tool));
  }
  symlinkSync(process.execPath, join(bin, 'node'));
  execFileSync('chmod', ['755', join(bin, '..')]);
  return bin;
}

describe('sandbox: fail closed', function () {
  this.timeout(120_000);
  before(buildOnce);
  const noBwrap = pathWithoutBwrap();

  for (const as of identities()) {
    it(`unattended, bwrap not on PATH (${as.label}): the gate's check is refused with the fix, never run unsandboxed; exit 1, outcome error`, () => {
      const p = hostileProject(as, 'touch out/ran-unsandboxed\n');
      const r = runKite(as, p, { PATH: noBwrap });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(out(p, 'ran-unsandboxed'), '');
      assert.equal(existsSync(join(p.repo, 'out', 'ran-unsandboxed')), false, 'the check did not run');
      assert.match(r.stderr, /bubblewrap \(bwrap\) is not installed/);
      assert.match(r.stderr, /apt-get install bubblewrap/);
      const log = events(p);
      const end = log.at(-1);
      assert.ok(end?.kind === 'session_end' && end.status === 'error' && /did not run/.test(end.error ?? ''), JSON.stringify(end));
      const gate = log.find((e) => e.kind === 'gate');
      assert.ok(gate?.kind === 'gate' && gate.checks[0].exit_code === null && gate.checks[0].sandbox?.kind === 'none');
      assert.ok(log.some((e) => e.kind === 'warning' && e.code === 'sandbox_unavailable'), 'said so at the start');
    });
  }

  it("unattended: the agent's first command is refused with the fix and ends the run (no second command runs)", async () => {
    const root = tempDir();
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    writeFileSync(join(root, 'kite-progress.json'), JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'T', status: 'todo', verify: null, notes: '' }] }));
    mkdirSync(join(root, '.kite'));
    writeFileSync(join(root, '.kite', 'config.json'), JSON.stringify({ policy: { allow: ['touch one', 'touch two'] } }));
    execFileSync('sh', ['-c', 'git add -A && git -c user.name=t -c user.email=t@t commit -qm init'], { cwd: root });
    const seen: KiteEvent[] = [];
    const model = new ScriptedModel([use('run', 'c1', { command: 'touch one' }), use('run', 'c2', { command: 'touch two' }), say('done')], 'script:t');
    const host: Host = { approve: () => Promise.reject(new Error('nobody')), onEvent: (e) => seen.push(e) };
    const s = await runFeature({ root, mode: 'unattended', model: '', modelOverride: model, env: { ...process.env, PATH: noBwrap } }, host);
    assert.equal(s.outcome, 'error');
    assert.equal(existsSync(join(root, 'one')) || existsSync(join(root, 'two')), false);
    const tools = seen.filter((e) => e.kind === 'tool');
    assert.equal(tools.length, 1, 'the run ended at the first refusal');
    assert.ok(tools[0].kind === 'tool' && tools[0].error_code === 'sandbox_unavailable' && /apt-get install bubblewrap/.test(tools[0].output));
  });

  for (const yes of [true, false]) {
    it(`attended: asked once whether to run without a sandbox; ${yes ? 'yes runs both commands, unsandboxed and recorded so' : 'no refuses and ends the run'}`, async () => {
      const root = tempDir();
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
      writeFileSync(join(root, 'kite-progress.json'), JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'T', status: 'todo', verify: 'test -f one && test -f two', notes: '' }] }));
      execFileSync('sh', ['-c', 'git add -A && git -c user.name=t -c user.email=t@t commit -qm init'], { cwd: root });
      const asked: UnsandboxedQuestion[] = [];
      const seen: KiteEvent[] = [];
      const host: Host = {
        approve: (): Promise<ApprovalAnswer> => Promise.resolve({ decision: 'approve' }),
        confirmUnsandboxed: (q) => {
          asked.push(q);
          return Promise.resolve(yes);
        },
        onEvent: (e) => seen.push(e),
      };
      const model = new ScriptedModel([use('run', 'c1', { command: 'touch one' }), use('run', 'c2', { command: 'touch two' }), say('done')], 'script:t');
      const env = { ...process.env, PATH: noBwrap, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
      const s = await runFeature({ root, mode: 'attended', model: '', modelOverride: model, env }, host);
      assert.equal(asked.length, 1, 'asked exactly once');
      assert.match(asked[0].reason, /bubblewrap/);
      const tools = seen.filter((e) => e.kind === 'tool');
      if (yes) {
        assert.equal(s.outcome, 'done', s.error ?? '');
        assert.ok(existsSync(join(root, 'one')) && existsSync(join(root, 'two')));
        assert.ok(seen.some((e) => e.kind === 'warning' && e.code === 'sandbox_unsandboxed_accepted'));
        assert.ok(tools.every((t) => t.kind === 'tool' && t.sandbox?.kind === 'none' && /accepted/.test(t.sandbox.note ?? '')));
      } else {
        assert.equal(s.outcome, 'error');
        assert.equal(existsSync(join(root, 'one')), false);
        assert.ok(seen.some((e) => e.kind === 'warning' && e.code === 'sandbox_unsandboxed_refused'));
        assert.equal(tools.length, 1);
      }
    });
  }

  it('"sandbox": "off" runs commands on the host, says so in the log and the timeline; a host\'s sandbox "on" overrules the file', async () => {
    const as = identities()[0];
    const p = hostileProject(as, 'cat /proc/1/cmdline > out/pid1\n', { sandbox: 'off' });
    const r = runKite(as, p);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /commands run NOT sandboxed \(sandbox: off in \.kite\/config\.json\)/);
    assert.ok(events(p).some((e) => e.kind === 'warning' && e.code === 'sandbox_off'));
    assert.doesNotMatch(out(p, 'pid1'), /^sh\b|bwrap/, 'pid 1 is the host init, not the sandbox');

    const q = hostileProject(as, 'cat /proc/1/cmdline > out/pid1\n', { sandbox: 'off' });
    const s = await runFeature({ root: q.repo, mode: 'unattended', model: `script:${q.script}`, overrides: { sandbox: 'on' } }, { approve: () => Promise.reject(new Error('nobody')) });
    assert.equal(s.outcome, 'done', s.error ?? '');
    const start = events(q).find((e) => e.kind === 'session_start');
    assert.ok(start?.kind === 'session_start' && start.sandbox?.kind === 'bwrap', 'VS Code\'s user setting wins over the workspace file');
  });
});

describe('sandbox: restricted user namespaces are detected and the message names the fix', () => {
  it('AppArmor (Ubuntu 24.04+), a disabled unprivileged_userns_clone, user.max_user_namespaces = 0', () => {
    const sysctl = (values: Record<string, string>) => (f: string) => values[f] ?? null;
    assert.match(userNamespaceProblem(sysctl({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1' }))?.fix ?? '', /apparmor_restrict_unprivileged_userns=0|AppArmor profile/);
    assert.match(userNamespaceProblem(sysctl({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }))?.fix ?? '', /sysctl kernel\.unprivileged_userns_clone=1/);
    assert.match(userNamespaceProblem(sysctl({ '/proc/sys/user/max_user_namespaces': '0' }))?.fix ?? '', /sysctl user\.max_user_namespaces=/);
    assert.equal(userNamespaceProblem(sysctl({ '/proc/sys/user/max_user_namespaces': '63000' })), null);
  });
});
