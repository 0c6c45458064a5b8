// Approvals that show exactly what they approve (issue 13, items 14–17): one attack per test, each
// asserting the harm did not happen and the run still ended cleanly with a clear message.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { TtyHost } from '../../../src/harness/cli/ttyHost';
import type { ApprovalRequest } from '../../../src/harness/host';
import { readLog } from '../../../src/harness/events/reader';
import { buildTranscript, transcriptText } from '../../../src/harness/replay/transcript';
import { runFeature } from '../../../src/harness/run';
import { tempDir } from '../../unit/loop/kit';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import type { Host } from '../../../src/harness/host';
import { buildOnce, CLI, hostileProject, outcome, runKite, type As } from './hostileKit';

/** The person running the tests (these attacks need no second identity). */
const me: As = { label: 'me', user: null, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home: process.env.HOME ?? '/' };

const reply = (content: unknown[], stop = 'tool_use') => ({ content, stop_reason: stop, usage: { input_tokens: 10, output_tokens: 5 } });

/** OSC 52 (set the clipboard to `rm -rf ~`) and OSC 0 (retitle the terminal) in what the agent says. */
const HOSTILE_TEXT = 'Looking\x1b]52;c;cm0gLXJmIH4=\x07 at it\x1b]0;all good\x07 now';
/** A command that, printed raw, shows `$ npm run lint` over the `rm -rf x` that really runs. */
const HIDDEN_COMMAND = 'rm -rf x\r\x1b[2K$ npm run lint';

/** A project whose agent says HOSTILE_TEXT and proposes HIDDEN_COMMAND, then claims done. */
function hiddenCommandProject() {
  const p = hostileProject(me, 'exit 0', { checks: ['test -d .git'] }, { x: 'keep me\n' });
  writeFileSync(
    p.script,
    JSON.stringify([
      reply([{ type: 'text', text: HOSTILE_TEXT }, { type: 'tool_use', id: 'toolu_rm', name: 'run', input: { command: HIDDEN_COMMAND } }]),
      reply([{ type: 'text', text: 'Done\x1b]0;pwned\x07.' }], 'end_turn'),
    ]),
  );
  return p;
}

/** A TtyHost on in-memory streams that types each answer when its prompt appears. */
function terminal(answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  let typed = 0;
  output.on('data', (d: Buffer) => {
    shown += d.toString();
    const prompts = shown.split('? ').length - 1 + shown.split('Reason (the agent is told): ').length - 1;
    if (prompts > typed && typed < answers.length) input.write(answers[typed++] + '\n');
  });
  return { host: new TtyHost(input, output), shown: () => shown };
}

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (v: Record<string, string | undefined>) => Object.entries(v).forEach(([k, x]) => (x === undefined ? delete process.env[k] : (process.env[k] = x)));
  set(vars);
  return fn().finally(() => set(saved));
}

