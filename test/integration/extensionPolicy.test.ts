// kite.policy.* and kite.maxGateFailures settings in a real VS Code, and a read approval (.env):
// the read waits in Pending Approvals as a read (not a fake command), "Always allow this path"
// writes a path rule; the settings deny refuses a command, the settings allow runs one without
// asking, and one gate failure ends the run because kite.maxGateFailures = 1.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import type { KiteEvent } from '../../src/harness/protocol/events';
import { approvalEvent, kite, nextRunEnd, readEvents, resetWorkspace, stopRuns, toolEvent, useScript, waitForPending } from './extensionHelpers';

const SETTINGS: [string, unknown][] = [
  ['maxGateFailures', 1],
  ['policy.denyCommands', ['node --version']],
  ['policy.allowCommands', ['echo settings-allowed']],
];

describe('extension: policy settings and read approvals', function () {
  this.timeout(90_000);
  let k: KiteParts;

  before(async () => {
    k = await kite();
  });
  after(async () => {
    await stopRuns(k);
    const c = vscode.workspace.getConfiguration('kite');
    for (const [key] of SETTINGS) await c.update(key, undefined, vscode.ConfigurationTarget.Global);
    await c.update('model', undefined, vscode.ConfigurationTarget.Global);
    await resetWorkspace();
  });

  it('asks for .env as a read; settings deny and allow commands; kite.maxGateFailures ends the run', async () => {
    const ws = await resetWorkspace();
    writeFileSync(join(ws, '.env'), 'DB_PASSWORD=hunter22\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.env'], { cwd: ws });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'env'], { cwd: ws });
    const c = vscode.workspace.getConfiguration('kite');
    for (const [key, value] of SETTINGS) await c.update(key, value, vscode.ConfigurationTarget.Global);
    await useScript('extension-policy.json');

    const ended = nextRunEnd(k, 60_000);
    const token = await vscode.commands.executeCommand<string>('kite.startAgent');
    assert.ok(token, 'the run did not start');
    const read = await waitForPending(k, 'the .env read approval', (p) => p.kind === 'read');
    assert.deepEqual({ path: read.path, command: read.command, key: read.key }, { path: '.env', command: null, key: `${token}/toolu_pol_read` });
    await vscode.commands.executeCommand('kite.approval.alwaysAllow', { key: read.key });

    const end = await ended;
    assert.equal(end.error, null, end.error?.message);
    assert.equal(end.summary?.outcome, 'gate_failed');
    const events = readEvents(end.summary!.logPath);
    const policy = (id: string) => events.filter((e): e is Extract<KiteEvent, { kind: 'policy' }> => e.kind === 'policy' && e.id === id).map((e) => [e.decision, e.rule]);

    assert.deepEqual(policy('toolu_pol_read'), [['ask', 'ask:secret-file']]);
    assert.equal(approvalEvent(events, 'toolu_pol_read').always, true);
    assert.notEqual(toolEvent(events, 'toolu_pol_read').is_error, true);
    const config = JSON.parse(readFileSync(join(ws, '.kite', 'config.json'), 'utf8')) as { policy?: { rules?: { decision: string; tool: string; path?: string }[] } };
    assert.deepEqual(
      config.policy?.rules?.map((r) => [r.decision, r.tool, r.path]),
      [['allow', 'read_file', '.env']],
      '"Always allow this path" adds an exact-path rule',
    );

    assert.deepEqual(policy('toolu_pol_deny'), [['deny', 'deny:setting:0']]);
    assert.equal(toolEvent(events, 'toolu_pol_deny').is_error, true);
    assert.deepEqual(policy('toolu_pol_allow'), [['allow', 'allow:setting:0']]);
    assert.equal(events.filter((e) => e.kind === 'approval_request').length, 1, 'only the read was asked');

    const start = events.find((e): e is Extract<KiteEvent, { kind: 'session_start' }> => e.kind === 'session_start');
    assert.equal(start?.max_gate_failures, 1);
    assert.equal(events.filter((e) => e.kind === 'gate').length, 1);
    assert.deepEqual(k.pendingApprovals(), []);
  });
});
