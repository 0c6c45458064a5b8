import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { LogTailer, type TailerEvent } from '../../../src/harness/events/logTailer';
import { expectedEvents } from '../../../src/harness/events/growArray';
import { writeLargeLog } from '../../helpers/largeLog';

const fixtures = join(__dirname, '../../fixtures/logs');
const demoLines = readFileSync(join(fixtures, 'demo-run.jsonl'), 'utf8').trim().split('\n');

/** Descriptors of this process open on `path` (Linux: /proc/self/fd). */
function openDescriptors(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed meanwhile (the directory's own descriptor)
    }
  }).length;
}

/** Collects what a tailer emits; `until` resolves when a predicate over all of it holds. */
function collector() {
  const got: TailerEvent[] = [];
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  const events = (): KiteEvent[] => got.flatMap((e) => (e.type === 'batch' ? e.batch.events : []));
  return {
    got,
    events,
    emit: (e: TailerEvent) => {
      got.push(e);
      for (const w of waiters.splice(0)) {
        if (w.check()) w.resolve();
        else waiters.push(w);
      }
    },
    until: (check: () => boolean) => new Promise<void>((resolve) => (check() ? resolve() : waiters.push({ check, resolve }))),
  };
}

describe('log tailer', () => {
  let dir: string;
  let tailer: LogTailer | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-tail-'));
  });
  afterEach(() => {
    tailer?.dispose();
    tailer = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the history in batches (a small first one), the last marked done', async () => {
    const c = collector();
    tailer = new LogTailer(join(fixtures, 'demo-run.jsonl'), c.emit, { batchSize: 20, firstBatchSize: 5, follow: false });
    await tailer.start();
    const sizes = c.got.map((e) => (e.type === 'batch' ? [e.batch.events.length, e.batch.initial, e.batch.done] : e.type));
    assert.deepEqual(sizes, [[5, true, false], [20, true, false], [20, true, false], [0, true, true]]);
    assert.deepEqual(c.events().map((e) => e.seq), demoLines.map((_, i) => i));
    const last = c.got.at(-1);
    assert.ok(last?.type === 'batch' && last.batch.bytesRead === last.batch.bytesTotal && last.batch.bytesTotal > 0);
  });

  it('waits for the receiver to take a batch before reading the next (its promise)', async () => {
    const seen: number[] = [];
    const pending: (() => void)[] = [];
    tailer = new LogTailer(
      join(fixtures, 'demo-run.jsonl'),
      (e) => {
        if (e.type !== 'batch') return;
        seen.push(e.batch.events.length);
        return new Promise<void>((resolve) => pending.push(resolve));
      },
      { batchSize: 20, firstBatchSize: 5, follow: false },
    );
    const reading = tailer.start();
    for (let taken = 0; taken < 4; taken++) {
      while (pending.length === 0) await new Promise((r) => setImmediate(r));
      // Only the batch not yet taken is out: the tailer read no further meanwhile.
      await new Promise((r) => setTimeout(r, 5));
      assert.equal(seen.length, taken + 1, `batches emitted before the receiver took batch ${taken + 1}`);
      (pending.shift() as () => void)();
    }
    await reading;
    assert.deepEqual(seen, [5, 20, 20, 0]);
  });

  it('ends a batch once its lines hold batchBytes, letting the event loop run between batches', async () => {
    const c = collector();
    const file = join(fixtures, 'demo-run.jsonl');
    const lengths = demoLines.map((l) => Buffer.byteLength(l) + 1);
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    tailer = new LogTailer(file, c.emit, { batchSize: 1000, batchBytes: 2000, sliceMs: 0, follow: false });
    const before = turns;
    await tailer.start();
    spinning = false;
    const batches = c.got.flatMap((e) => (e.type === 'batch' && e.batch.events.length ? [e.batch.events] : []));
    assert.deepEqual(batches.flat().map((e) => e.seq), demoLines.map((_, i) => i));
    assert.ok(batches.length > 3, `${batches.length} batches`);
    let at = 0;
    for (const b of batches.slice(0, -1)) {
      const bytes = lengths.slice(at, at + b.length).reduce((x, y) => x + y, 0);
      const withoutLast = bytes - (lengths[at + b.length - 1] as number);
      assert.ok(bytes >= 2000 && withoutLast < 2000, `a batch of ${bytes} bytes`);
      at += b.length;
    }
    // The loop ran between batches (setImmediate callbacks interleaved with the read).
    assert.ok(turns - before >= batches.length, `${turns - before} turns of the loop`);
  });

  it('with the structural check (the timeline) reads the same events and names a bad field with its line', async () => {
    const full = collector();
    tailer = new LogTailer(join(fixtures, 'demo-run.jsonl'), full.emit, { follow: false });
    await tailer.start();
    tailer.dispose();
    const quick = collector();
    tailer = new LogTailer(join(fixtures, 'demo-run.jsonl'), quick.emit, { follow: false, validation: 'structural' });
    await tailer.start();
    assert.deepEqual(JSON.parse(JSON.stringify(quick.events())), JSON.parse(JSON.stringify(full.events())));
    tailer.dispose();
    // A tool event whose ms is a string: the shape check fails, zod says where.
    const bad = JSON.parse(demoLines[40] as string) as Record<string, unknown>;
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, [demoLines[0], JSON.stringify({ ...bad, ms: 'slow' }), demoLines[1]].join('\n') + '\n');
    const c = collector();
    tailer = new LogTailer(path, c.emit, { follow: false, validation: 'structural' });
    await tailer.start();
    const problems = c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : []));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.line, 2);
    assert.match(problems[0]!.message, /ms/);
    assert.equal(c.events().length, 2);
    // On demand (the details, the raw event) the line is parsed in full.
    assert.equal((await tailer.event(0))?.kind, 'session_start');
  });

  it('gives back the exact line of any event by seq', async () => {
    const c = collector();
    tailer = new LogTailer(join(fixtures, 'demo-run.jsonl'), c.emit, { follow: false });
    await tailer.start();
    assert.equal(await tailer.rawLine(19), demoLines[19]);
    assert.equal(await tailer.rawLine(0), demoLines[0]);
    assert.equal(await tailer.rawLine(45), null);
  });

  it('a log longer than its sizing sample (tables sized from the first 1,000 lines) keeps every line by seq', async () => {
    const log = join(dir, '20260301-101500-F9.jsonl');
    const info = writeLargeLog(log, 3000);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const c = collector();
    tailer = new LogTailer(log, c.emit, { follow: false });
    await tailer.start();
    assert.equal(tailer.count, info.events);
    for (const seq of [0, 999, 1000, 1001, 2047, info.events - 1]) assert.equal(await tailer.rawLine(seq), lines[seq], `seq ${seq}`);
    assert.equal(await tailer.rawLine(info.events), null);
  });

  it('sizes a log from its first lines, but never above one event per 20 bytes nor above 16M events', () => {
    assert.equal(expectedEvents(1_000_000, 10_000, 100), 11_000);
    assert.equal(expectedEvents(1_000_000, 10_000, 5_000), 50_000);
    // A sparse file of a terabyte: no more than 16M events reserved (beyond, the tables double as they fill).
    assert.equal(expectedEvents(2 ** 40, 100_000, 1_000), 1 << 24);
  });

  // How fast appends arrive is measured in test/bench/timeline.bench.ts, not asserted here.
  it('follows appends: each new event arrives once, without polling, and a half-written line waits for its newline', async () => {
    const path = join(dir, 'live.jsonl');
    writeFileSync(path, demoLines.slice(0, 10).join('\n') + '\n');
    const c = collector();
    tailer = new LogTailer(path, c.emit, { pollMs: 0 });
    await tailer.start();
    assert.equal(c.events().length, 10);
    for (let i = 10; i < 20; i++) {
      appendFileSync(path, demoLines[i] + '\n');
      await c.until(() => c.events().length === i + 1);
    }
    const line = demoLines[20] as string;
    appendFileSync(path, line.slice(0, 30));
    tailer.kick();
    appendFileSync(path, line.slice(30) + '\n');
    await c.until(() => c.events().length === 21);
    assert.equal(c.events()[20]?.seq, 20);
    assert.deepEqual(c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : [])), []);
    assert.equal(new Set(c.events().map((e) => e.seq)).size, 21);
    // One descriptor kept for the whole follow (not one per append), and none left once disposed.
    assert.equal(openDescriptors(path), 1);
    tailer.dispose();
    assert.equal(openDescriptors(path), 0);
  });

  it('with gatherMs, appends that come together are read and emitted together, none lost', async () => {
    const path = join(dir, 'gathered.jsonl');
    writeFileSync(path, demoLines.slice(0, 10).join('\n') + '\n');
    const c = collector();
    tailer = new LogTailer(path, c.emit, { pollMs: 0, gatherMs: 1000 });
    await tailer.start();
    const batchesBefore = c.got.length;
    // A run writing an event every few ms (read at once, each would be its own batch).
    for (let i = 10; i < 30; i++) {
      appendFileSync(path, demoLines[i] + '\n');
      await new Promise((r) => setTimeout(r, 5));
    }
    await c.until(() => c.events().length === 30);
    assert.deepEqual(c.events().map((e) => e.seq), demoLines.slice(0, 30).map((l) => (JSON.parse(l) as { seq: number }).seq));
    const live = c.got.slice(batchesBefore);
    assert.ok(live.length <= 2, `20 appends in one stretch came in ${live.length} batches`);
  });

  it('reports malformed lines and an incomplete last line with their line numbers, and keeps going', async () => {
    const c = collector();
    tailer = new LogTailer(join(fixtures, 'malformed-middle.jsonl'), c.emit, { follow: false });
    await tailer.start();
    const problems = c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : []));
    assert.deepEqual(problems.map((p) => p.line), [4, 7]);
    assert.equal(c.events().length, 10);
    const c2 = collector();
    tailer.dispose();
    tailer = new LogTailer(join(fixtures, 'torn-last-line.jsonl'), c2.emit, { follow: false });
    await tailer.start();
    const torn = c2.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : []));
    assert.equal(torn.length, 1);
    assert.match(torn[0]!.message, /^line 10: incomplete last line/);
    assert.equal(c2.events().length, 9);
  });

  it('a torn last line in the history is reported, then arrives as an event once its writer completes it', async () => {
    const path = join(dir, 'torn.jsonl');
    const line = demoLines[5] as string;
    writeFileSync(path, demoLines.slice(0, 5).join('\n') + '\n' + line.slice(0, 40));
    const c = collector();
    tailer = new LogTailer(path, c.emit, { pollMs: 0 });
    await tailer.start();
    const first = c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : []));
    assert.equal(first.length, 1);
    assert.match(first[0]!.message, /^line 6: incomplete last line \(40 bytes, no newline yet\)/);
    assert.equal(c.events().length, 5);
    appendFileSync(path, line.slice(40) + '\n' + demoLines[6] + '\n');
    tailer.kick();
    await c.until(() => c.events().length === 7);
    assert.deepEqual(c.events().map((e) => e.seq), [0, 1, 2, 3, 4, 5, 6]);
    // No new problem for the completed line, and its byte range spans both writes.
    assert.equal(c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : [])).length, 1);
    assert.equal(await tailer.rawLine(5), line);
    assert.equal(await tailer.rawLine(6), demoLines[6]);
  });

  it('says reset when the file is rotated (renamed away, a new one at the path), even a longer one', async () => {
    const path = join(dir, 'rot.jsonl');
    writeFileSync(path, demoLines.slice(0, 3).join('\n') + '\n');
    const c = collector();
    tailer = new LogTailer(path, c.emit, { pollMs: 0 });
    await tailer.start();
    assert.equal(c.events().length, 3);
    renameSync(path, join(dir, 'rot.jsonl.1'));
    // Longer than what was read: a size check alone would read on from the old offset, mid-line.
    writeFileSync(path, demoLines.slice(0, 8).join('\n') + '\n');
    tailer.kick();
    await c.until(() => c.got.some((e) => e.type === 'reset'));
    assert.equal(c.events().length, 3);
    assert.deepEqual(c.got.flatMap((e) => (e.type === 'batch' ? e.batch.problems : [])), []);
    // The owner's fresh tailer reads the new file from its start.
    const c2 = collector();
    tailer = new LogTailer(path, c2.emit, { follow: false });
    await tailer.start();
    assert.deepEqual(c2.events().map((e) => e.seq), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('normalizes a log of the original Python Kite', async () => {
    const c = collector();
    tailer = new LogTailer(join(fixtures, 'python-kite.jsonl'), c.emit, { follow: false });
    await tailer.start();
    assert.ok(c.events().some((e) => e.kind === 'model'));
    assert.ok(c.events().every((e) => e.v === 1));
  });

  it('says when the file shrinks (replaced) or disappears', async () => {
    const path = join(dir, 'r.jsonl');
    writeFileSync(path, demoLines.slice(0, 5).join('\n') + '\n');
    const c = collector();
    tailer = new LogTailer(path, c.emit, { pollMs: 0 });
    await tailer.start();
    truncateSync(path, 10);
    tailer.kick();
    await c.until(() => c.got.some((e) => e.type === 'reset'));
    const c2 = collector();
    tailer = new LogTailer(path, c2.emit, { pollMs: 0 });
    writeFileSync(path, demoLines.slice(0, 2).join('\n') + '\n');
    await tailer.start();
    rmSync(path);
    await c2.until(() => c2.got.some((e) => e.type === 'gone'));
  });
});
