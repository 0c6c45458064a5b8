// A run (or a resume) that would commit refuses to start on a checkout where its commit would be
// wrong: a detached HEAD, or a merge, rebase, cherry-pick, revert or bisect in progress. Nothing
// is written; the message names the state and the way out. --worktree is the way around it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../../../src/harness/host';
import { resumeRun, ResumeError } from '../../../src/harness/resume';
import { RunError, runFeature } from '../../../src/harness/run';
import { DEMO_SCRIPT, git, tempRepo } from '../../unit/loop/kit';
import { makeProject } from '../resume/kit';
import { buildDist, gitStatus, kiteCli } from './kit';

const noOne: Host = { approve: () => Promise.reject(new Error('nobody is there to answer')) };

/** The sample project with a `notes.txt` that `main` and branch `other` change differently. */
function divergedRepo(): string {
  const repo = tempRepo();
  writeFileSync(join(repo, 'notes.txt'), 'base\n');
  git(repo, 'add', 'notes.txt');
  git(repo, 'commit', '-qm', 'notes');
  git(repo, 'switch', '-qc', 'other');
  writeFileSync(join(repo, 'notes.txt'), 'theirs\n');
  git(repo, 'commit', '-qam', 'theirs');
  git(repo, 'switch', '-q', 'main');
  writeFileSync(join(repo, 'notes.txt'), 'ours\n');
  git(repo, 'commit', '-qam', 'ours');
  return repo;
}

/** Each state as a person gets into it, and the words the refusal must use. */
const STATES: { name: string; make: () => string; says: RegExp }[] = [
  { name: 'a detached HEAD', make: () => withGit(tempRepo(), ['switch', '-q', '--detach', 'HEAD']), says: /HEAD is detached.*git switch <branch>.*--worktree/ },
  { name: 'a merge with a conflict', make: () => stopped(divergedRepo(), ['merge', '-q', 'other']), says: /a merge is in progress.*git merge --abort.*--worktree/ },
  { name: 'a rebase stopped on a conflict', make: () => stopped(divergedRepo(), ['rebase', '-q', 'other']), says: /a rebase is in progress.*git rebase --continue \/ --abort.*--worktree/ },
  { name: 'a cherry-pick stopped on a conflict', make: () => stopped(divergedRepo(), ['cherry-pick', 'other']), says: /a cherry-pick is in progress.*git cherry-pick --continue \/ --abort/ },
  { name: 'a revert stopped on a conflict', make: () => stopped(changedAgain(divergedRepo()), ['revert', '--no-edit', 'HEAD~1']), says: /a revert is in progress.*git revert --continue \/ --abort/ },
  { name: 'a bisect', make: () => withGit(tempRepo(), ['bisect', 'start']), says: /a bisect is in progress.*git bisect reset/ },
];

/** `notes.txt` changed once more on main, so reverting the commit before conflicts. */
function changedAgain(repo: string): string {
  writeFileSync(join(repo, 'notes.txt'), 'ours, later\n');
  return withGit(repo, ['commit', '-qam', 'later']);
}

function withGit(repo: string, args: string[]): string {
  git(repo, ...args);
  return repo;
}

function stopped(repo: string, args: string[]): string {
  assert.notEqual(gitStatus(repo, ...args), 0, `git ${args.join(' ')} was expected to stop on a conflict`);
  return repo;
}

describe('a run refuses a checkout where its commit would be wrong (real git)', function () {
  this.timeout(120_000);
  before(() => buildDist());

  for (const s of STATES) {
    it(`${s.name}: runFeature throws repo_state, writes nothing; kite run exits 2 with the reason on stderr`, async () => {
      const repo = s.make();
      const progress = readFileSync(join(repo, 'kite-progress.json'), 'utf8');
      const status = git(repo, 'status', '--porcelain');
      await assert.rejects(runFeature({ root: repo, mode: 'unattended', model: `script:${DEMO_SCRIPT}` }, noOne), (e: unknown) => {
        assert.ok(e instanceof RunError && e.code === 'repo_state', String(e));
        assert.match(e.message, s.says);
        return true;
      });
      const cli = kiteCli(repo, ['run', '--unattended', '--model', `script:${DEMO_SCRIPT}`]);
      assert.equal(cli.status, 2, cli.stderr);
      assert.match(cli.stderr, s.says);
      assert.equal(readFileSync(join(repo, 'kite-progress.json'), 'utf8'), progress, 'the progress file is untouched');
      assert.equal(git(repo, 'status', '--porcelain'), status, 'the work tree is as it was');
    });
  }

  it('with --worktree a detached HEAD is not refused: the run gets its own branch', async () => {
    const repo = withGit(tempRepo(), ['switch', '-q', '--detach', 'HEAD']);
    try {
      await runFeature({ root: repo, mode: 'unattended', model: `script:${DEMO_SCRIPT}`, worktree: true }, noOne);
    } catch (e) {
      assert.ok(!(e instanceof RunError && e.code === 'repo_state'), `refused: ${String(e)}`);
    }
    assert.match(git(repo, 'worktree', 'list'), /\[kite\/F1\]/);
  });

  it('kite resume of a paused run refuses a HEAD detached since, and leaves the log as it was', async () => {
    const p = makeProject({ askCommands: true });
    const s = await runFeature({ root: p.repo, mode: 'attended', model: `script:${p.script}` }, noOne);
    assert.equal(s.paused, true);
    git(p.repo, 'switch', '-q', '--detach', 'HEAD');
    const log = readFileSync(s.logPath, 'utf8');
    await assert.rejects(resumeRun({ log: s.logPath }, noOne), (e: unknown) => e instanceof ResumeError && e.code === 'repo_state' && /HEAD is detached/.test(e.message));
    assert.equal(readFileSync(s.logPath, 'utf8'), log);
  });
});
