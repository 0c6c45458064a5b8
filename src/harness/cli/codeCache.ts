// Starts the `kite` bundle through a V8 code cache: compiling the ~2 MB bundle is ~0.15 s of every
// start (issue 17), and Node 20 has no module.enableCompileCache. The cache lives in a private
// per-user folder (never the workspace), one file per bundle content, written after the first run.
// V8 itself only checks a cache's version, flags and source *length*, and in release builds not
// its payload's checksum — so nothing is handed to V8 unless: the file name is the sha256 of this
// exact bundle (+ Node version and arch), the folder and file are ours and private (owner = us, no
// group/other access, no symlinks), and the payload's own sha256 matches. Anything else is ignored
// and rewritten; a cache V8 still rejects is rewritten too. KITE_CODE_CACHE=off turns it off.
// Every update of Kite leaves a set of caches (~2 MB a command) behind, so writing one removes
// ours that no start has used for CACHE_UNUSED_DAYS; a cache in use is touched once a day.
// Node builtins only: this file is the whole of dist/cli.js.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, lutimesSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import * as vm from 'node:vm';

const MAGIC = 'kite-v8-code-cache 1\n';
const DIGEST_HEX = 64;
const DAY_MS = 86_400_000;
/** A cache no start has used for this long is removed the next time a cache is written. */
export const CACHE_UNUSED_DAYS = 30;
/** A temp file this old was left by a write that died (a live write takes milliseconds). */
const TMP_STALE_MS = 3_600_000;
/** Our file names, and nothing else in the folder is ever removed: caches and their temp files. */
const CACHE_NAME = /^cli-[0-9a-f]{40}-[a-z0-9_-]{1,31}\.bin$/;
const TMP_NAME = /^cli-[0-9a-f]{40}-[a-z0-9_-]{1,31}\.bin\.\d+\.tmp$/;

/** The private folder for code caches, or null when there is none to use (off, no uid). */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.KITE_CODE_CACHE === 'off' || typeof process.getuid !== 'function') return null;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'kite', 'v8');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.cache', 'kite', 'v8');
  return join(tmpdir(), `kite-v8-${process.getuid()}`);
}

/** True when `st` belongs to this user and no one else may read or write it. */
function isPrivate(st: { uid: number; mode: number }): boolean {
  return st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
}

/** The folder, created 0700 when missing; null when it is not a private folder of ours (e.g. planted). */
function privateDir(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && isPrivate(st) ? dir : null;
  } catch {
    return null;
  }
}

/**
 * The cache file for this bundle's exact content on this Node, one per command: a cache holds the
 * functions the run that wrote it compiled, so `kite timeline` from a cache `kite --version` wrote
 * still compiled its reader each time (~90 ms CPU of a 100k-event timeline, issue 17).
 */
export function codeCacheFile(dir: string, source: string, command: string): string {
  const key = createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex');
  return join(dir, `cli-${key.slice(0, 40)}-${command}.bin`);
}

/** The subcommand a cache is for (`timeline`), or `_` for anything else (flags, none, odd words). */
export function commandOf(argv: readonly string[]): string {
  const word = argv[2] ?? '';
  return /^[a-z][a-z0-9-]{0,30}$/.test(word) ? word : '_';
}

