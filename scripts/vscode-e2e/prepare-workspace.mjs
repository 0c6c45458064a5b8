#!/usr/bin/env node
// Makes DIR a scratch copy of the sample project (test/fixtures/sample, or an empty folder while it
// does not exist) with `git init` and one commit, so Kite can run, diff and commit there without
// touching this repository. Used by run.sh (every stage), the F5 launch configs and runDesktop.ts.
//   node scripts/vscode-e2e/prepare-workspace.mjs DIR            create DIR if it does not exist yet
//   node scripts/vscode-e2e/prepare-workspace.mjs DIR --fresh    always start over
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = new URL('../..', import.meta.url).pathname;
const [dirArg, ...flags] = process.argv.slice(2);
if (!dirArg) {
  console.error('usage: prepare-workspace.mjs DIR [--fresh]');
  process.exit(64);
}
const dir = resolve(dirArg);
const fresh = flags.includes('--fresh');

if (existsSync(join(dir, '.git')) && !fresh) {
  console.log(dir);
  process.exit(0);
}
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const sample = join(repo, 'test/fixtures/sample');
if (existsSync(sample)) cpSync(sample, dir, { recursive: true });
// Identity and signing pinned here: the user's global git config must not change the fixture's history.
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=Kite Tests', '-c', 'user.email=tests@kite.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
git('init', '-q');
git('add', '-A');
git('commit', '-q', '--allow-empty', '-m', 'sample project');
console.log(dir);
