// Protected files: what an agent could rewrite to make a broken feature look done (the files that
// define the checks), to steer the next run (AGENTS.md, CLAUDE.md) or to reach beyond the run (CI,
// lockfiles). Writes to them ask (attended) or are refused (unattended) with rule
// "protect:<pattern>"; commands see the existing ones read-only; the gate reports any that changed.
// package.json is protected as a whole file (its `scripts` define `npm test`).
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { matchGlob } from '../tools/glob';

/** Kite's own files and the instructions the next run's briefing would present. */
const HARNESS_AND_INSTRUCTIONS = ['/.kite/**', '/kite-progress.json', 'AGENTS.md', 'CLAUDE.md'];

/** Files that decide what the gate's commands do, or what runs after the run (CI, dependencies). */
export const GATE_DEFINING_GLOBS = [
  // CI
  '/.github/workflows/**',
  '/.gitlab-ci.yml',
  '/.circleci/**',
  '/azure-pipelines.yml',
  '/.travis.yml',
  '/Jenkinsfile',
  '/.buildkite/**',
  // lockfiles
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'Gemfile.lock',
  'composer.lock',
  'go.sum',
  // what the checks run
  'package.json',
  'Makefile',
  'GNUmakefile',
  'justfile',
  'Taskfile.yml',
  '.mocharc*',
  'jest.config.*',
  'vitest.config.*',
  'vitest.workspace.*',
  'karma.conf.*',
  'playwright.config.*',
  'cypress.config.*',
  'pytest.ini',
  'tox.ini',
  'noxfile.py',
  'setup.cfg',
  'pyproject.toml',
  'conftest.py',
  'phpunit.xml*',
];

export const DEFAULT_PROTECT = [...HARNESS_AND_INSTRUCTIONS, ...GATE_DEFINING_GLOBS];

/** What a run protects: the patterns, the verify files named by the feature, what it may change. */
export interface Protection {
  patterns: readonly string[]; // DEFAULT_PROTECT + policy.protect
  verifyFiles: readonly string[]; // workspace-relative files named in the verify command
  mayChange: readonly string[]; // features[].may_change: globs that lift protection for this feature
}

function norm(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** The pattern that protects `relPath`, or null (a may_change glob lifts every pattern). */
export function protectingPattern(relPath: string, p: Protection): string | null {
  const rel = norm(relPath);
  if (p.mayChange.some((g) => matchGlob(g, rel) || norm(g) === rel)) return null;
  if (p.verifyFiles.includes(rel)) return rel;
  return p.patterns.find((g) => matchGlob(g, rel)) ?? null;
}

/** Whether a changed file is one the gate is defined by (Kite's own files and AGENTS.md are not). */
export function isGateDefining(relPath: string, p: Protection): boolean {
  const rel = norm(relPath);
  if (HARNESS_AND_INSTRUCTIONS.some((g) => matchGlob(g, rel))) return false;
  return protectingPattern(rel, p) !== null;
}

/** Words of the verify command that name an existing file inside the workspace ("node --test test/x.test.js"). */
export function verifyFilesOf(root: string, verify: string | null): string[] {
  if (!verify) return [];
  const out: string[] = [];
  for (const word of verify.split(/\s+/)) {
    const w = word.replace(/^['"]|['"]$/g, '');
    if (!w || w.startsWith('-') || !/[./]/.test(w)) continue;
    const abs = resolve(root, w);
    const rel = relative(root, abs);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) continue;
    try {
      if (lstatSync(abs).isFile()) out.push(norm(rel));
    } catch {
      // not a file: an argument, not a path
    }
  }
  return out;
}

/**
 * The protected files that exist now, workspace-relative, for the sandbox's read-only binds. Only
 * the root and the literal folders of the patterns are looked at (a bind needs an existing path;
 * files created later are caught by the gate's changed-files check instead).
 */
export function existingProtected(root: string, p: Protection): string[] {
  const out = new Set<string>(p.verifyFiles.filter((f) => existsSync(join(root, f))));
  let top: string[] = [];
  try {
    top = readdirSync(root);
  } catch {
    return [...out];
  }
  for (const name of top) if (protectingPattern(name, p) !== null) out.add(name);
  for (const g of p.patterns) {
    const m = /^\/?([\w.-]+(?:\/[\w.-]+)*)\/\*\*$/.exec(g); // "/.github/workflows/**": the folder itself
    if (m && existsSync(join(root, m[1])) && protectingPattern(`${m[1]}/x`, p) !== null) out.add(m[1]);
  }
  // Kite's own files are protected by the sandbox already.
  return [...out].filter((f) => f !== '.kite' && f !== 'kite-progress.json' && !f.startsWith('.kite/'));
}

/** The protection of one feature's run: the built-in list plus policy.protect, its verify files and may_change. */
export function protectionOf(root: string, extra: readonly string[] | undefined, feature: { verify?: string | null; may_change?: string[] }): Protection {
  const verify = feature.verify?.trim() ? feature.verify.trim() : null;
  return { patterns: [...DEFAULT_PROTECT, ...(extra ?? [])], verifyFiles: verifyFilesOf(root, verify), mayChange: feature.may_change ?? [] };
}
