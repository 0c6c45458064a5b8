// Does a command the person is asked about run a script this run changed? `npm run lint` reads as
// harmless while the run rewrote package.json's `lint` (issue 13, item 17). Finds what the command
// runs — package.json scripts (npm/yarn/pnpm/bun, with their pre/post hooks), the Makefile of
// `make`, a script file in the workspace (`./x.sh`, `bash x.sh`) — and compares it with the run's
// starting commit (session_start's git_head). Best effort and never throws: a command it cannot
// read is shown as it is, like any other.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { runGit } from '../progress/runGit';
import type { ScriptChange } from '../protocol/rpc';

export type { ScriptChange };

/** The starting commit of the run whose state this is (RunState.meta.git_head), else null. */
export function runBase(state: object): string | null {
  const meta = (state as { meta?: { git_head?: string | null } | null }).meta;
  return meta?.git_head ?? null;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'source', '.']);
const PACKAGE_RUNNERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
/** npm's own commands that run the script of the same name. */
const NPM_SCRIPT_COMMANDS = new Set(['test', 't', 'tst', 'start', 'stop', 'restart']);
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

type Runs = { kind: 'script'; name: string } | { kind: 'make' } | { kind: 'file'; path: string };

/** Words of one simple command, quotes removed (no expansion: a guess, not a shell). */
function words(segment: string): string[] {
  return (segment.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^(["'])(.*)\1$/, '$2'));
}

/** What each simple command of `command` runs, as far as it names a script. */
export function scriptsRun(command: string): Runs[] {
  const found: Runs[] = [];
  for (const segment of command.split(/&&|\|\||[;|&\n]/)) {
    const w = words(segment).filter((x) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(x)); // VAR=x prefixes
    const [cmd, ...rest] = w;
    if (!cmd) continue;
    const args = rest.filter((x) => !x.startsWith('-'));
    if (PACKAGE_RUNNERS.has(cmd)) {
      const [sub, name] = args;
      if (sub === 'run' || sub === 'run-script') {
        if (name) found.push({ kind: 'script', name });
      } else if (sub && (cmd !== 'npm' || NPM_SCRIPT_COMMANDS.has(sub))) {
        found.push({ kind: 'script', name: sub === 't' || sub === 'tst' ? 'test' : sub }); // `yarn lint`, `npm test`
      } else if (!sub && cmd !== 'npm' && cmd !== 'bun') {
        found.push({ kind: 'script', name: 'install' }); // bare yarn / pnpm installs, running install hooks
      }
    } else if (cmd === 'make' || cmd === 'gmake') {
      found.push({ kind: 'make' });
    } else if (SHELLS.has(cmd) && args[0]) {
      found.push({ kind: 'file', path: args[0] });
    } else if (cmd.includes('/')) {
      found.push({ kind: 'file', path: cmd }); // ./x.sh, scripts/build
    }
  }
  return found;
}

function atBase(root: string, base: string, rel: string): string | null {
  try {
    return runGit(root, ['show', `${base}:./${rel.split('\\').join('/')}`]);
  } catch {
    return null; // not in the starting commit
  }
}

function now(root: string, rel: string): string | null {
  const abs = join(root, rel);
  try {
    return existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  } catch {
    return null;
  }
}

function scriptsOf(json: string | null): Record<string, unknown> {
  try {
    const scripts = (JSON.parse(json ?? '{}') as { scripts?: unknown }).scripts;
    return scripts && typeof scripts === 'object' ? (scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function patch(rel: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before ?? '', after ?? '', before === null ? '(not in the starting commit)' : '', after === null ? '(deleted)' : '');
}

function packageScriptChanges(root: string, base: string, name: string): ScriptChange[] {
  const before = scriptsOf(atBase(root, base, 'package.json'));
  const after = scriptsOf(now(root, 'package.json'));
  const changes: ScriptChange[] = [];
  for (const n of [`pre${name}`, name, `post${name}`]) {
    const [b, a] = [before[n], after[n]];
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    const line = (v: unknown) => (v === undefined ? null : `"${n}": ${JSON.stringify(v)}\n`);
    changes.push({ file: 'package.json', script: n, diff: patch('package.json', line(b), line(a)) });
  }
  return changes;
}

function fileChange(root: string, base: string, rel: string, script: string | null): ScriptChange[] {
  const [b, a] = [atBase(root, base, rel), now(root, rel)];
  return b === a ? [] : [{ file: rel, script, diff: patch(rel, b, a) }];
}

/**
 * The scripts `command` runs that differ from the run's starting commit `base`, each with its
 * diff; [] when there is no base, nothing it runs changed, or it cannot tell.
 */
export function changedScripts(command: string, root: string, base: string | null): ScriptChange[] {
  if (!base) return [];
  try {
    const seen = new Set<string>();
    const out: ScriptChange[] = [];
    for (const r of scriptsRun(command)) {
      let changes: ScriptChange[] = [];
      if (r.kind === 'script') changes = packageScriptChanges(root, base, r.name);
      else if (r.kind === 'make') {
        const makefile = MAKEFILES.find((m) => existsSync(join(root, m)) || atBase(root, base, m) !== null);
        if (makefile) changes = fileChange(root, base, makefile, null);
      } else {
        const abs = resolve(root, r.path);
        const rel = relative(root, abs);
        if (rel && !rel.startsWith('..') && !isAbsolute(rel)) changes = fileChange(root, base, rel, null);
      }
      for (const c of changes) {
        const key = `${c.file}\0${c.script ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(c);
      }
    }
    return out;
  } catch {
    return [];
  }
}

/** The request's `scriptChanges` field: present only when something changed (older hosts see no new key). */
export function scriptChangesField(command: string | null, root: string, base: string | null): { scriptChanges?: ScriptChange[] } {
  const changes = command ? changedScripts(command, root, base) : [];
  return changes.length ? { scriptChanges: changes } : {};
}
