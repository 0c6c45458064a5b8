// Where commands run, seen in a real VS Code: a scripted run proposes a command; the approval the
// person sees says it runs in the sandbox (bwrap on this Linux machine), and the status bar's run
// knows its sandbox from session_start. kite.sandbox is the user's switch (sent on every start).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KiteParts } from '../../src/extension/wireKite';
import { kite, nextRunEnd, resetWorkspace, stopRuns, waitForPending } from './extensionHelpers';
import { testEnv } from './env';
import { waitFor } from './waitFor';

const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** A one-command script outside the repo's fixtures (written to the artifacts folder). */
function commandScript(): string {
  const dir = join(testEnv().out, 'scripts');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'sandbox-command.json');
  const replies = [
    { content: [{ type: 'tool_use', id: 'toolu_sb_1', name: 'run', input: { command: 'node --version' } }], stop_reason: 'tool_use', usage },
    { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage },
  ];
  writeFileSync(file, JSON.stringify(replies));
  return file;
}

describe('extension: commands run in the sandbox', function () {
  this.timeout(90_000);
  let k: KiteParts;

  before(async () => {
    k = await kite();
  });
  beforeEach(async () => {
    await resetWorkspace();
  });
  afterEach(async () => {
    await stopRuns(k);
  });
  after(async () => {
    await resetWorkspace();
    await vscode.workspace.getConfiguration('kite').update('model', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the command approval says "Runs in the sandbox (…): no network", and the run knows its sandbox', async () => {
    await vscode.workspace.getConfiguration('kite').update('model', `script:${commandScript()}`, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('kite.startAgent');
    const cmd = await waitForPending(k, 'the node --version approval', (p) => p.kind === 'command');
    assert.equal(cmd.command, 'node --version');
    assert.match(cmd.where ?? '', /^Runs in the sandbox \((bwrap|seatbelt)\): no network$/);
    const run = await waitFor('the run to know its sandbox', () => k.activeRuns().find((r) => r.sandbox !== null), [k.onDidChangeApprovals]);
    assert.notEqual(run.sandbox?.kind, 'none');

    const ended = nextRunEnd(k);
    await vscode.commands.executeCommand('kite.approval.deny', { key: cmd.key, reason: 'only checking the prompt' });
    const end = await ended;
    assert.equal(end.error, null, end.error?.message);
  });
});
