// Helpers for the tests of Kite's own git calls: what an agent's command could plant in a
// repository (hooks, an fsmonitor, a filter driver), the markers those would leave, the built CLI.
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Hooks git runs during add/commit (pre-commit and commit-msg only without --no-verify). */
export const HOOKS = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'reference-transaction', 'post-index-change'];

/** Where planted programs leave their marks: next to the repository, outside its work tree. */
export function markerDir(repo: string): string {
  const d = join(dirname(repo), 'markers');
  mkdirSync(d, { recursive: true });
  return d;
}

export function markers(repo: string): string[] {
  return readdirSync(markerDir(repo)).sort();
}

function script(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Every hook in HOOKS writes a marker (and its environment); core.fsmonitor names a script that does too. */
export function plantHooks(repo: string, hooks: readonly string[] = HOOKS): void {
  const m = markerDir(repo);
  for (const h of hooks) script(join(repo, '.git', 'hooks', h), `env > '${join(m, h)}'`);
  const fsmonitor = join(repo, '.git', 'fsmonitor.sh');
  script(fsmonitor, `env > '${join(m, 'fsmonitor')}'\nexit 1`);
  git(repo, 'config', 'core.fsmonitor', fsmonitor);
}

/** A clean filter for every file, defined in the repository's config (what `git add` runs). */
export function plantFilter(repo: string): void {
  const clean = join(repo, '.git', 'clean.sh');
  script(clean, `env > '${join(markerDir(repo), 'filter')}'\ncat`);
  writeFileSync(join(repo, '.git', 'info', 'attributes'), '* filter=planted\n');
  git(repo, 'config', 'filter.planted.clean', clean);
}

let built = false;

/** dist/cli.js from the current source, built once per process (as test/system/cli/kiteRunE2e.test.ts does). */
export function buildDist(): void {
  if (built) return;
  const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `build failed: ${r.stderr}`);
  built = true;
}

export function kiteCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A git command expected to stop on a conflict: its exit code, not an exception. */
export function gitStatus(repo: string, ...args: string[]): number | null {
  return spawnSync('git', args, { cwd: repo, stdio: 'ignore' }).status;
}
