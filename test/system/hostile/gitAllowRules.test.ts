// Issue 13, item 19: the README's allow rule `git (status|diff|log)( .*)?` let an unattended agent
// read a private key with `git diff --no-index` and overwrite a file with `--output`. Real runs
// in-process (runFeature, scripted model, real git, the real sandbox).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { Policy } from '../../../src/harness/policy/policy';
import { PolicyConfigSchema } from '../../../src/harness/policy/config';
import { runFeature } from '../../../src/harness/run';
import { CannedHost, tempRepo } from '../../unit/loop/kit';

const KEY_TEXT = '-----BEGIN OPENSSH PRIVATE KEY-----\nhostile-suite-key\n';

function project(...allow: string[]): string {
  const progress = { goal: 'g', log: [], features: [{ id: 'F1', title: 'Look around', status: 'todo', verify: null, expects_no_change: true }] };
  return tempRepo({ 'a.txt': 'a\n', 'kite-progress.json': JSON.stringify(progress), '.kite/config.json': JSON.stringify({ checks: ['test -f a.txt'], policy: { allow } }) });
}

describe('hostile: git allow rules (issue 13, item 19)', function () {
  this.timeout(120_000);

  it('the old README allow rule no longer lets git diff --no-index read a key outside, nor --output / -c write or run', async () => {
    // The old README rule, and a broad one that lets options come before the subcommand.
    const root = project('git (status|diff|log)( .*)?', 'git .*');
    const outside = dirname(root); // the temp folder holding the repo
    writeFileSync(join(outside, 'id_ed25519'), KEY_TEXT);
    const target = join(outside, 'bashrc');
    const calls: [string, string][] = [
      ['c1', `git diff --no-index ${join(outside, 'id_ed25519')} a.txt`],
      ['c2', `git diff --output=${target} HEAD`],
      ['c3', 'git -c core.pager=touch\\ pwned log'],
      ['c4', 'git diff --ext-diff'],
      ['c5', 'git diff -o out.txt'],
      ['c6', 'git log ../x'],
      ['c7', 'git status'],
    ];
    const model = new ScriptedModel([...calls.map(([id, command]) => use('run', id, { command })), say('Looked.')]);
    const s = await runFeature({ root, mode: 'unattended', model: '', modelOverride: model }, new CannedHost([]));
    const events = readFileSync(s.logPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; id?: string; rule?: string; output?: string });
    const rule = (id: string) => events.find((e) => e.kind === 'policy' && e.id === id)?.rule;
    for (const [id] of calls.slice(0, 6)) assert.equal(rule(id), 'deny:git-unsafe-args', id);
    assert.equal(rule('c7'), 'allow:config:0');
    assert.ok(!readFileSync(s.logPath, 'utf8').includes('hostile-suite-key'));
    assert.ok(!existsSync(target));
    assert.ok(!existsSync(join(root, 'out.txt')));
    assert.equal(s.outcome, 'done');
  });

  it("the README's new example allows plain git status/diff/log and still refuses the unsafe options", () => {
    const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const m = /"allow": \["(git [^"]+)"/.exec(readme);
    assert.ok(m, 'the README has a git allow example');
    const pattern = JSON.parse(`"${m[1]}"`) as string;
    const policy = new Policy(PolicyConfigSchema.parse({ allow: [pattern] }));
    const ctx = { mode: 'unattended' as const, checks: [], verify: null, featureTools: null };
    const decide = (command: string) => policy.decide({ name: 'run', args: { command }, effect: 'exec', path: null, command }, ctx).rule;
    assert.equal(decide('git status'), 'allow:config:0');
    assert.equal(decide('git diff HEAD~1 -- src/a.ts'), 'unattended:refuse'); // "~" is not in the example
    assert.equal(decide('git log --oneline -5 src/'), 'allow:config:0');
    assert.equal(decide('git diff --no-index /root/.ssh/id_ed25519 x'), 'deny:git-unsafe-args');
    assert.equal(decide('git diff --output=/tmp/x'), 'deny:git-unsafe-args');
  });
});
