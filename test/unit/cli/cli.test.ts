import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initMain } from '../../../src/harness/cli/initCommand';
import { cliMain } from '../../../src/harness/cli/main';
import type { Out } from '../../../src/harness/cli/output';
import { runMain, type RunCommandDeps } from '../../../src/harness/cli/runCommand';
import { say, ScriptedModel, use } from '../../../src/harness/model/scripted';
import { loadProgress } from '../../../src/harness/progress/progressFile';
import { DEMO_SCRIPT, git, tempDir, tempRepo } from '../loop/kit';

class Capture implements Out {
  stdout = '';
  stderr = '';
  out(t: string) {
    this.stdout += t + '\n';
  }
  err(t: string) {
    this.stderr += t + '\n';
  }
}

async function run(argv: string[], extra: RunCommandDeps['extra'] = {}) {
  const c = new Capture();
  const code = await runMain(argv, { out: c, isTty: false, extra });
  return { code, ...c };
}

function twoFeatureRepo(verify2 = 'true'): string {
  return tempRepo({
    'kite-progress.json': JSON.stringify({
      goal: 'g',
      log: [],
      features: [
        // Their scripted replies change no file: these features say so (issue 18: no change is not done otherwise).
        { id: 'F1', title: 'First', status: 'todo', verify: 'true', notes: '', expects_no_change: true },
        { id: 'F2', title: 'Second', status: 'todo', verify: verify2, notes: '', expects_no_change: true },
        { id: 'F3', title: 'Third', status: 'todo', verify: 'true', notes: '', expects_no_change: true },
      ],
    }),
    '.kite/config.json': JSON.stringify({ max_gate_failures: 1 }),
  });
}

