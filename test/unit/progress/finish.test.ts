import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishFeature, parseQueue, statusFor, stripQueue } from '../../../src/harness/progress/finish';
import { commitFiles, gitHead } from '../../../src/harness/progress/git';
import { loadProgress, saveProgress } from '../../../src/harness/progress/progressFile';
import { git, tempRepo } from '../loop/kit';

describe('finishing a feature', function () {
  it('QUEUE lines become proposals; the notes keep the rest', () => {
    const text = 'Fixed rounding.\n\nQUEUE: Reject negative rates\n- QUEUE: Round taxes too\nQUEUE: Reject negative rates\nqueue: not this one';
    assert.deepEqual(parseQueue(text), ['Reject negative rates', 'Round taxes too']);
    assert.equal(stripQueue(text), 'Fixed rounding.\n\nqueue: not this one');
  });

  it('maps every outcome to a feature status', () => {
    assert.equal(statusFor('done'), 'done');
    assert.equal(statusFor('stuck'), 'stuck');
    assert.equal(statusFor('refused'), 'error');
    assert.equal(statusFor('context_exceeded'), 'error');
    assert.equal(statusFor('cancelled'), 'in_progress');
  });

  const setup = () => {
    const root = tempRepo();
    const progressPath = join(root, 'kite-progress.json');
    const start = loadProgress(progressPath);
    start.features[0].status = 'in_progress';
    saveProgress(progressPath, start);
    return { root, progressPath, start };
  };
  const input = (s: ReturnType<typeof setup>, over: Partial<Parameters<typeof finishFeature>[0]> = {}) => ({
    root: s.root,
    progressPath: s.progressPath,
    fallback: s.start,
    featureId: 'F1',
    outcome: 'done' as const,
    summary: 'Fees round half-up now.\nQUEUE: Reject negative fee rates',
    turns: 7,
    tokens: 12345,
    costUsd: 0.012345678,
    logDir: join(s.root, '.kite', 'runs'),
    commit: true,
    now: new Date('2026-03-01T10:15:00Z'),
    ...over,
  });

  it('done: status, notes, proposal, log entry, and ONE commit `<id>: <title>` with the work and the progress file, never the logs', () => {
    const s = setup();
    const headBefore = gitHead(s.root);
    writeFileSync(join(s.root, 'src', 'fees.js'), 'module.exports = 1;\n');
    mkdirSync(join(s.root, '.kite', 'runs'), { recursive: true });
    writeFileSync(join(s.root, '.kite', 'runs', '.gitignore'), '*\n');
    writeFileSync(join(s.root, '.kite', 'runs', 'x.jsonl'), '{}\n');
    const r = finishFeature(input(s));
    assert.equal(r.outcome, 'done');
    assert.ok(r.commit);
    assert.equal(git(s.root, 'rev-list', '--count', `${headBefore}..HEAD`), '1');
    assert.equal(git(s.root, 'log', '-1', '--pretty=%s'), 'F1: Fees round half-up');
    const files = commitFiles(s.root, r.commit);
    assert.deepEqual(files.sort(), ['kite-progress.json', 'src/fees.js']);
    const p = loadProgress(s.progressPath);
    assert.deepEqual(p.features.map((f) => [f.id, f.status]), [
      ['F1', 'done'],
      ['Q1', 'proposed'],
    ]);
    assert.equal(p.features[1].title, 'Reject negative fee rates');
    assert.deepEqual(r.proposals, ['Q1']);
    assert.match(p.features[0].notes ?? '', /\[2026-03-01 10:15 done\] Fees round half-up now\.$/);
    assert.doesNotMatch(p.features[0].notes ?? '', /QUEUE/);
    // issue 18 item 2: the entry is in the feature's own commit, so it cannot hold that commit's sha
    // (the event log's session_end has it); the committed file is the file on disk: the tree is clean.
    assert.deepEqual(p.log.at(-1), { date: '2026-03-01 10:15', feature: 'F1', outcome: 'done', turns: 7, tokens: 12345, cost: 0.0123 });
    assert.match(git(s.root, 'show', `${r.commit}:kite-progress.json`), /"status": "done"/);
    assert.equal(git(s.root, 'status', '--porcelain', '--', 'kite-progress.json'), '');
  });

  it('not done: status and log entry are written, nothing is committed', () => {
    const s = setup();
    const head = gitHead(s.root);
    const r = finishFeature(input(s, { outcome: 'gate_failed', summary: 'the gate failed 3 times' }));
    assert.equal(r.commit, null);
    assert.equal(gitHead(s.root), head);
    const p = loadProgress(s.progressPath);
    assert.equal(p.features[0].status, 'gate_failed');
    assert.equal(p.log.at(-1)?.outcome, 'gate_failed');
    assert.equal(p.log.at(-1)?.commit, null);
  });

  it('a failed commit turns done into error with the reason', () => {
    const s = setup();
    // an index.lock makes git refuse to commit
    writeFileSync(join(s.root, '.git', 'index.lock'), '');
    const r = finishFeature(input(s));
    assert.equal(r.outcome, 'error');
    assert.match(r.error ?? '', /the gate passed but the commit failed: git commit failed/);
    assert.equal(loadProgress(s.progressPath).features[0].status, 'error');
  });

  const KEY = 'sk-ant-api03-finish-test-secret-0123456789';
  const env = { ANTHROPIC_API_KEY: KEY, FOO_TOKEN: 'foo-token-value-42', SSH_AUTH_SOCK: '/tmp/ssh-agent.sock', DEBUG: 'true' };

  it('a file holding a secret from the environment is never committed: outcome error naming file and variable, the work kept', () => {
    const s = setup();
    const head = gitHead(s.root);
    writeFileSync(join(s.root, 'src', 'fees.js'), 'module.exports = 1;\n');
    writeFileSync(join(s.root, 'leak.txt'), `key=${KEY}\n`);
    const r = finishFeature(input(s, { env }));
    assert.equal(r.outcome, 'error');
    assert.equal(r.commit, null);
    assert.equal(gitHead(s.root), head);
    assert.match(r.error ?? '', /nothing was committed because leak\.txt holds the value of ANTHROPIC_API_KEY; remove the secret/);
    // nothing lost, nothing left staged
    assert.equal(git(s.root, 'diff', '--cached', '--name-only'), '');
    assert.match(git(s.root, 'status', '--porcelain'), /\?\? leak\.txt/);
    assert.match(git(s.root, 'status', '--porcelain'), /\?\? src\/fees\.js/);
    const p = loadProgress(s.progressPath);
    assert.equal(p.features[0].status, 'error');
    assert.equal(p.log.at(-1)?.outcome, 'error');
  });

  it("the agent's closing words are redacted before they become notes or proposals; ordinary env values (paths, short flags) do not block a commit", () => {
    const s = setup();
    writeFileSync(join(s.root, 'src', 'fees.js'), '// socket at /tmp/ssh-agent.sock, DEBUG=true\n');
    const r = finishFeature(input(s, { env, summary: `Done. I used the key ${KEY} and foo-token-value-42.\nQUEUE: Rotate ${KEY}` }));
    assert.equal(r.outcome, 'done');
    assert.ok(r.commit);
    const committed = git(s.root, 'show', r.commit);
    assert.doesNotMatch(committed, /finish-test-secret|foo-token-value/);
    const p = loadProgress(s.progressPath);
    assert.match(p.features[0].notes ?? '', /I used the key \[ANTHROPIC_API_KEY redacted\] and \[FOO_TOKEN redacted\]\./);
    assert.equal(p.features.at(-1)?.title, 'Rotate [ANTHROPIC_API_KEY redacted]');
  });

  it('a progress file the agent broke is replaced by the copy from the start (nothing lost)', () => {
    const s = setup();
    writeFileSync(s.progressPath, '{ broken');
    const r = finishFeature(input(s, { outcome: 'stuck', summary: 'stuck' }));
    assert.equal(r.progress.features[0].status, 'stuck');
    assert.equal(loadProgress(s.progressPath).goal, s.start.goal);
  });
});