describe('hostile: approvals show exactly what they approve', function () {
  this.timeout(120_000);

  it('[e]dit of a write whose file name holds shell code starts $EDITOR without a shell: the code never runs', async () => {
    const dir = tempDir('kite-hostile-edit-');
    const pwned = join(dir, 'pwned');
    const argvSeen = join(dir, 'argv');
    // An editor that records its arguments, then makes the edit the person wants.
    const editor = join(dir, 'my editor.sh');
    writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > '${argvSeen}'\nfor last; do :; done\nsed -i s/268/270/ "$last"\n`);
    chmodSync(editor, 0o755);
    const path = 'src/fee$(touch $KITE_PWNED);echo pwned>$KITE_PWNED.js';
    const write: ApprovalRequest = { kind: 'write', id: 'toolu_1', tool: 'write_file', path, before: 'const fee = 267;\n', proposed: 'const fee = 268;\n' };
    const t = terminal(['e']);
    // $EDITOR with a quoted path and an argument, as `code --wait` would be.
    const answer = await withEnv({ EDITOR: `'${editor}' --wait`, VISUAL: undefined, KITE_PWNED: pwned }, () => t.host.approve(write, new AbortController().signal));
    t.host.close();
    assert.equal(existsSync(pwned), false, 'the shell code in the file name did not run');
    assert.deepEqual(answer, { decision: 'edit', content: 'const fee = 270;\n' }, 'the edit still worked');
    const [count, flag, file] = readFileSync(argvSeen, 'utf8').split('\n');
    assert.equal(count, '2', 'the editor got its own argument and the file, nothing split');
    assert.equal(flag, '--wait');
    assert.ok(file.endsWith('fee$(touch $KITE_PWNED);echo pwned>$KITE_PWNED.js'), `the file name reached the editor as one literal argument: ${file}`);
  });

  it('escape sequences in the agent\'s text and a command hiding behind \\r\\x1b[2K never reach the terminal raw from `kite run`', () => {
    buildOnce();
    const p = hiddenCommandProject();
    const r = runKite(me, p);
    const shown = r.stdout + r.stderr;
    assert.equal(r.status, 0, shown);
    assert.equal(outcome(p), 'done', 'the run still ended cleanly');
    assert.ok(existsSync(join(p.repo, 'x')), 'the hidden rm -rf did not run');
    assert.ok(!shown.includes('\x1b'), `no raw ESC in the output: ${JSON.stringify(shown)}`);
    assert.ok(!shown.includes('\r'), 'no raw carriage return in the output');
    assert.ok(!shown.includes('\x07'), 'no raw BEL in the output');
    assert.match(shown, /rm -rf x\\r\\x1b\[2K\$ npm run lint/, 'the command is shown with its escapes visible');
    assert.match(shown, /Looking\\x1b\]52;c;cm0gLXJmIH4=\\x07 at it/, 'the OSC 52 is shown, not sent');
  });

  it('the approval prompt of a command hiding behind \\r\\x1b[2K shows the escapes, so the person sees what would run', async () => {
    const p = hiddenCommandProject();
    const t = terminal(['d', 'not that']);
    const s = await withEnv({ NO_COLOR: '1' }, () => runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, t.host));
    t.host.close();
    assert.equal(s.outcome, 'done', 'the run still ended cleanly');
    assert.ok(existsSync(join(p.repo, 'x')), 'the denied command did not run');
    const prompt = t.shown();
    assert.match(prompt, /\$ rm -rf x\\r\\x1b\[2K\$ npm run lint\n/, `the prompt shows the real command: ${JSON.stringify(prompt)}`);
    assert.match(prompt, /holds control characters/, 'and says so');
    assert.ok(!prompt.includes('\x1b') && !prompt.includes('\r'), 'no raw ESC or CR from the proposal reached the prompt');
    // the debugger's transcript of the same log escapes them too
    const transcript = transcriptText(buildTranscript((await readLog(s.logPath)).events));
    assert.ok(!/[\x1b\r\x07]/.test(transcript), 'no raw control character in the transcript');
    assert.ok(transcript.includes('run "rm -rf x\\r\\x1b[2K$ npm run lint"'), `the transcript shows the real command: ${transcript}`);
  });

  it('`kite resume --approve` without ids would approve a second, unseen command: it refuses, shows each waiting call in full, and approves only the ids named', async () => {
    buildOnce();
    const p = hostileProject(me, 'exit 0', { checks: ['test -d .git'] });
    writeFileSync(
      p.script,
      JSON.stringify([
        reply([
          { type: 'tool_use', id: 'toolu_ok', name: 'run', input: { command: 'echo one >> side.txt' } },
          { type: 'tool_use', id: 'toolu_bad', name: 'run', input: { command: 'echo pwned > pwned.txt' } },
        ]),
        reply([{ type: 'text', text: 'Done.' }], 'end_turn'),
      ]),
    );
    const gone: Host = { approve: () => Promise.reject(new Error('the window closed')) };
    const first = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, gone);
    assert.equal(first.paused, true);
    const run = basename(first.logPath, '.jsonl');
    const resume = (...args: string[]) => spawnSync(process.execPath, [CLI, 'resume', run, ...args], { cwd: p.repo, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
    const pwned = join(p.repo, 'pwned.txt');

    const again = resume(); // no terminal: pauses again, showing what waits
    assert.equal(again.status, 1, again.stderr);
    assert.match(again.stdout, /call toolu_ok \(run\):\nThe agent wants to run:\n {2}\$ echo one >> side\.txt\n {2}in /);
    assert.match(again.stdout, /call toolu_bad \(run\):\nThe agent wants to run:\n {2}\$ echo pwned > pwned\.txt/);
    assert.match(again.stdout, new RegExp(`paused, resume with kite resume ${run} .*--approve toolu_ok,toolu_bad`));

    const bare = resume('--approve');
    assert.equal(bare.status, 2, 'a bare --approve with two waiting calls is a usage error');
    assert.match(bare.stderr, /2 calls are waiting; name the ones you approve/);
    assert.match(bare.stderr, /\$ echo pwned > pwned\.txt/, 'the error shows what waits');
    assert.equal(existsSync(pwned), false, 'nothing was approved blindly');
    assert.equal(existsSync(join(p.repo, 'side.txt')), false);

    const wrong = resume('--approve', 'toolu_nope');
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /toolu_nope is not waiting for approval; waiting: toolu_ok, toolu_bad/);

    const one = resume('--approve', 'toolu_ok');
    assert.equal(one.status, 1, one.stderr + one.stdout);
    assert.match(one.stdout, /\$ echo one >> side\.txt\n {2}in .*\napproved by --approve/, 'what is approved is shown as it is approved');
    assert.equal(readFileSync(join(p.repo, 'side.txt'), 'utf8'), 'one\n', 'the named call ran');
    assert.equal(existsSync(pwned), false, 'the other call was not approved');
    assert.match(one.stdout, /paused, resume with kite resume .*--approve toolu_bad/, 'and still waits, shown');

    const end = resume('--deny', 'not that one');
    assert.equal(end.status, 0, end.stderr + end.stdout);
    assert.equal(existsSync(pwned), false);
    assert.equal(outcome(p), 'done', 'the run still ended cleanly');
  });

  it('`npm run lint` after the run rewrote the lint script in package.json: the prompt says so and shows the change', async () => {
    const pkg = (lint: string) => JSON.stringify({ name: 'x', scripts: { lint } }, null, 2) + '\n';
    const p = hostileProject(me, 'exit 0', { checks: ['test -d .git'] }, { 'package.json': pkg('echo lint ok') });
    writeFileSync(
      p.script,
      JSON.stringify([
        reply([{ type: 'tool_use', id: 'toolu_pkg', name: 'write_file', input: { path: 'package.json', content: pkg('echo pwned > pwned.txt') } }]),
        reply([{ type: 'tool_use', id: 'toolu_lint', name: 'run', input: { command: 'npm run lint' } }]),
        reply([{ type: 'text', text: 'Done.' }], 'end_turn'),
      ]),
    );
    const t = terminal(['a', 'd', 'the lint script changed']);
    const asked: ApprovalRequest[] = [];
    const host: Host = { approve: (req, signal) => (asked.push(req), t.host.approve(req, signal)) };
    const s = await withEnv({ NO_COLOR: '1' }, () => runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, host));
    t.host.close();
    assert.equal(s.outcome, 'done', 'the run still ended cleanly');
    assert.equal(existsSync(join(p.repo, 'pwned.txt')), false, 'the rewritten script did not run');
    const command = asked.find((r) => r.kind === 'command');
    assert.deepEqual(command?.kind === 'command' ? command.scriptChanges?.map((c) => [c.file, c.script]) : null, [['package.json', 'lint']], 'the request carries the change');
    const prompt = t.shown();
    assert.match(prompt, /\$ npm run lint\n {2}in .*\n {2}! it runs package\.json script "lint", which this run changed since it started:\n/);
    assert.match(prompt, /^-"lint": "echo lint ok"$/m);
    assert.match(prompt, /^\+"lint": "echo pwned > pwned\.txt"$/m);
  });

  it('`bash build.sh` and `make` after the run rewrote build.sh and the Makefile: the prompt shows both diffs', async () => {
    const p = hostileProject(me, 'exit 0', { checks: ['test -d .git'] }, { 'build.sh': 'echo build\n', Makefile: 'all:\n\techo all\n' });
    writeFileSync(
      p.script,
      JSON.stringify([
        reply([
          { type: 'tool_use', id: 'toolu_sh', name: 'write_file', input: { path: 'build.sh', content: 'echo pwned > pwned.txt\n' } },
          { type: 'tool_use', id: 'toolu_mk', name: 'write_file', input: { path: 'Makefile', content: 'all:\n\techo pwned > pwned.txt\n' } },
        ]),
        reply([{ type: 'tool_use', id: 'toolu_build', name: 'run', input: { command: 'bash build.sh && make all' } }]),
        reply([{ type: 'text', text: 'Done.' }], 'end_turn'),
      ]),
    );
    const t = terminal(['a', 'a', 'd', 'no']);
    const s = await withEnv({ NO_COLOR: '1' }, () => runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, t.host));
    t.host.close();
    assert.equal(s.outcome, 'done', 'the run still ended cleanly');
    assert.equal(existsSync(join(p.repo, 'pwned.txt')), false);
    const prompt = t.shown();
    assert.match(prompt, /! it runs build\.sh, which this run changed since it started:\n[\s\S]*^-echo build$[\s\S]*^\+echo pwned > pwned\.txt$/m);
    assert.match(prompt, /! it runs Makefile, which this run changed since it started:\n[\s\S]*^-\techo all$[\s\S]*^\+\techo pwned > pwned\.txt$/m);
  });
});