/** The payload of a cache file we wrote, or null (missing, not ours, not private, corrupt). */
export function readCodeCache(file: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || !isPrivate(st)) return null;
    const all = readFileSync(fd);
    const head = MAGIC.length + DIGEST_HEX + 1;
    if (all.length <= head || all.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
    const payload = all.subarray(head);
    const digest = all.toString('latin1', MAGIC.length, MAGIC.length + DIGEST_HEX);
    return createHash('sha256').update(payload).digest('hex') === digest ? payload : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Writes the cache atomically (a private temp file renamed over it); a failure only costs speed. */
export function writeCodeCache(file: string, payload: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${MAGIC}${createHash('sha256').update(payload).digest('hex')}\n`);
      writeSync(fd, payload);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    pruneCodeCaches(dirname(file), file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * Removes the caches in `dir` no start has used for CACHE_UNUSED_DAYS (the sets older versions of
 * Kite left) and temp files of writes that died, except `keep`. Only regular files of ours with our
 * names: a link, someone else's file or any other name stays. Returns how many it removed.
 */
export function pruneCodeCaches(dir: string, keep: string | null, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const isCache = CACHE_NAME.test(name);
    if (!isCache && !TMP_NAME.test(name)) continue;
    const path = join(dir, name);
    if (path === keep) continue;
    try {
      const st = lstatSync(path);
      if (!st.isFile() || st.uid !== process.getuid?.()) continue;
      if (now - st.mtimeMs < (isCache ? CACHE_UNUSED_DAYS * DAY_MS : TMP_STALE_MS)) continue;
      unlinkSync(path);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove: either way nothing to do
    }
  }
  return removed;
}

/** Marks a cache a start used, at most once a day (its mtime), so pruning keeps it. */
export function markCodeCacheUsed(file: string, now = Date.now()): void {
  try {
    if (now - lstatSync(file).mtimeMs < DAY_MS) return;
    const t = now / 1000;
    lutimesSync(file, t, t);
  } catch {
    // a cache we cannot touch is only pruned earlier
  }
}

export interface CodeCacheRun {
  /** The file used, or null when caching is off or the folder is not private. */
  file: string | null;
  /** V8 took the cache: the bundle was not compiled again. */
  accepted: boolean;
}

interface CompiledBundle {
  script: vm.Script;
  file: string | null;
  accepted: boolean;
}

/** The bundle compiled from its code cache when there is a good one (`name`: which cache of it). */
function compileBundle(bundle: string, name: string, env: NodeJS.ProcessEnv): CompiledBundle {
  const source = readFileSync(bundle, 'utf8');
  const dirPath = codeCacheDir(env);
  const dir = dirPath === null ? null : privateDir(dirPath);
  const file = dir === null ? null : codeCacheFile(dir, source, name);
  const cached = file === null ? null : readCodeCache(file);
  // The CommonJS wrapper on the bundle's first line, so line numbers in stack traces stay right.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: bundle,
    ...(cached ? { cachedData: cached } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const accepted = cached !== null && script.cachedDataRejected === false;
  if (accepted && file !== null) markCodeCacheUsed(file);
  return { script, file, accepted };
}

/** Runs the compiled bundle as a CommonJS module; returns its exports. */
function runBundle(bundle: string, script: vm.Script): unknown {
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false, children: [], paths: [] as string[] };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/** Runs a CommonJS bundle like `node bundle` would, from the code cache when there is a good one. */
export function runWithCodeCache(bundle: string, env: NodeJS.ProcessEnv = process.env): CodeCacheRun {
  const { script, file, accepted } = compileBundle(bundle, commandOf(process.argv), env);
  // Made at exit, so the functions this run compiled are in it (the next start skips those too).
  if (file !== null && !accepted) process.once('exit', () => writeCodeCache(file, script.createCachedData()));
  runBundle(bundle, script);
  return { file, accepted };
}

/**
 * Loads a CommonJS bundle like `require(bundle)`, from its code cache `name` when there is a good
 * one: the extension's activation (VS Code waits for it). A process that lives on (the extension
 * host) writes the cache when `schedule` calls the write it is given — once activation has compiled
 * what it runs, at a moment the write (~40 ms of the loop) disturbs nothing — or at exit if that
 * comes first; `require` inside the bundle is the bundle's own, as VS Code expects of an
 * extension's modules (it finds the extension by the requiring file's path).
 */
export function requireWithCodeCache(bundle: string, name: string, schedule: (write: () => void) => void, env: NodeJS.ProcessEnv = process.env): { exports: unknown; run: CodeCacheRun } {
  const { script, file, accepted } = compileBundle(bundle, name, env);
  if (file !== null && !accepted) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      writeCodeCache(file, script.createCachedData());
    };
    schedule(write);
    process.once('exit', write);
  }
  return { exports: runBundle(bundle, script), run: { file, accepted } };
}
