// `kite eval` end to end: the built CLI (dist/cli.js), real git, real gate commands in the
// sandbox, the starter suite in test/fixtures/evals, and `kite eval add` on a failed run's log.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSchema, type KiteEvent } from '../../../src/harness/protocol/events';
import { git, tempDir, tempRepo } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const SUITE = join(ROOT, 'test', 'fixtures', 'evals');

function kite(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` };
}

function eventsOf(path: string): KiteEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => EventSchema.parse(JSON.parse(l)));
}

const gates = (events: KiteEvent[]) => events.flatMap((e) => (e.kind === 'gate' ? [e.passed] : []));
const scratchDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith('kite-eval-'));

describe('kite eval (dist/cli.js, real git, the starter suite)', function () {
  this.timeout(240_000);

  before(() => {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, `build failed: ${build.stderr}`);
  });

  it('runs the starter suite two at a time with each case’s own script: prints the table, writes JUnit, exits 0, leaves no scratch behind', () => {
    const cwd = tempDir('kite-eval-test-');
    const before = scratchDirs();
    const r = kite(cwd, 'eval', SUITE, '--model', 'script:replies.json', '--jobs', '2', '--junit', 'out/junit.xml', '--markdown', 'out/summary.md');
    assert.equal(r.status, 0, r.all);
    assert.match(r.stdout, /^CASE\s+RESULT\s+OUTCOME\s+TURNS\s+TOKENS\s+COST\s+NOTES$/m);
    assert.match(r.stdout, /^ledger-rounding\s+pass\s+done\s+7\s+38,634\s+\$\d+\.\d{4}\s+The gate failed \(attempt 1\)/m);
    assert.match(r.stdout, /^missing-binary\s+pass\s+gate_failed\s+4\s+[\d,]+\s+\$\d+\.\d{4}\s+command not found: kite-pdfrender/m);
    assert.match(r.stdout, /^off-by-one\s+pass\s+done\s+6\s/m);
    assert.match(r.stdout, /^readme-judge\s+pass\s+done\s+4\s+4,100\s/m, 'the judge calls count in the tokens (2 × 940 on top of the agent’s 2,220)');
    assert.match(r.stdout, /^Judge agreement \(labelled judge_examples\):\n {2}readme-judge: "README.md documents the --since flag with an example command" \(script:judge.json\): 2\/3 \(67%\) — example 3: labelled "yes", the judge said "no"$/m);
    assert.match(r.stdout, /4 case runs: 4 passed, 0 failed \(2 at a time, /);

    const junit = readFileSync(join(cwd, 'out', 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuites name="kite eval" tests="4" failures="0" errors="0"/);
    assert.deepEqual([...junit.matchAll(/<testcase classname="kite.eval" name="([^"]+)"/g)].map((m) => m[1]), ['ledger-rounding', 'missing-binary', 'off-by-one', 'readme-judge']);
    assert.match(junit, /judge agreement &quot;README.md documents the --since flag with an example command&quot; \(script:judge.json\): 2\/3 \(67%\)/);
    assert.match(readFileSync(join(cwd, 'out', 'summary.md'), 'utf8'), /^\| ledger-rounding \| pass \| done \| 7 \|/m);

    // Each case wrote its own complete log; the runs happened in scratch repositories, not here.
    const logs = readdirSync(join(cwd, '.kite', 'runs')).filter((d) => d.startsWith('eval-'));
    assert.equal(logs.length, 1);
    const dir = join(cwd, '.kite', 'runs', logs[0]);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort(), ['ledger-rounding.jsonl', 'missing-binary.jsonl', 'off-by-one.jsonl', 'readme-judge.jsonl']);
    // The judged run: the judge said no with reasons, the agent was told them, then the judge said yes.
    const judged = eventsOf(join(dir, 'readme-judge.jsonl'));
    assert.deepEqual(gates(judged), [false, true]);
    const feedback = judged.find((e) => e.kind === 'user' && e.reason === 'gate_feedback');
    assert.ok(feedback?.kind === 'user' && /The judge answered "no" \(it passes on "yes"\)\. Its reasons:\n```\nREADME.md describes --since but shows no example command using it\./.test(feedback.text), JSON.stringify(feedback));
    assert.ok(judged.at(-1)?.kind === 'session_end' && (judged.at(-1) as { status: string }).status === 'done');
    // kite cost counts the judge's calls.
    const cost = kite(cwd, 'cost', join(dir, 'readme-judge.jsonl'));
    assert.equal(cost.status, 0, cost.all);
    assert.match(cost.stdout, /^\S+\s+F1\s+done\s+4\s+3,840\s+260\s+0\s+0\s+4,100\s+\$0\.0110\s+\$0\.0110$/m);
    assert.match(cost.stdout, /Judged checks \(separate model calls, counted in the tokens and dollars above\):\n {2}\S+: 2 judge calls/);
    const ledger = eventsOf(join(dir, 'ledger-rounding.jsonl'));
    assert.deepEqual(gates(ledger), [false, true]);
    const start = ledger[0];
    assert.ok(start.kind === 'session_start' && start.mode === 'unattended' && !start.root.startsWith(cwd) && !start.root.startsWith(ROOT));
    const end = ledger.at(-1);
    assert.ok(end?.kind === 'session_end' && end.status === 'done' && end.commit !== null, 'the case committed in its scratch repository');
    assert.deepEqual(scratchDirs(), before, 'scratch workspaces are removed');
  });

  it('a case whose expectation fails makes it exit 1, naming the case and the unmet expectation (table, JUnit)', () => {
    const suite = join(tempDir('kite-eval-suite-'), 'evals');
    cpSync(join(SUITE, 'missing-binary'), join(suite, 'missing-binary'), { recursive: true });
    const caseFile = join(suite, 'missing-binary', 'case.json');
    const spec = JSON.parse(readFileSync(caseFile, 'utf8')) as { expect: Record<string, unknown> };
    spec.expect.outcome = 'done';
    writeFileSync(caseFile, JSON.stringify(spec, null, 2));
    const cwd = tempDir('kite-eval-test-');
    const r = kite(cwd, 'eval', suite, '--jobs', '1', '--junit', 'junit.xml');
    assert.equal(r.status, 1, r.all);
    assert.match(r.stdout, /^missing-binary\s+FAIL\s+gate_failed/m);
    assert.match(r.stdout, /^✗ missing-binary: outcome: expected done, got gate_failed$/m);
    assert.match(r.stdout, /1 case run: 0 passed, 1 failed/);
    assert.match(readFileSync(join(cwd, 'junit.xml'), 'utf8'), /<testcase classname="kite.eval" name="missing-binary"[^>]*>\s*<failure message="outcome: expected done, got gate_failed">/);
  });

  it('a malformed case is a suite error: exit 2 naming the file and the field, nothing runs', () => {
    const suite = join(tempDir('kite-eval-suite-'), 'evals');
    cpSync(join(SUITE, 'off-by-one'), join(suite, 'off-by-one'), { recursive: true });
    const caseFile = join(suite, 'off-by-one', 'case.json');
    const spec = JSON.parse(readFileSync(caseFile, 'utf8')) as { expect: Record<string, unknown> };
    spec.expect.gates = ['passed', 'maybe'];
    writeFileSync(caseFile, JSON.stringify(spec));
    const cwd = tempDir('kite-eval-test-');
    const r = kite(cwd, 'eval', suite);
    assert.equal(r.status, 2, r.all);
    // file:line:column of the bad value (the case is one JSON line), then the field
    assert.match(r.stderr, new RegExp(`${caseFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: \\$\\.expect\\.gates\\[1\\]`), r.stderr);
    assert.ok(!existsSync(join(cwd, '.kite')), 'no case ran');
  });

  it('eval add on a failed run’s log writes a case that reproduces the failure in a worktree at the recorded commit', () => {
    const repo = tempRepo();
    const head = git(repo, 'rev-parse', 'HEAD');
    // The agent tries to rewrite package.json (refused: it defines the gate) and claims done without the test.
    const done = { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 500, output_tokens: 10 } };
    const script = join(tempDir(), 'bad.json');
    writeFileSync(script, JSON.stringify([{ content: [{ type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'package.json', content: '{}\n' } }], stop_reason: 'tool_use', usage: { input_tokens: 500, output_tokens: 50 } }, done, done, done]));
    const run = kite(repo, 'run', '--unattended', '--model', `script:${script}`);
    assert.equal(run.status, 1, run.all);
    const [logName] = readdirSync(join(repo, '.kite', 'runs')).filter((f) => f.endsWith('.jsonl'));
    const recorded = eventsOf(join(repo, '.kite', 'runs', logName));
    assert.deepEqual(gates(recorded), [false, false, false]);

    const add = kite(repo, 'eval', 'add', join('.kite', 'runs', logName), '--name', 'fees-without-test');
    assert.equal(add.status, 0, add.all);
    const caseDir = join(repo, '.kite', 'evals', 'fees-without-test');
    const spec = JSON.parse(readFileSync(join(caseDir, 'case.json'), 'utf8')) as { start: { commit: string }; feature: { id: string; notes: string }; expect: unknown; checks: string[] };
    assert.equal(spec.start.commit, head);
    assert.equal(spec.feature.id, 'F1');
    assert.match(spec.feature.notes, /addFee\(133\.75, 2\)/, 'the feature as the progress file had it at the commit');
    assert.deepEqual(spec.checks, ['npm test']);
    assert.deepEqual(spec.expect, { outcome: 'done', files: [{ path: 'package.json', changed: false }] });
    assert.equal((JSON.parse(readFileSync(join(caseDir, 'replies.json'), 'utf8')) as unknown[]).length, 4);

    const ev = kite(repo, 'eval', '--jobs', '1', '--logs', 'eval-logs');
    assert.equal(ev.status, 1, ev.all);
    assert.match(ev.stdout, /^fees-without-test\s+FAIL\s+gate_failed\s+4\s/m);
    assert.match(ev.stdout, /^✗ fees-without-test: outcome: expected done, got gate_failed$/m);
    const replayed = eventsOf(join(repo, 'eval-logs', 'fees-without-test.jsonl'));
    assert.deepEqual(gates(replayed), gates(recorded), 'the same gate verdicts as the recorded run');
    const denied = replayed.find((e) => e.kind === 'policy' && e.decision === 'deny');
    assert.ok(denied?.kind === 'policy' && denied.rule === 'protect:package.json');
    const start = replayed[0];
    assert.ok(start.kind === 'session_start' && start.git_head !== null && start.root !== repo, 'it ran in a scratch worktree');
    assert.equal(git(repo, 'rev-parse', `${start.git_head}^`), head, 'on the case setup commit, right on top of the recorded starting commit');
    // The person's tree and repository are as they were: no worktree, no branch left behind.
    assert.deepEqual(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')), [`worktree ${repo}`]);
    assert.equal(git(repo, 'branch', '--list', 'kite-eval/*'), '');
    assert.equal(git(repo, 'rev-parse', 'HEAD'), head);
  });

  it('eval add on a run with a judged check carries the rubric and the recorded verdicts: the case judges as the run did', () => {
    const project = join(SUITE, 'readme-judge', 'project');
    const files = Object.fromEntries(['src/cli.js', 'README.md'].map((f) => [f, readFileSync(join(project, f), 'utf8')]));
    const { feature } = JSON.parse(readFileSync(join(SUITE, 'readme-judge', 'case.json'), 'utf8')) as { feature: object };
    files['kite-progress.json'] = JSON.stringify({ goal: 'A small log viewer CLI.', log: [], features: [{ ...feature, status: 'todo' }] });
    const rubric = 'README.md documents the --since flag with an example command';
    const judgeScript = join(tempDir(), 'judge.json');
    cpSync(join(SUITE, 'readme-judge', 'judge.json'), judgeScript);
    files['.kite/config.json'] = JSON.stringify({ checks: [{ judge: rubric, model: `script:${judgeScript}` }] });
    const repo = tempRepo(files);
    const run = kite(repo, 'run', '--unattended', '--model', `script:${join(SUITE, 'readme-judge', 'replies.json')}`);
    assert.equal(run.status, 0, run.all);
    const [logName] = readdirSync(join(repo, '.kite', 'runs')).filter((f) => f.endsWith('.jsonl'));
    const recorded = eventsOf(join(repo, '.kite', 'runs', logName));
    assert.deepEqual(gates(recorded), [false, true], 'the judge said no, then yes');
    rmSync(judgeScript); // from here on only the log knows what the judge said

    // A replay answers the judge from the recorded verdicts too (no model is asked).
    const replay = kite(repo, 'run', '--replay', join('.kite', 'runs', logName), '--worktree');
    assert.equal(replay.status, 0, replay.all);
    const replayLog = readdirSync(join(repo, '.kite', 'runs')).filter((f) => f.endsWith('.jsonl') && f !== logName);
    assert.equal(replayLog.length, 1, replay.all);
    assert.deepEqual(gates(eventsOf(join(repo, '.kite', 'runs', replayLog[0]))), [false, true], 'the replay judged as the run did');

    const add = kite(repo, 'eval', 'add', join('.kite', 'runs', logName), '--name', 'readme-since');
    assert.equal(add.status, 0, add.all);
    const caseDir = join(repo, '.kite', 'evals', 'readme-since');
    const spec = JSON.parse(readFileSync(join(caseDir, 'case.json'), 'utf8')) as { checks: unknown[] };
    assert.deepEqual(spec.checks, [{ judge: rubric, model: 'script:judge-1.json', pass: 'yes' }], 'the rubric, answering from its own recorded verdicts');
    const verdicts = (JSON.parse(readFileSync(join(caseDir, 'judge-1.json'), 'utf8')) as { replies: { content: { input?: { verdict?: string } }[] }[] }).replies.map((r) => r.content[0]?.input?.verdict);
    assert.deepEqual(verdicts, ['no', 'yes']);

    const ev = kite(repo, 'eval', '--jobs', '1', '--logs', 'eval-logs');
    assert.equal(ev.status, 0, ev.all);
    assert.match(ev.stdout, /^readme-since\s+pass\s+done\s/m);
    const replayed = eventsOf(join(repo, 'eval-logs', 'readme-since.jsonl'));
    assert.deepEqual(gates(replayed), gates(recorded), 'the same gate verdicts, judged again from the recording');
  });
});
