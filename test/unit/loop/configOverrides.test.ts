// RunOptions.overrides (what the VS Code settings send): laid over .kite/config.json for one run.
// A settings deny is enforced even against a workspace rule, a settings allow skips the prompt in
// attended runs only, max_gate_failures replaces the config's, and "Always allow" (which reloads
// the policy from the file) keeps the settings' additions.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ConfigOverrides } from '../../../src/harness/config/config';
import { loadConfig, applyOverrides } from '../../../src/harness/config/config';
import { LivePolicy } from '../../../src/harness/loop/assemble';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import type { Mode } from '../../../src/harness/protocol/events';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, git, MemorySink, tempRepo } from './kit';

const overrides: ConfigOverrides = { max_gate_failures: 1, policy: { deny: ['\\bnode\\b'], allow_attended: ['echo hi'] } };

/** The sample project with a workspace rule that allows `node --version`. */
function repo(): string {
  const root = tempRepo();
  const file = join(root, '.kite', 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  config.policy = { rules: [{ id: 'allow:node-version', decision: 'allow', tool: 'run', command: 'node --version' }] };
  writeFileSync(file, JSON.stringify(config, null, 2));
  git(root, 'commit', '-qam', 'policy');
  return root;
}

async function run(mode: Mode, o: ConfigOverrides | undefined) {
  const root = repo();
  const host = new CannedHost([]); // any question would pause the run: none is expected
  const model = new ScriptedModel([use('run', 'c1', { command: 'node --version' }), use('run', 'c2', { command: 'echo hi' }), say('done')]);
  const s = await runFeature({ root, mode, model: '', modelOverride: model, overrides: o }, host);
  const events = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; id?: string; rule?: string; decision?: string; max_gate_failures?: number; status?: string });
  const verdict = (id: string) => events.filter((e) => e.kind === 'policy' && e.id === id).map((e) => [e.decision, e.rule]);
  return { s, host, events, verdict };
}

describe('loop: config overrides from the host (VS Code settings)', function () {
  this.timeout(60_000);

  it('attended: the settings deny beats a workspace allow rule, the settings allow runs without asking, max_gate_failures replaces the config', async () => {
    const { s, host, events, verdict } = await run('attended', overrides);
    assert.deepEqual(verdict('c1'), [['deny', 'deny:setting:0']]);
    assert.deepEqual(verdict('c2'), [['allow', 'allow:setting:0']]);
    assert.deepEqual(host.requests, []);
    const start = events.find((e) => e.kind === 'session_start');
    assert.equal(start?.max_gate_failures, 1);
    // The sample's fee bug fails the gate; one failure is all the settings allow.
    assert.equal(s.outcome, 'gate_failed');
    assert.equal(events.filter((e) => e.kind === 'gate').length, 1);
  });

  it('unattended: the settings allow does not apply (refused), the settings deny still does', async () => {
    const { verdict } = await run('unattended', overrides);
    assert.deepEqual(verdict('c1'), [['deny', 'deny:setting:0']]);
    assert.deepEqual(verdict('c2'), [['deny', 'unattended:refuse']]);
  });

  it('without overrides the workspace decides alone', async () => {
    const { verdict, events } = await run('unattended', undefined);
    assert.deepEqual(verdict('c1'), [['allow', 'allow:node-version']]);
    assert.equal(events.find((e) => e.kind === 'session_start')?.max_gate_failures, 3);
  });

  it('"Always allow" reloads the policy from the file and keeps the settings additions', () => {
    const root = repo();
    const live = new LivePolicy(root, applyOverrides(loadConfig(root), overrides), new MemorySink());
    const ctx = { mode: 'attended' as const, checks: [], verify: null, featureTools: null };
    const call = (command: string) => ({ name: 'run', args: { command }, effect: 'exec' as const, path: null, command });
    live.always(call('node -e 1'));
    assert.match(readFileSync(join(root, '.kite', 'config.json'), 'utf8'), /"command": "node -e 1"/);
    assert.equal(live.decide(call('node -e 1'), ctx).rule, 'deny:setting:0');
    assert.equal(live.decide(call('echo hi'), ctx).rule, 'allow:setting:0');
  });

  it('a bad override is refused with the path of the bad pattern', () => {
    assert.throws(
      () => applyOverrides(loadConfig(repo()), { policy: { deny: ['ok', '(x'] } }),
      (e: unknown) => e instanceof z.ZodError && e.issues[0]?.path.join('.') === 'policy.deny.1',
    );
  });
});
