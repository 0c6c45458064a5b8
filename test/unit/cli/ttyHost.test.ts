import assert from 'node:assert/strict';
import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { TtyHost } from '../../../src/harness/cli/ttyHost';
import type { ApprovalRequest } from '../../../src/harness/host';
import { tempDir } from '../loop/kit';

function host() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  return { h: new TtyHost(input, output), input, output, shown: () => shown };
}

/** Type each answer when its prompt appears on screen (driven by output events, not by time). */
function typeAfterPrompt(t: ReturnType<typeof host>, lines: string[]): void {
  let i = 0;
  t.output.on('data', () => {
    const prompts = t.shown().split('? ').length - 1 + t.shown().split('Reason (the agent is told): ').length - 1;
    if (prompts > i && i < lines.length) t.input.write(lines[i++] + '\n');
  });
}

const write: ApprovalRequest = { kind: 'write', id: 'a', tool: 'write_file', path: 'src/fee.js', before: 'const fee = 267;\n', proposed: 'const fee = 268;\n' };
const command: ApprovalRequest = { kind: 'command', id: 'b', command: 'npm run build', cwd: '/w' };

const read: ApprovalRequest = { kind: 'read', id: 'c', tool: 'read_file', path: '.env', reason: '".env" usually holds secrets, so reading it needs a person\'s approval.' };

describe('terminal approvals (TtyHost)', () => {
  it('a huge diff is clipped so the question stays on screen, saying how much is hidden', async () => {
    const t = host();
    typeAfterPrompt(t, ['a']);
    const big: ApprovalRequest = { kind: 'write', id: 'big', tool: 'write_file', path: 'data.txt', before: null, proposed: Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n') + '\n' };
    assert.deepEqual(await t.h.approve(big, new AbortController().signal), { decision: 'approve' });
    assert.match(t.shown(), /\+line 140\n/);
    assert.doesNotMatch(t.shown(), /\+line 999/);
    assert.match(t.shown(), /… \d+ more diff lines not shown \(\[e\]dit opens the whole proposal in \$EDITOR\)/);
    t.h.close();
  });

  it('a read shows the file and why it needs approval (not a command); "A" is approve-always', async () => {
    const t = host();
    typeAfterPrompt(t, ['A']);
    const a = await t.h.approve(read, new AbortController().signal);
    assert.deepEqual(a, { decision: 'approve', always: true });
    assert.match(t.shown(), /The agent wants to read \.env.* \(read_file\):\n {2}"\.env" usually holds secrets/);
    assert.match(t.shown(), /its content is sent to the model/);
    assert.doesNotMatch(t.shown(), /wants to run/);
    t.h.close();
  });

  it('shows the diff of a write and approves on "a"', async () => {
    const t = host();
    typeAfterPrompt(t, ['a']);
    const answer = await t.h.approve(write, new AbortController().signal);
    t.h.close();
    assert.deepEqual(answer, { decision: 'approve' });
    assert.match(t.shown(), /wants to change src\/fee\.js/);
    assert.match(t.shown(), /-const fee = 267;/);
    assert.match(t.shown(), /\+const fee = 268;/);
  });

  it('shows a command with its folder; "d" asks for the reason the agent is told; unknown answers re-prompt', async () => {
    const t = host();
    typeAfterPrompt(t, ['maybe', 'd', 'use the make target']);
    const answer = await t.h.approve(command, new AbortController().signal);
    t.h.close();
    assert.deepEqual(answer, { decision: 'deny', reason: 'use the make target' });
    assert.match(t.shown(), /\$ npm run build\n\s+in \/w/);
    assert.match(t.shown(), /Please answer one of/);
  });

  it('"A" on a command is approve-always', async () => {
    const t = host();
    typeAfterPrompt(t, ['A']);
    assert.deepEqual(await t.h.approve(command, new AbortController().signal), { decision: 'approve', always: true });
    t.h.close();
  });

  it('"e" opens $EDITOR on the proposal and returns what the person kept', async () => {
    const dir = tempDir();
    const editor = join(dir, 'ed.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i s/268/270/ "$1"\n');
    chmodSync(editor, 0o755);
    const saved = { EDITOR: process.env.EDITOR, VISUAL: process.env.VISUAL };
    process.env.EDITOR = editor;
    delete process.env.VISUAL;
    try {
      const t = host();
      typeAfterPrompt(t, ['e']);
      assert.deepEqual(await t.h.approve(write, new AbortController().signal), { decision: 'edit', content: 'const fee = 270;\n' });
      t.h.close();
    } finally {
      if (saved.EDITOR === undefined) delete process.env.EDITOR;
      else process.env.EDITOR = saved.EDITOR;
      if (saved.VISUAL !== undefined) process.env.VISUAL = saved.VISUAL;
    }
  });
});
