// `kite` as shipped: dist/cli.js, the launcher, running dist/cliMain.js. 1) It starts from a V8 code cache
// in a private per-user folder. The cache must never change what kite does: the first run writes
// it, later runs use it without rewriting, and a corrupt, foreign or planted cache — or a folder
// others can write — is ignored (and a bad file replaced), with the same output every time.
// 2) `kite timeline` on two threads (a worker in the bundle) prints exactly what one thread prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { readCodeCache } from '../../../src/harness/cli/codeCache';
import { writeLargeLog } from '../../helpers/largeLog';
import { tempDir } from '../../unit/loop/kit';

const ROOT = join(__dirname, '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'logs', 'demo-run.jsonl');

async function buildShipped(out: string): Promise<string> {
  const node: esbuild.BuildOptions = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], outdir: out, logLevel: 'error' };
  await esbuild.build({ ...node, entryPoints: { cli: join(ROOT, 'src/harness/cliLauncher.ts') } });
  await esbuild.build({ ...node, entryPoints: { cliMain: join(ROOT, 'src/harness/cli.ts') } });
  return join(out, 'cli.js');
}

describe('kite starts from a V8 code cache', function () {
  this.timeout(180_000);
  let cli: string;
  let want: string;
  before(async () => {
    cli = await buildShipped(tempDir('kite-cc-build-'));
    const r = spawnSync(process.execPath, [cli, 'timeline', FIXTURE], { encoding: 'utf8', env: { ...process.env, KITE_CODE_CACHE: 'off' } });
    assert.equal(r.status, 0, r.stderr);
    want = r.stdout;
    assert.match(want, /F4: done in 8 turns/);
  });

  const timeline = (xdg: string) => {
    const r = spawnSync(process.execPath, [cli, 'timeline', FIXTURE], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, want);
    assert.equal(r.stderr, '');
  };
  const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : []);

  it('the first run writes a private cache; the next runs use it as it is', () => {
    const xdg = tempDir('kite-cc-');
    const dir = join(xdg, 'kite', 'v8');
    timeline(xdg);
    const [file] = cacheFiles(dir);
    assert.ok(file, 'a cache file was written');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, file)).mode & 0o777, 0o600);
    assert.ok(readCodeCache(join(dir, file)), 'the file is a cache kite accepts');
    const before = statSync(join(dir, file));
    timeline(xdg);
    timeline(xdg);
    const after = statSync(join(dir, file));
    assert.equal(after.ino, before.ino, 'an accepted cache is not rewritten');
    assert.equal(after.mtimeMs, before.mtimeMs);
    const v = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg } });
    assert.equal(v.stdout.trim(), '0.1.0');
  });

  it('each command has a cache of its own (what the run that wrote it compiled), each used as it is by its command', () => {
    const xdg = tempDir('kite-cc-');
    const dir = join(xdg, 'kite', 'v8');
    const version = () => spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg } }).stdout.trim();
    assert.equal(version(), '0.1.0');
    timeline(xdg);
    const files = cacheFiles(dir).sort();
    assert.equal(files.length, 2, files.join(', '));
    assert.ok(files.some((f) => f.endsWith('-timeline.bin')) && files.some((f) => f.endsWith('-_.bin')), files.join(', '));
    const sizes = Object.fromEntries(files.map((f) => [f, statSync(join(dir, f)).size]));
    assert.ok(sizes[files.find((f) => f.endsWith('-timeline.bin'))!] > sizes[files.find((f) => f.endsWith('-_.bin'))!], 'the timeline cache holds the reader too');
    const before = files.map((f) => statSync(join(dir, f)).ino);
    assert.equal(version(), '0.1.0');
    timeline(xdg);
    assert.deepEqual(cacheFiles(dir).sort(), files);
    assert.deepEqual(files.map((f) => statSync(join(dir, f)).ino), before, 'neither was rewritten');
  });

  it('a corrupt cache is never handed to V8: same output, and the file is replaced by a good one', () => {
    const xdg = tempDir('kite-cc-');
    const dir = join(xdg, 'kite', 'v8');
    timeline(xdg);
    const file = join(dir, cacheFiles(dir)[0]);
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff; // one flipped byte in V8's payload
    writeFileSync(file, bytes, { mode: 0o600 });
    assert.equal(readCodeCache(file), null, 'its checksum no longer matches');
    timeline(xdg);
    assert.ok(readCodeCache(file), 'rewritten');
  });

  it('a well-formed cache of another bundle is rejected by V8 (same output) and replaced', async () => {
    const xdg = tempDir('kite-cc-');
    const dir = join(xdg, 'kite', 'v8');
    // The cache another build would write: a launcher whose program is a different bundle.
    const other = join(tempDir('kite-cc-other-'), 'cliMain.js');
    writeFileSync(other, 'module.exports = { answer: 42 };\n'.repeat(50));
    const otherCli = join(tempDir('kite-cc-otherlaunch-'), 'cli.js');
    await esbuild.build({ entryPoints: [join(ROOT, 'src/harness/cliLauncher.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: otherCli, logLevel: 'error' });
    renameSync(other, join(otherCli, '..', 'cliMain.js'));
    assert.equal(spawnSync(process.execPath, [otherCli], { env: { ...process.env, XDG_CACHE_HOME: xdg } }).status, 0);
    const [foreign] = cacheFiles(dir);
    assert.ok(foreign);
    // Put it where kite's cache goes: kite's own run first, to learn the name, then swap the content.
    timeline(xdg);
    const mine = cacheFiles(dir).find((f) => f !== foreign);
    assert.ok(mine);
    writeFileSync(join(dir, mine), readFileSync(join(dir, foreign)), { mode: 0o600 });
    timeline(xdg);
    assert.ok(readCodeCache(join(dir, mine)), 'a cache kite accepts is in its place');
    assert.ok(!readFileSync(join(dir, mine)).equals(readFileSync(join(dir, foreign))), 'V8 rejected the planted one, so kite wrote its own');
  });

  it('an update does not leave the old version\'s caches forever: the first write removes those unused for 30 days; a cache in use is kept', () => {
    const xdg = tempDir('kite-cc-');
    const dir = join(xdg, 'kite', 'v8');
    timeline(xdg);
    const [mine] = cacheFiles(dir);
    const age = (path: string, days: number) => {
      const t = Date.now() / 1000 - days * 86_400;
      utimesSync(path, t, t);
    };
    // The last start used it 40 days ago: using it now marks it, and it survives the prune below.
    age(join(dir, mine), 40);
    timeline(xdg);
    assert.ok(Date.now() - statSync(join(dir, mine)).mtimeMs < 60_000, 'the cache a start used is marked as used');
    const payload = readFileSync(join(dir, mine));
    const olderVersion = ['timeline', 'run', 'eval'].map((c) => join(dir, `cli-${'0'.repeat(40)}-${c}.bin`));
    const lastWeek = join(dir, `cli-${'1'.repeat(40)}-timeline.bin`);
    for (const f of [...olderVersion, lastWeek]) writeFileSync(f, payload, { mode: 0o600 });
    for (const f of olderVersion) age(f, 40);
    age(lastWeek, 7);
    // A command that has no cache yet writes one at exit, and prunes then.
    const v = spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: xdg } });
    assert.equal(v.stdout.trim(), '0.1.0');
    const left = cacheFiles(dir).sort();
    assert.deepEqual(left, [mine, `cli-${'1'.repeat(40)}-timeline.bin`, mine.replace(/-timeline\.bin$/, '-_.bin')].sort());
    timeline(xdg);
  });

  it('a cache folder others may write, or a symlink to one, is not used at all', () => {
    const open = tempDir('kite-cc-');
    mkdirSync(join(open, 'kite', 'v8'), { recursive: true });
    chmodSync(join(open, 'kite', 'v8'), 0o777);
    timeline(open);
    assert.deepEqual(cacheFiles(join(open, 'kite', 'v8')), []);

    const linked = tempDir('kite-cc-');
    const elsewhere = tempDir('kite-cc-elsewhere-');
    chmodSync(elsewhere, 0o700);
    mkdirSync(join(linked, 'kite'));
    symlinkSync(elsewhere, join(linked, 'kite', 'v8'));
    timeline(linked);
    assert.deepEqual(cacheFiles(elsewhere), []);
  });
});

