// The policy a host (the VS Code kite.policy.* settings) lays over the workspace's: it may add
// deny patterns that nothing in the workspace can allow, and allow patterns for attended runs only.
import { strict as assert } from 'node:assert';
import { HostPolicySchema, PolicyConfigSchema, type HostPolicyInput, type PolicyConfigInput } from '../../../src/harness/policy/config';
import { Policy } from '../../../src/harness/policy/policy';
import type { PolicyCall, PolicyContext } from '../../../src/harness/policy/types';

const policy = (cfg: PolicyConfigInput, host: HostPolicyInput): Policy => new Policy(PolicyConfigSchema.parse(cfg), HostPolicySchema.parse(host));
const attended: PolicyContext = { mode: 'attended', checks: ['npm test'], verify: 'node --test test/fees.test.js', featureTools: null };
const unattended: PolicyContext = { ...attended, mode: 'unattended' };
const cmd = (command: string): PolicyCall => ({ name: 'run', args: { command }, effect: 'exec', path: null, command });
const read = (path: string): PolicyCall => ({ name: 'read_file', args: { path }, effect: 'none', path, command: null });
const pick = (v: { decision: string; rule: string }) => [v.decision, v.rule];

describe('policy: additions from the host (VS Code settings)', () => {
  it('a settings deny pattern refuses a command the workspace allows by rule, by allow list and as a check', () => {
    const p = policy(
      { rules: [{ id: 'allow:always:ls', decision: 'allow', tool: 'run', command: 'npm publish' }], allow: ['npm (run )?(build|lint)'] },
      { deny: ['npm publish', '\\bbuild\\b', '^npm test$'] },
    );
    for (const mode of [attended, unattended]) {
      assert.deepEqual(pick(p.decide(cmd('npm publish'), mode)), ['deny', 'deny:setting:0']);
      assert.deepEqual(pick(p.decide(cmd('npm run build'), mode)), ['deny', 'deny:setting:1']);
      assert.deepEqual(pick(p.decide(cmd('npm test'), mode)), ['deny', 'deny:setting:2']);
    }
    const v = p.decide(cmd('cd x && npm publish'), attended); // searched anywhere, like the deny list
    assert.equal(v.rule, 'deny:setting:0');
    assert.match(v.reason, /kite\.policy\.denyCommands.*The command was not run\./);
    // Everything else keeps the workspace's verdict.
    assert.deepEqual(pick(p.decide(cmd('npm run lint'), attended)), ['allow', 'allow:config:0']);
  });

  it('settings deny patterns apply to commands only, not to paths', () => {
    const p = policy({}, { deny: ['src'] });
    assert.deepEqual(pick(p.decide(read('src/a.js'), attended)), ['allow', 'allow:reads']);
  });

  it('a settings allow pattern runs a command without asking in attended runs only', () => {
    const p = policy({}, { allow_attended: ['npx eslint [\\w./ -]+'] });
    assert.deepEqual(pick(p.decide(cmd('npx eslint src/a.ts'), attended)), ['allow', 'allow:setting:0']);
    // Unattended, the workspace's policy alone decides: nobody chose to let this run unwatched.
    assert.deepEqual(pick(p.decide(cmd('npx eslint src/a.ts'), unattended)), ['deny', 'unattended:refuse']);
    // Whole-command match, and chaining never slips through a pattern that does not spell it out.
    assert.deepEqual(pick(p.decide(cmd('npx eslint src/a.ts; rm -f x'), attended)), ['ask', 'ask:commands']);
  });

  it('a settings allow never loosens a deny: default list, config deny list, explicit rules', () => {
    const p = policy(
      { deny: ['\\bnpm publish\\b'], rules: [{ id: 'ask:make', decision: 'ask', tool: 'run', command_pattern: 'make .*' }] },
      { allow_attended: ['git push.*', 'npm publish', 'make .*'] },
    );
    assert.deepEqual(pick(p.decide(cmd('git push origin main'), attended)), ['deny', 'deny:git-push']);
    assert.deepEqual(pick(p.decide(cmd('npm publish'), attended)), ['deny', 'deny:config:0']);
    assert.deepEqual(pick(p.decide(cmd('make all'), attended)), ['ask', 'ask:make']);
  });

  it('rejects a pattern that is not a regular expression, naming where', () => {
    const r = HostPolicySchema.safeParse({ deny: ['ok', '(unclosed'] });
    assert.equal(r.success, false);
    assert.deepEqual(r.error?.issues.map((i) => i.path), [['deny', 1]]);
  });
});
