// Kite's own git calls (the commit of a finished feature above all) against a repository an
// agent's command has tampered with: planted hooks, an fsmonitor, a filter driver, a `git` of its
// own on PATH. None of them runs, the commit still lands, and git never sees Kite's secrets.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { addGitSecretNames, addWorktree, commitAll, commitFiles, GitError, gitHead, isGitRepo } from '../../../src/harness/progress/git';
import { gitEnv, runGit } from '../../../src/harness/progress/runGit';
import { DEMO_SCRIPT, git, tempDir, tempRepo } from '../../unit/loop/kit';
import { buildDist, HOOKS, kiteCli, markerDir, markers, plantFilter, plantHooks } from './kit';

const KEY = 'sk-ant-api03-own-git-secret-0000000000';

/** Runs f with these variables set in Kite's own environment, then puts it back. */
function withEnv<T>(vars: Record<string, string>, f: () => T): T {
  const saved = Object.keys(vars).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, vars);
  try {
    return f();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe("Kite's own git calls (real git, a tampered repository)", function () {
  this.timeout(120_000);

  it('planted hooks and core.fsmonitor, which a plain `git commit` runs, do not run when Kite commits; the commit lands', () => {
    const plain = tempRepo({ 'a.txt': 'a\n' });
    plantHooks(plain);
    writeFileSync(join(plain, 'a.txt'), 'by hand\n');
    git(plain, 'commit', '-qam', 'plain git, for comparison');
    assert.deepEqual(markers(plain), [...HOOKS, 'fsmonitor'].sort(), 'the planted programs are real: plain git runs every one');

    const repo = tempRepo({ 'a.txt': 'a\n' });
    plantHooks(repo);
    writeFileSync(join(repo, 'a.txt'), 'by the agent\n');
    const sha = withEnv({ ANTHROPIC_API_KEY: KEY }, () => commitAll(repo, 'F1: change a'));
    assert.deepEqual(markers(repo), [], 'no hook and no fsmonitor ran');
    assert.equal(gitHead(repo), sha);
    assert.deepEqual(commitFiles(repo, sha), ['a.txt']);
    assert.equal(git(repo, 'log', '-1', '--pretty=%s'), 'F1: change a');
  });

  it('a hook that would dump its environment (with the API key) does not run, so nothing is dumped', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    plantHooks(repo, ['post-commit']);
    writeFileSync(join(repo, 'b.txt'), 'new\n');
    withEnv({ ANTHROPIC_API_KEY: KEY }, () => commitAll(repo, 'F2: add b'));
    assert.deepEqual(markers(repo), []);
    assert.deepEqual(commitFiles(repo, gitHead(repo) ?? ''), ['b.txt']);
  });

  it("a clean filter defined in the repository's config does not run; the file is committed as written", () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    plantFilter(repo);
    writeFileSync(join(repo, 'c.txt'), 'plain\n');
    git(repo, 'add', 'c.txt');
    assert.deepEqual(markers(repo), ['filter'], 'plain git add runs the planted filter');
    git(repo, 'reset', '-q');

    const fresh = tempRepo({ 'a.txt': 'a\n' });
    plantFilter(fresh);
    writeFileSync(join(fresh, 'c.txt'), 'exact bytes\n');
    const sha = commitAll(fresh, 'F3: add c');
    assert.deepEqual(markers(fresh), []);
    assert.equal(git(fresh, 'show', `${sha}:c.txt`), 'exact bytes');
  });

  it('a planted post-checkout hook, which plain `git worktree add` runs, does not run when Kite adds its worktree', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    plantHooks(repo, ['post-checkout']);
    git(repo, 'worktree', 'add', '-q', join(repo, '..', 'by-hand'));
    assert.deepEqual(markers(repo), ['fsmonitor', 'post-checkout'], 'plain git runs the planted programs');

    const fresh = tempRepo({ 'a.txt': 'a\n' });
    plantHooks(fresh, ['post-checkout']);
    const wt = addWorktree(fresh, 'F5');
    assert.deepEqual(markers(fresh), []);
    assert.equal(readFileSync(join(wt, 'a.txt'), 'utf8'), 'a\n');
  });

  it('a `git` planted inside the repository and put on PATH (node_modules/.bin) is not the git Kite runs', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
    git(repo, 'add', '.gitignore');
    git(repo, 'commit', '-qm', 'ignore node_modules');
    const bin = join(repo, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nenv > '${join(markerDir(repo), 'fake-git')}'\nexit 1\n`, { mode: 0o755 });
    writeFileSync(join(repo, 'd.txt'), 'd\n');
    const sha = withEnv({ PATH: `${bin}:node_modules/.bin:${process.env.PATH ?? ''}` }, () => commitAll(repo, 'F4: add d'));
    assert.deepEqual(markers(repo), []);
    assert.deepEqual(commitFiles(repo, sha), ['d.txt']);
  });

  it('a git too old to tell the repository\'s config from the person\'s is refused with the reason, not mistaken for "no repository"', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = join(tempDir(), 'old-git');
    mkdirSync(bin);
    // git 2.25 and older: `git config --show-scope` is an unknown option (exit 129).
    writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" --show-scope "*) echo "error: unknown option show-scope" >&2; exit 129;; esac\nexec '${real}' "$@"\n`, { mode: 0o755 });
    withEnv({ PATH: `${bin}:${process.env.PATH ?? ''}` }, () => {
      assert.throws(() => isGitRepo(repo), (e: unknown) => e instanceof GitError && e.code === 'git_failed' && /git 2\.26 or newer/.test(e.message));
    });
    assert.equal(isGitRepo(repo), true);
  });

  it('the programs git itself starts see no API key nor a secret the run named, and still see who commits', () => {
    const repo = tempRepo({ 'a.txt': 'a\n' });
    addGitSecretNames(['acme_license_id']);
    const vars = {
      ANTHROPIC_API_KEY: KEY,
      OPENAI_API_KEY: 'sk-openai-own-git-secret-000000000000',
      ACME_LICENSE_ID: 'plain-looking-value-4242',
      GIT_AUTHOR_NAME: 'Ada Person',
      GIT_COMMITTER_EMAIL: 'ada@example.invalid',
      GIT_DIR: join(repo, 'elsewhere'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: join(repo, '.git', 'hooks'),
    };
    // A shell alias prints the environment git hands to the programs it starts (hooks, filters).
    const seen = withEnv(vars, () => runGit(repo, ['-c', 'alias.showenv=!env', 'showenv']));
    const names = new Set(seen.split('\n').map((l) => l.split('=')[0]));
    for (const n of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ACME_LICENSE_ID', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0']) assert.ok(!names.has(n), `${n} reached git`);
    assert.doesNotMatch(seen, /own-git-secret|plain-looking-value/);
    assert.doesNotMatch(seen, /elsewhere/, 'GIT_DIR from the environment does not redirect Kite\'s git');
    assert.match(seen, /^GIT_AUTHOR_NAME=Ada Person$/m);
    assert.match(seen, /^GIT_COMMITTER_EMAIL=ada@example\.invalid$/m);
    assert.match(seen, /^GIT_TERMINAL_PROMPT=0$/m);
    assert.ok(names.has('HOME') && names.has('PATH'), 'HOME and PATH stay, so ~/.gitconfig still names the author');

    const env = gitEnv(repo, { ...vars, PATH: `/usr/bin:${repo}/node_modules/.bin:relative/bin`, HOME: '/home/ada' });
    assert.deepEqual(Object.keys(env).sort(), ['GIT_AUTHOR_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_TERMINAL_PROMPT', 'HOME', 'PATH']);
    assert.equal(env.PATH, '/usr/bin');
  });

  describe('kite run end to end (dist/cli.js) in a repository with a planted post-commit hook and fsmonitor', () => {
    let repo: string;
    let head: string;
    let result: ReturnType<typeof kiteCli>;
    before(() => {
      buildDist();
      repo = tempRepo();
      head = git(repo, 'rev-parse', 'HEAD');
      plantHooks(repo, ['post-commit', 'reference-transaction']);
      result = kiteCli(repo, ['run', '--unattended', '--model', `script:${DEMO_SCRIPT}`], { ANTHROPIC_API_KEY: KEY });
    });

    it('exits 0, the feature commit landed, and no planted program ran', () => {
      assert.equal(result.status, 0, `stderr: ${result.stderr}`);
      assert.equal(git(repo, 'rev-list', '--count', `${head}..HEAD`), '1');
      assert.equal(git(repo, 'log', '-1', '--pretty=%s'), 'F1: Fees round half-up');
      assert.deepEqual(markers(repo), []);
      assert.doesNotMatch(readFileSync(join(repo, 'kite-progress.json'), 'utf8'), /own-git-secret/);
    });
  });
});
