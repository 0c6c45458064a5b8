// Code caches pile up: each Kite update leaves a set of ~2 MB files behind. Writing a cache removes
// ours unused for CACHE_UNUSED_DAYS; a cache in use is marked (its mtime) at most once a day; and
// nothing else in the folder — other names, links, files of another user — is ever removed.
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_UNUSED_DAYS, markCodeCacheUsed, pruneCodeCaches, writeCodeCache } from '../../../src/harness/cli/codeCache';
import { tempDir } from '../loop/kit';

const DAY = 86_400_000;
const key = (c: string) => c.repeat(40);

function file(dir: string, name: string, ageMs: number): string {
  const path = join(dir, name);
  writeFileSync(path, 'x', { mode: 0o600 });
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(path, t, t);
  return path;
}

describe('code caches: pruning what no start uses', () => {
  it('writing a cache removes the caches unused for 30 days and dead temp files, and keeps the rest', () => {
    const dir = tempDir('kite-cc-prune-');
    const oldSet = ['timeline', 'run', '_'].map((c) => file(dir, `cli-${key('a')}-${c}.bin`, (CACHE_UNUSED_DAYS + 1) * DAY));
    const recent = file(dir, `cli-${key('b')}-timeline.bin`, (CACHE_UNUSED_DAYS - 2) * DAY);
    const deadTmp = file(dir, `cli-${key('c')}-run.bin.4242.tmp`, 2 * 3_600_000);
    const liveTmp = file(dir, `cli-${key('c')}-cost.bin.4243.tmp`, 1000);
    const notOurs = file(dir, 'notes.txt', 400 * DAY);
    const lookalike = file(dir, `cli-${key('a')}-timeline.bin.bak`, 400 * DAY);

    const fresh = join(dir, `cli-${key('d')}-timeline.bin`);
    writeCodeCache(fresh, Buffer.from('payload'));

    assert.ok(existsSync(fresh));
    for (const f of oldSet) assert.equal(existsSync(f), false, `${f} was removed`);
    assert.equal(existsSync(deadTmp), false, 'a temp file an hour old was removed');
    for (const f of [recent, liveTmp, notOurs, lookalike]) assert.ok(existsSync(f), `${f} was kept`);
  });

  it('never removes a link (nor what it points to), nor the file it was asked to keep', () => {
    const dir = tempDir('kite-cc-prune-');
    const outside = tempDir('kite-cc-outside-');
    const target = file(outside, `cli-${key('e')}-run.bin`, 400 * DAY);
    const link = join(dir, `cli-${key('e')}-run.bin`);
    symlinkSync(target, link);
    const hard = join(dir, `cli-${key('f')}-run.bin`);
    linkSync(target, hard); // a hard link is a regular file of ours: removing it unlinks only the name
    const kept = file(dir, `cli-${key('9')}-timeline.bin`, 400 * DAY);

    assert.equal(pruneCodeCaches(dir, kept), 1);
    assert.ok(existsSync(link) && existsSync(target), 'the link and its target are untouched');
    assert.equal(existsSync(hard), false);
    assert.ok(existsSync(target), 'the hard link removed its own name only');
    assert.ok(existsSync(kept));
  });

  it('a folder that does not exist prunes nothing and throws nothing', () => {
    assert.equal(pruneCodeCaches(join(tempDir('kite-cc-prune-'), 'missing'), null), 0);
  });

  it('a cache a start used is marked at most once a day, so it is never pruned while in use', () => {
    const dir = tempDir('kite-cc-prune-');
    mkdirSync(dir, { recursive: true });
    const used = file(dir, `cli-${key('1')}-timeline.bin`, (CACHE_UNUSED_DAYS + 5) * DAY);
    markCodeCacheUsed(used);
    assert.ok(Date.now() - statSync(used).mtimeMs < 60_000, 'an old cache in use is marked now');
    assert.equal(pruneCodeCaches(dir, null), 0, 'so it stays');

    const hourOld = file(dir, `cli-${key('2')}-timeline.bin`, 3_600_000);
    const before = statSync(hourOld).mtimeMs;
    markCodeCacheUsed(hourOld);
    assert.equal(statSync(hourOld).mtimeMs, before, 'marked less than a day ago: not written again');
  });
});
