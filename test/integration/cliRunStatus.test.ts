// A feature a `kite run` in a terminal works on (issue 18 leftover): the Features view of a VS Code
// window on the same folder shows it running in that other process — not "stopped (resume or
// retry)", which would offer a second run on it — and once the CLI run ends, the outcome its log
// ended with. The other process is this test holding the log's lock, as the CLI does (logLock.ts).
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { acquireLogLock, type LogLock } from '../../src/harness/events/logLock';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, resetWorkspace, waitForAsync } from './extensionHelpers';

describe('a CLI run in the Features view', function () {
  this.timeout(120_000);
  let k: KiteParts;
  let ws = '';
  let log = '';
  let lock: LogLock | null = null;

  before(async () => {
    k = await kite();
    ws = await resetWorkspace();
    const progress = join(ws, 'kite-progress.json');
    const data = JSON.parse(readFileSync(progress, 'utf8')) as { features: { id: string; status: string }[] };
    data.features[0]!.status = 'in_progress'; // what `kite run` writes when it starts on F1
    writeFileSync(progress, JSON.stringify(data, null, 2) + '\n');
    mkdirSync(join(ws, '.kite', 'runs'), { recursive: true });
    // Sorts after every other log: the latest run of F1.
    log = join(ws, '.kite', 'runs', '99991231-235959-F1-cli-status.jsonl');
    writeFileSync(log, JSON.stringify({ t: 0, kind: 'session_start', feature: 'F1', title: 'Fees round half-up', model: 'script:cli.json', mode: 'unattended' }) + '\n');
  });
  after(async () => {
    lock?.release();
    rmSync(log, { force: true });
    rmSync(`${log}.lock`, { force: true });
    await resetWorkspace();
    k.refreshViews();
  });

  const f1 = async (ok: (i: vscode.TreeItem) => boolean, what: string) => {
    k.refreshViews();
    return (await waitForAsync(what, () => k.featureItems(), (list) => list.some((i) => i.id === 'feature:F1' && ok(i)), [k.onDidChangeFeatures], 30_000)).find((i) => i.id === 'feature:F1')!;
  };

  it('while kite run works on it, the feature shows running in another process, with no Retry or Resume', async () => {
    lock = acquireLogLock(log);
    const item = await f1((i) => i.description !== 'todo', 'F1 in progress in the Features view');
    assert.equal(item.description, 'running in another process (kite run)');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    assert.equal(item.contextValue, 'kite.feature.elsewhere', 'Retry, Resume and Reset (kite.feature.notDone) would start a second run on it');
  });

  it('after the CLI run ends, the feature shows the outcome its log ended with', async () => {
    appendFileSync(log, JSON.stringify({ t: 3, kind: 'session_end', status: 'error', turns: 1, tokens: 10, summary: 'the model provider could not be reached' }) + '\n');
    lock?.release();
    lock = null;
    const item = await f1((i) => i.description !== 'running in another process (kite run)', 'F1 no longer running elsewhere');
    assert.equal(item.description, 'error (resume or retry)');
    assert.equal(item.contextValue, 'kite.feature.notDone');
  });
});
