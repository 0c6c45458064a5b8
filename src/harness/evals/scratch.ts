// The scratch workspace a case runs in, never the person's own tree: a fresh repository made from
// a bundled folder or a git bundle, or a linked worktree (on its own throwaway branch) at a commit
// of a repository. The case's feature, checks and config are committed on top, so the run starts
// from a clean tree like any `kite run`. All git goes through Kite's own git (no hooks run).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CONFIG_FILE } from '../config/config';
import { parseJsonWithComments } from '../config/jsonText';
import { PROGRESS_FILE } from '../progress/progressFile';
import { runGit } from '../progress/runGit';
import type { EvalCase } from './evalCase';
import { SuiteError } from './evalCase';

export interface Scratch {
  root: string; // the workspace the run works in
  startCommit: string; // after the case's setup commit: what "changed" is measured against
  remove(): void;
}

const IDENTITY = ['-c', 'user.name=Kite Eval', '-c', 'user.email=eval@kite.invalid'];

function gitError(e: unknown): string {
  return ((e as { stderr?: string }).stderr ?? '').trim() || (e as Error).message;
}

function caseGit(c: EvalCase, cwd: string, args: string[], what: string): string {
  try {
    return runGit(cwd, args).trim();
  } catch (e) {
    throw new SuiteError('bad_case', `${c.file}: $.start: ${what} failed: ${gitError(e)}`);
  }
}

export function makeScratch(c: EvalCase): Scratch {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'kite-eval-')));
  const root = join(tmp, c.name);
  const start = c.spec.start;
  let cleanupGit = () => undefined as void;
  try {
    if ('folder' in start) {
      const from = resolve(c.dir, start.folder);
      if (!existsSync(from)) throw new SuiteError('bad_case', `${c.file}: $.start.folder: no such folder ${from}`);
      // The project's files only: never its git data or old run logs.
      cpSync(from, root, { recursive: true, filter: (src) => !/[/\\](\.git|\.kite[/\\]runs)$/.test(src) });
      caseGit(c, root, ['init', '-q', '-b', 'kite-eval'], 'git init');
      localIdentity(c, root);
    } else if ('bundle' in start) {
      const bundle = resolve(c.dir, start.bundle);
      if (!existsSync(bundle)) throw new SuiteError('bad_case', `${c.file}: $.start.bundle: no such file ${bundle}`);
      caseGit(c, tmp, ['clone', '-q', '--no-checkout', bundle, root], 'git clone of the bundle');
      caseGit(c, root, ['checkout', '-q', '-b', 'kite-eval', start.ref ?? 'HEAD'], `checkout of ${start.ref ?? 'HEAD'}`);
      localIdentity(c, root);
    } else {
      const repo = caseGit(c, resolve(c.dir, start.repo ?? '.'), ['rev-parse', '--show-toplevel'], 'finding the repository');
      const branch = `kite-eval/${c.name.replace(/[^\w.-]/g, '_')}-${tmp.slice(-6)}`;
      caseGit(c, repo, ['worktree', 'add', '-q', '-b', branch, root, start.commit], `git worktree add at ${start.commit}`);
      cleanupGit = () => {
        for (const args of [['worktree', 'remove', '--force', root], ['branch', '-D', branch]]) {
          try {
            runGit(repo, args);
          } catch {
            // `git worktree prune` clears a leftover; the branch is named kite-eval/…
          }
        }
      };
    }
    writeCaseFiles(c, root);
    caseGit(c, root, ['add', '-A'], 'git add');
    caseGit(c, root, [...IDENTITY, 'commit', '-q', '--allow-empty', '--no-verify', '-m', `kite eval: ${c.name}`], 'the setup commit');
    const startCommit = caseGit(c, root, ['rev-parse', 'HEAD'], 'rev-parse');
    return {
      root,
      startCommit,
      remove: () => {
        cleanupGit();
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    cleanupGit();
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** A fresh repository commits as "Kite Eval" unless the project names someone. */
function localIdentity(c: EvalCase, root: string): void {
  caseGit(c, root, ['config', 'user.name', 'Kite Eval'], 'git config');
  caseGit(c, root, ['config', 'user.email', 'eval@kite.invalid'], 'git config');
}

function readJson(c: EvalCase, path: string, label: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const json = parseJsonWithComments(readFileSync(path, 'utf8'));
  if (!json.ok || json.value === null || typeof json.value !== 'object' || Array.isArray(json.value)) {
    throw new SuiteError('bad_case', `${c.file}: $.start: the starting state's ${label} is not a JSON object`);
  }
  return json.value as Record<string, unknown>;
}

/** The progress file holds just the case's feature (todo); the config gets the case's checks and config. */
function writeCaseFiles(c: EvalCase, root: string): void {
  const s = c.spec;
  const progressPath = join(root, PROGRESS_FILE);
  const progress = readJson(c, progressPath, PROGRESS_FILE);
  const goal = typeof progress.goal === 'string' ? progress.goal : (s.goal ?? s.description ?? c.name);
  const judges = s.feature.judges?.map((j) => (j.model ? { ...j, model: caseScriptSpec(c, j.model) } : j));
  const feature = { ...s.feature, ...(judges ? { judges } : {}), status: 'todo' };
  writeFileSync(progressPath, JSON.stringify({ ...progress, goal, log: [], features: [feature] }, null, 2) + '\n');
  if (s.checks === undefined && s.config === undefined) return;
  const configPath = join(root, CONFIG_FILE);
  const checks = s.checks?.map((x) => (typeof x === 'string' || !x.model ? x : { ...x, model: caseScriptSpec(c, x.model) }));
  const config = { ...readJson(c, configPath, CONFIG_FILE), ...s.config, ...(checks !== undefined ? { checks } : {}) };
  mkdirSync(dirname(configPath), { recursive: true });
  writeFileSync(configPath, JSON.stringify(config, null, 2) + '\n');
}

/** A judge's relative script: file is the case's own (outside the scratch, so the agent cannot rewrite its judge). */
function caseScriptSpec(c: EvalCase, spec: string): string {
  const m = /^script:(.+)$/.exec(spec);
  return m && !isAbsolute(m[1]) ? `script:${resolve(c.dir, m[1])}` : spec;
}
