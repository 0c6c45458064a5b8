// Where a workspace keeps its run logs (`log_dir` in .kite/config.json, default .kite/runs) and
// which logs a command means: a run id, a log path, or a folder (`kite cost [DIR|LOG…]`). Every
// reader of the log folder (CLI, harness server, Runs view, timeline, debugger) asks here.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { KiteConfig } from '../config/config';
import { LogReadError } from './reader';
import { compareRunLogNames } from './runLogOrder';

/**
 * The config module, loaded when a path needs the configured log folder: its zod schemas cost
 * ~20 ms to build, and `kite timeline <file>` never needs them (issue 17).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const configModule = (): typeof import('../config/config') => require('../config/config');

/** The absolute log folder of the workspace at `root` (throws ConfigError for a bad config). */
export function workspaceLogDir(root: string, config: KiteConfig = configModule().loadConfig(root)): string {
  return resolve(root, config.log_dir);
}

function sameDir(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * The workspace a log belongs to: the nearest folder above it whose configured log folder holds
 * it (undefined when none does, e.g. a log copied elsewhere). A folder with a bad config is skipped.
 */
export function workspaceOfLog(log: string): string | undefined {
  const dir = dirname(resolve(log));
  for (let root = dirname(dir); ; root = dirname(root)) {
    try {
      if (sameDir(workspaceLogDir(root), dir)) return root;
    } catch (e) {
      if (!(e instanceof configModule().ConfigError)) throw e;
    }
    if (dirname(root) === root) return undefined;
  }
}

/** A run id is looked up in the log folder of the workspace at `root`; a path is relative to `cwd`. */
export function resolveRunLog(arg: string, root: string, cwd = root): string {
  if (arg.endsWith('.jsonl') || isAbsolute(arg) || arg.includes('/')) return resolve(cwd, arg);
  const p = resolve(workspaceLogDir(root), `${arg}.jsonl`);
  return existsSync(p) ? p : resolve(cwd, arg);
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/** A folder means its workspace's log folder when it has one, else the *.jsonl files directly in it. */
export function findLogs(args: readonly string[], cwd = process.cwd()): string[] {
  const targets = args.length ? args : ['.'];
  const out: string[] = [];
  for (const a of targets) {
    const p = resolve(cwd, a);
    if (!existsSync(p)) throw new LogReadError('not_found', `no such log or folder: ${p}`, p);
    if (statSync(p).isDirectory()) {
      const logs = workspaceLogDir(p);
      const dir = isDir(logs) ? logs : p;
      out.push(
        ...readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .sort(compareRunLogNames)
          .map((f) => resolve(dir, f)),
      );
    } else out.push(p);
  }
  return [...new Set(out)];
}