describe('kite timeline on two threads, as shipped', function () {
  this.timeout(180_000);

  it('KITE_TIMELINE_THREADS=2 on a 20 MB log: the worker reads its part, the output is exactly one thread\'s', async () => {
    const cli = await buildShipped(tempDir('kite-split-build-'));
    const log = join(tempDir('kite-split-'), '20260301-101500-F9.jsonl');
    writeLargeLog(log, 20_000);
    const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [cli, 'timeline', log], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, KITE_CODE_CACHE: 'off', ...env } });
    const one = run({});
    const two = run({ KITE_TIMELINE_THREADS: '2' });
    assert.equal(one.status, 0, one.stderr);
    assert.equal(two.status, 0, two.stderr);
    assert.ok(one.stdout.split('\n').length > 5000);
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.stderr, one.stderr, 'no "read on one thread" note: the worker read its part');
    // An edited line in the worker's part (line N; the chain breaks at N + 1): one reader reads it, says so, reports the break.
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[lines.length - 100] = lines[lines.length - 100].replace(/"t":([\d.]+)/, '"t":9$1');
    writeFileSync(log, lines.join('\n'));
    const broken = run({ KITE_TIMELINE_THREADS: '2' });
    assert.equal(broken.status, 0, broken.stderr);
    assert.match(broken.stderr, /read on one thread: hash chain broken/);
    assert.match(broken.stderr, new RegExp(`line ${lines.length - 98}: hash chain broken`));
    assert.equal(broken.stdout, run({}).stdout);
  });
});
