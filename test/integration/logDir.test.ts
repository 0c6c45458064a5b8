// A workspace whose .kite/config.json says `"log_dir": "logs/agent"`, set while Kite is already
// running: a scripted run logs there (the harness server reports that path), the timeline view
// follows the new log in that folder, the Runs view lists it (Open Last Run opens its timeline),
// and a replay in the debugger launches from it with the workspace as its root.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteApi } from '../../src/extension/extension';
import type { TimelineApi } from '../../src/extension/timeline/registerTimeline';
import type { KiteParts } from '../../src/extension/wireKite';
import { KITE_ID, kite, nextRunEnd, readEvents, resetWorkspace, stopRuns, useScript, waitForPending, waitForProposal } from './extensionHelpers';
import { waitFor } from './waitFor';

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();
const logsIn = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
};

describe('a custom log_dir ("logs/agent") in VS Code', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let t: TimelineApi;
  let ws = '';
  let log = '';
  let eventCount = 0;
  let followedBefore: string | null = null;
  // What the kite adapter sends: a stackTrace is answered only once it has stopped.
  const stops = new Set<string>();
  const stoppedEvent = new vscode.EventEmitter<void>();
  let tracker: vscode.Disposable | undefined;

  before(async () => {
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('kite', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: { type?: string; event?: string }) => {
          if (m.type === 'event' && m.event === 'stopped') {
            stops.add(session.id);
            stoppedEvent.fire();
          }
        },
      }),
    });
    k = await kite();
    t = (await vscode.extensions.getExtension<KiteApi>(KITE_ID)!.activate()).timeline;
    followedBefore = t.followed();
    ws = await resetWorkspace();
    // Committed, so the run does not stop at a dirty work tree.
    const file = join(ws, '.kite', 'config.json');
    writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), log_dir: 'logs/agent' }, null, 2));
    git(ws, 'commit', '-qam', 'log_dir: logs/agent');
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging();
    tracker?.dispose();
    stoppedEvent.dispose();
    await stopRuns(k);
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(ws, 'logs'), { recursive: true, force: true }); // git-ignored by its own .gitignore
    await resetWorkspace(); // back to the first commit: the default log folder again
    t.follow(followedBefore); // the view must not keep showing a log that is gone
  });

  it('a run logs into logs/agent; the server reports that log and the timeline view follows it', async () => {
    const defaultRuns = join(ws, '.kite', 'runs');
    const before = logsIn(defaultRuns).length;
    await useScript('extension-accept.json');
    await vscode.commands.executeCommand('kite.timeline.focus');
    await waitFor('the timeline view to load', () => t.viewState() ?? undefined, [t.onDidApply], 30_000);

    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.startAgent');
    log = await waitFor(
      'the view to follow a new log in logs/agent',
      () => {
        const f = t.followed();
        return f && dirname(f) === join(ws, 'logs', 'agent') && t.viewState()?.log === f ? f : undefined;
      },
      [t.onDidApply],
      30_000,
    );
    await waitForProposal('src/ledger.js');
    assert.deepEqual(
      k.activeRuns().map((r) => r.log),
      [log],
      'the harness server names the log in logs/agent',
    );
    await vscode.commands.executeCommand('kite.acceptAll');
    await waitForProposal('test/fees.test.js');
    await vscode.commands.executeCommand('kite.acceptAll');
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    await vscode.commands.executeCommand('kite.approval.runOnce', { key: cmd.key });
    const end = await ended;
    assert.equal(end.summary?.outcome, 'done', end.error?.message);
    assert.equal(end.summary?.logPath, log);
    eventCount = readEvents(log).length;
    await waitFor('every event of the run in the view', () => {
      const s = t.viewState();
      return s && s.log === log && s.events === eventCount ? s : undefined;
    }, [t.onDidApply]);
    assert.equal(logsIn(defaultRuns).length, before, 'no new log in .kite/runs');
  });

  it('the Runs view lists the run from logs/agent: Open Last Run opens its timeline tab', async () => {
    assert.ok(log, 'needs the run of the first test');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('kite.openLastRun'); // the newest run of the Runs view
    await waitFor('the run from logs/agent in a timeline tab', () => t.editorStates().find((s) => s.log === log && s.events === eventCount), [t.onDidApply], 30_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const started = (): Promise<vscode.DebugSession> =>
    new Promise((resolve) => {
      const sub = vscode.debug.onDidStartDebugSession((d) => {
        if (d.type !== 'kite') return;
        sub.dispose();
        resolve(d);
      });
    });
  const stopped = (session: vscode.DebugSession): Promise<void> =>
    new Promise((resolve) => {
      const sub = vscode.debug.onDidTerminateDebugSession((d) => {
        if (d.id !== session.id) return;
        sub.dispose();
        resolve();
      });
      void vscode.debug.stopDebugging(session);
    });
  const firstFrame = async (session: vscode.DebugSession): Promise<string> => {
    await waitFor('the replay to stop on entry', () => stops.has(session.id), [stoppedEvent.event], 30_000);
    const r = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] };
    return r.stackFrames[0]?.name ?? '';
  };

  it('Replay Run in Debugger (Runs view) launches from logs/agent with the workspace as root', async () => {
    assert.ok(log, 'needs the run of the first test');
    const session = started();
    await vscode.commands.executeCommand('kite.replayRun', { path: log });
    const s = await session;
    assert.equal(s.configuration.log, log);
    assert.equal(s.configuration.root, ws, 'the workspace whose log_dir holds the log');
    assert.match(await firstFrame(s), /^#0 session_start/);
    await stopped(s);
  });

  it('a launch.json "log" relative to the folder (logs/agent/<run>.jsonl) resolves there, with the root', async () => {
    assert.ok(log, 'needs the run of the first test');
    const session = started();
    const ok = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], { type: 'kite', request: 'launch', name: 'logDir relative', log: `logs/agent/${log.split('/').pop() ?? ''}`, stopOnEntry: true });
    assert.equal(ok, true);
    const s = await session;
    assert.equal(s.configuration.log, log);
    assert.equal(s.configuration.root, ws);
    assert.match(await firstFrame(s), /^#0 session_start/);
    await stopped(s);
  });
});
