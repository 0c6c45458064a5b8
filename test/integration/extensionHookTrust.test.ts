// The hook trust prompt in a real VS Code (issue 15 part 3): a workspace whose .kite/config.json
// has a hook does not start a run until the person trusted its exact commands. Refused (here the
// real modal, which this test mode refuses; then a "Don't Trust"), no run starts and the hook never
// runs; trusted, the approval lands in the store `kite trust` reads and the hook runs in the run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadConfig } from '../../src/harness/config/config';
import { isTrusted } from '../../src/harness/hooks/trust';
import type { TrustStatusWire } from '../../src/harness/protocol/rpc';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, nextRunEnd, resetWorkspace, stopRuns, useScript } from './extensionHelpers';

const MARK = 'hook-ran.txt';
const HOOK = `echo stop-hook > ${MARK}`;

function runLogs(ws: string): string[] {
  const dir = join(ws, '.kite', 'runs');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.jsonl')) : [];
}

describe('extension: hook commands need the person\'s trust', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws: string;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
    // A Stop hook, committed (a run refuses a dirty tree): it would leave MARK in the workspace.
    const cfgPath = join(ws, '.kite', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(cfgPath, JSON.stringify({ ...cfg, hooks: { Stop: [{ hooks: [{ type: 'command', command: HOOK, timeout: 20 }] }] } }, null, 2));
    mkdirSync(join(ws, '.kite'), { recursive: true });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'test: a Stop hook'], { cwd: ws });
    await useScript('extension-no-change.json');
  });
  afterEach(() => k.answerTrustPromptWith(null));
  after(async () => {
    await stopRuns(k);
    await resetWorkspace();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the real modal (refused in this mode) leaves the run unstarted and the hook not run', async () => {
    const before = runLogs(ws).length;
    const token = await vscode.commands.executeCommand<string | undefined>('kite.startAgent');
    assert.equal(token, undefined, 'no run starts without trust');
    assert.equal(runLogs(ws).length, before, 'no run log was written');
    assert.ok(!existsSync(join(ws, MARK)), 'the hook did not run');
    assert.equal(isTrusted(ws, loadConfig(ws).hooks), false, 'nothing was recorded');
  });

  it("the prompt names the exact command; Don't Trust starts nothing", async () => {
    const asked: TrustStatusWire[] = [];
    k.answerTrustPromptWith(async (s) => (asked.push(s), false));
    assert.equal(await vscode.commands.executeCommand<string | undefined>('kite.startAgent'), undefined);
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].items.map((i) => [i.label, i.command, i.timeout_s]), [['Stop', HOOK, 20]]);
    assert.ok(!existsSync(join(ws, MARK)), 'the hook did not run');
    assert.equal(isTrusted(ws, loadConfig(ws).hooks), false);
  });

  it('Trust records the approval where kite trust keeps it, the run starts and its hook runs; the next start does not ask again', async () => {
    let asks = 0;
    k.answerTrustPromptWith(async () => (asks++, true));
    const ended = nextRunEnd(k, 90_000);
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'), 'the run started once trusted');
    assert.equal(isTrusted(ws, loadConfig(ws).hooks), true, 'recorded in the trust store outside the workspace (what kite trust reads)');
    const end = await ended;
    assert.ok(end.summary, end.error?.message);
    assert.equal(readFileSync(join(ws, MARK), 'utf8').trim(), 'stop-hook', 'the trusted Stop hook ran when the model claimed done');
    const hookEvents = readFileSync(end.summary.logPath, 'utf8').split('\n').filter((l) => l.includes('"kind":"hook"'));
    assert.ok(hookEvents.length > 0, 'the hook run is in the log');
    assert.equal(asks, 1);

    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: ws });
    execFileSync('git', ['clean', '-qfd', '--', MARK], { cwd: ws });
    const again = nextRunEnd(k, 90_000);
    assert.ok(await vscode.commands.executeCommand<string>('kite.startAgent'));
    await again;
    assert.equal(asks, 1, 'the same hooks are not asked again');
  });
});