describe('kite CLI (in process)', function () {
  it('no command, unknown command → exit 2 with usage; help → 0 listing run and init', async () => {
    const c = new Capture();
    assert.equal(await cliMain([], c), 2);
    assert.equal(await cliMain(['fly'], c), 2);
    assert.match(c.stderr, /unknown command "fly"; commands: run, init, resume/);
    const flag = new Capture();
    assert.equal(await cliMain(['--unattended'], flag), 2);
    assert.equal(flag.stderr.trim().split('\n').length, 1);
    assert.match(flag.stderr, /options go after the command, e\.g\. kite run --unattended/);
    const h = new Capture();
    assert.equal(await cliMain(['--help'], h), 0);
    assert.match(h.stdout, /^\s+run\s+run the agent/m);
    assert.match(h.stdout, /^\s+init\s+write a starter/m);
    assert.match(h.stdout, /Getting started/);
    // kite help init is kite init --help (the command prints to the process's stdout)
    let printed = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => ((printed += String(chunk)), true)) as typeof process.stdout.write;
    try {
      assert.equal(await cliMain(['help', 'init']), 0);
    } finally {
      process.stdout.write = write;
    }
    assert.match(printed, /^usage: kite init \[DIR\]/);
    const v = new Capture();
    assert.equal(await cliMain(['--version'], v), 0);
    assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
    const rh = await run(['--help']);
    assert.equal(rh.code, 0);
    for (const needle of ['--unattended', '--replay LOG', 'Examples:', 'Exit status: 0', 'ANTHROPIC_API_KEY']) assert.ok(rh.stdout.includes(needle), needle);
  });

  it('usage errors exit 2 with one clear line and a pointer to --help, never a stack trace', async () => {
    for (const [argv, msg] of [
      [['--frobnicate'], /^kite: unknown option --frobnicate$/m],
      [['--max-turn', '3'], /^kite: unknown option --max-turn \(did you mean --max-turns\?\)$/m],
      [['--max-turns', 'abc'], /--max-turns must be a positive whole number, got "abc"/],
      [['--max-turns', 'many'], /--max-turns must be a positive whole number, got "many"/],
      [['--max-usd'], /--max-usd needs a value/],
      [['--all', '--feature', 'F1'], /--all and --feature cannot be combined/],
      [['--all', '--worktree'], /--all and --worktree cannot be combined/],
      [['a', 'b'], /unexpected argument "b"/],
    ] as const) {
      const r = await run([...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.stderr, msg);
      assert.deepEqual(r.stderr.trim().split('\n').slice(1), ['Run `kite run --help` for the options.']);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });

  it('project problems exit 2 naming the problem: bad config (JSON path), not a repo, dirty tree, no feature, bad script', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, '.kite', 'config.json'), '{"budget": {"usd": "lots"}}');
    git(repo, 'commit', '-qam', 'bad config');
    let r = await run([repo, '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /config\.json:\d+:\d+: \$\.budget\.usd: /);
    assert.equal(r.stderr.trim().split('\n').length, 1);

    const plain = tempDir();
    writeFileSync(join(plain, 'kite-progress.json'), JSON.stringify({ goal: 'g', features: [{ id: 'F1', title: 't', status: 'todo' }] }));
    r = await run([plain, '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not inside a git repository/);

    const dirty = tempRepo();
    writeFileSync(join(dirty, 'src', 'ledger.js'), '// local change\n');
    r = await run([dirty, '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /uncommitted changes \(src\/ledger\.js\).*--allow-dirty/);

    r = await run([tempRepo(), '--feature', 'F9', '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no feature "F9"/);

    const badScript = join(tempDir(), 's.json');
    writeFileSync(badScript, '[{"content": 1}]');
    r = await run([tempRepo(), '--model', `script:${badScript}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /s\.json:\d+:\d+: reply 1 \(\$\[0\]\) content: /);
  });

  it('--allow-dirty starts anyway; a run that does not end done exits 1 and prints timeline + summary', async () => {
    const dirty = tempRepo();
    writeFileSync(join(dirty, 'scratch.txt'), 'x');
    const r = await run([dirty, '--allow-dirty', '--max-turns', '2', '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /budget stop: turns 2 of 2/);
    assert.match(r.stdout, /^F1: budget_exceeded in 2 turns, [\d,]+ tokens, \$[\d.]+\. Nothing committed\. Log \S+\.jsonl$/m);
    assert.equal(loadProgress(join(dirty, 'kite-progress.json')).features[0].status, 'budget_exceeded');
  });

  it('--all keeps going feature by feature until none is left', async () => {
    const repo = twoFeatureRepo();
    const model = new ScriptedModel([say('one'), say('two'), say('three')]);
    const r = await run([repo, '--all'], { modelOverride: model });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(git(repo, 'log', '--pretty=%s').split('\n'), ['F3: Third', 'F2: Second', 'F1: First', 'initial']);
    assert.match(r.stdout, /all done — 3 feature\(s\) finished/);
  });

  it('--all stops at the first feature that does not end done', async () => {
    const repo = twoFeatureRepo('false');
    const model = new ScriptedModel([say('one'), say('two'), say('three')]);
    const r = await run([repo, '--all'], { modelOverride: model });
    assert.equal(r.code, 1);
    const p = loadProgress(join(repo, 'kite-progress.json'));
    assert.deepEqual(p.features.map((f) => f.status), ['done', 'gate_failed', 'todo']);
    assert.equal(model.remaining, 1);
  });

  it('--worktree works on branch kite/<id> in a new worktree; the main checkout is untouched', async () => {
    const repo = twoFeatureRepo();
    const head = git(repo, 'rev-parse', 'HEAD');
    const r = await run([repo, '--worktree'], { modelOverride: new ScriptedModel([say('one')]) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^F1: First {2}\(unattended, script:inline; working in \S+-kite-F1 on branch kite\/F1\)$/m);
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(git(repo, 'log', '-1', '--pretty=%s', 'kite/F1'), 'F1: First');
    assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'todo');
  });

  it('kite init writes a valid starter progress file and config, guesses checks, never overwrites', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
    const c = new Capture();
    assert.equal(await initMain([dir, '--goal', 'A ledger'], c), 0);
    const p = loadProgress(join(dir, 'kite-progress.json'));
    assert.equal(p.goal, 'A ledger');
    assert.equal(p.features[0].status, 'todo');
    const cfg = JSON.parse(readFileSync(join(dir, '.kite', 'config.json'), 'utf8')) as { checks: string[] };
    assert.deepEqual(cfg.checks, ['npm test']);
    writeFileSync(join(dir, 'kite-progress.json'), '{"mine": true}');
    const again = new Capture();
    assert.equal(await initMain([dir], again), 0);
    assert.match(again.stdout, /kept .*kite-progress\.json/);
    assert.equal(readFileSync(join(dir, 'kite-progress.json'), 'utf8'), '{"mine": true}');
    const nope = new Capture();
    assert.equal(await initMain([join(dir, 'nope')], nope), 2);
    assert.match(nope.stderr, /nope: no such directory\nRun `kite init --help` for the options\.\n$/);
    assert.ok(existsSync(join(dir, '.kite', 'config.json')));
  });

  it('a script that runs out of replies mid-run ends error saying so; the log is closed and the progress file records it', async () => {
    const repo = twoFeatureRepo();
    const r = await run([repo], { modelOverride: new ScriptedModel([use('read_file', 'r1', { path: 'kite-progress.json' })], 'script:short.json') });
    assert.equal(r.code, 1);
    // rows are printed as they happen even into a pipe, after a header naming feature, mode and model
    assert.match(r.stdout, /^F1: First {2}\(unattended, script:short\.json\)\n {4}\d+\.\ds {2}commands run in the sandbox \(bwrap\): no network\n {4}\d+\.\ds {2}turn 1 /);
    assert.doesNotMatch(r.stderr, /warning/); // F1 has a verify command
    const bare = tempRepo({ 'kite-progress.json': JSON.stringify({ goal: 'g', log: [], features: [{ id: 'F1', title: 'T', status: 'todo', verify: null, expects_no_change: true }] }) });
    const b = await run([bare], { modelOverride: new ScriptedModel([say('done')]) });
    // issue 18 item 1: with nothing to verify it, the run ends unverified (exit 1), never done
    assert.equal(b.code, 1);
    assert.match(b.stderr, /^kite: warning: no checks in \.kite\/config\.json and F1 has no verify command, so this run cannot end done: it ends unverified/m);
    assert.match(r.stdout, /end {2}error — model error \(script_exhausted\): the script ran out of replies after 1 \(script:short\.json\); the run needed another model turn/);
    assert.match(r.stdout, /^F1: error in 1 turn, .* Nothing committed\./m);
    const p = loadProgress(join(repo, 'kite-progress.json'));
    assert.equal(p.features[0].status, 'error');
    assert.match(p.features[0].notes ?? '', /script ran out of replies/);
    const logs = readdirSync(join(repo, '.kite', 'runs')).filter((f) => f.endsWith('.jsonl'));
    const last = readFileSync(join(repo, '.kite', 'runs', logs[0]), 'utf8').trim().split('\n').at(-1) ?? '';
    assert.equal((JSON.parse(last) as { kind: string }).kind, 'session_end');
  });

  it('--model anthropic:… without ANTHROPIC_API_KEY is one clear line, exit 2, nothing started', async () => {
    const repo = twoFeatureRepo();
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const r = await run([repo, '--model', 'anthropic:claude-sonnet-4-5']);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, 'kite: no API key: set ANTHROPIC_API_KEY (or use --model script:<file> for a scripted run)\n');
      assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'todo');
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('an approval nobody answers (Ctrl-C at the prompt) pauses the run: exit 1, the waiting call in full, one line with the resume command, what waits and its id', async () => {
    const repo = twoFeatureRepo();
    const c = new Capture();
    const host = { approve: () => Promise.reject(new Error('Aborted with Ctrl+C')) };
    const code = await runMain([repo], { out: c, isTty: true, host, extra: { modelOverride: new ScriptedModel([use('run', 'c1', { command: 'ls' }), say('done')]) } });
    assert.equal(code, 1);
    assert.match(c.stdout, /turn 1 +tool_use/); // a host of one's own still gets the live rows printed
    assert.match(c.stdout, /^F1: paused, resume with kite resume (\d{8}-\d{6}-F1) \(waiting for approval of run \(c1\); approve with kite resume \1 --approve c1, or deny with --deny REASON\)$/m);
    assert.match(c.stdout, /^call c1 \(run\):\nThe agent wants to run:\n {2}\$ ls\n {2}in \//m, 'the call is shown before anyone approves it');
    assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'in_progress');
  });

  it('--allow-dirty: the person\'s own uncommitted changes stay out of the feature commit, unless the run changed those files too', async () => {
    const repo = twoFeatureRepo();
    writeFileSync(join(repo, 'README.md'), 'my notes, not ready\n'); // untracked WIP
    writeFileSync(join(repo, 'shared.txt'), 'before\n');
    git(repo, 'add', 'shared.txt');
    git(repo, 'commit', '-qm', 'shared');
    writeFileSync(join(repo, 'shared.txt'), 'before\nmine\n'); // modified WIP the agent will change again
    const model = new ScriptedModel([use('write_file', 'w1', { path: 'src/new.js', content: 'x\n' }), use('write_file', 'w2', { path: 'shared.txt', content: 'before\nmine\nagent\n' }), say('done')]);
    const r = await run([repo, '--allow-dirty'], { modelOverride: model });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const files = git(repo, 'show', '--name-only', '--pretty=format:', 'HEAD').split('\n').filter(Boolean).sort();
    assert.deepEqual(files, ['kite-progress.json', 'shared.txt', 'src/new.js']);
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), 'my notes, not ready\n');
    assert.match(git(repo, 'status', '--porcelain'), /\?\? README\.md/);
  });

  it('kite init in a folder without git says how to start one; a run refuses a repo without git with the commands to type', async () => {
    const dir = tempDir();
    const c = new Capture();
    assert.equal(await initMain([dir], c), 0);
    assert.match(c.stdout, /is not a git repository yet\. Kite commits each finished feature, so start one first:\n {2}git init && git add -A && git commit -m "initial"/);
    const inRepo = new Capture();
    assert.equal(await initMain([tempRepo()], inRepo), 0);
    assert.doesNotMatch(inRepo.stdout, /not a git repository/);
    const r = await run([dir, '--feature', 'F1', '--model', `script:${DEMO_SCRIPT}`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not inside a git repository; .*git init && git add -A && git commit -m "initial"/);
  });

  it('kite run right after kite init refuses the placeholder feature instead of paying a model to guess', async () => {
    const repo = tempRepo({ 'README.md': 'x' });
    assert.equal(await initMain([repo], new Capture()), 0);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'kite init');
    const r = await run([repo], { modelOverride: new ScriptedModel([say('guessing')]) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /kite-progress\.json: feature F1 is still the starter written by `kite init`; give it a real title, notes and a "verify" command first/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.equal(loadProgress(join(repo, 'kite-progress.json')).features[0].status, 'todo'); // nothing started
  });
});
