import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import type { FeedReport, WriteFact } from '../../../src/harness/protocol/timelineFeedMessages';
import { unpack } from '../../../src/harness/protocol/packedMessage';
import { HostMessageSchema, type HostMessage } from '../../../src/harness/protocol/webviewMessages';
import { openTimelineFeed, type FeedHandle } from '../../../src/harness/events/timelineFeedThread';
import { writeFactOf } from '../../../src/harness/events/writeResolver';
import { writeLargeLog } from '../../helpers/largeLog';
import { policyOf } from '../../helpers/procStat';

const demo = join(__dirname, '../../fixtures/logs/demo-run.jsonl');
const demoLines = readFileSync(demo, 'utf8').trim().split('\n');

type Batch = FeedReport & { type: 'batch' };

/** Collects what a feed reports; the page's messages unpacked and checked as the page checks them. */
function collector(hold?: () => Promise<void> | void) {
  const reports: FeedReport[] = [];
  const messages: HostMessage[] = [];
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  const sink = (r: FeedReport): void | Promise<void> => {
    reports.push(r);
    if (r.type === 'batch') {
      assert.equal(r.message.deflated, true, 'a batch is deflated');
      const u = unpack({ type: 'packed', json: inflateRawSync(r.message.json) });
      assert.ok('message' in u, 'a batch is packed JSON');
      messages.push(HostMessageSchema.parse(u.message));
    }
    for (const w of waiters.splice(0)) {
      if (w.check()) w.resolve();
      else waiters.push(w);
    }
    if (r.type === 'batch' && hold) return hold();
  };
  const batches = () => reports.filter((r): r is Batch => r.type === 'batch');
  const seqs = () => messages.flatMap((m) => (m.type === 'snapshot' || m.type === 'append' ? m.events.map((e) => e.seq) : []));
  const until = (check: () => boolean, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out; reports: ${reports.map((r) => r.type).join(', ')}`)), ms);
      const done = () => {
        clearTimeout(t);
        resolve();
      };
      if (check()) done();
      else waiters.push({ check, resolve: done });
    });
  const loaded = () => until(() => batches().some((b) => b.initial && b.done));
  return { reports, messages, sink, batches, seqs, until, loaded };
}

const source = (log: string) => ({ log, title: 'run', live: false });

describe('timeline feed (the timeline view\'s reader, on a worker thread for a big log)', function () {
  this.timeout(60_000);
  let dir: string;
  let feed: FeedHandle | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-feed-'));
  });
  afterEach(() => {
    feed?.dispose();
    feed = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a big log on a worker thread: a snapshot, then appends, far history cut to rows, every event once and in order', async () => {
    const log = join(dir, 'big.jsonl');
    writeLargeLog(log, 10_000);
    const c = collector();
    feed = openTimelineFeed({ log, source: source(log) }, c.sink);
    assert.equal(feed.threaded, true, 'a log over 4 MB is read off the extension host\'s thread');
    await c.loaded();
    const [first, ...rest] = c.messages;
    assert.equal(first?.type, 'snapshot');
    if (first?.type === 'snapshot') assert.deepEqual(first.source, source(log));
    assert.ok(rest.every((m) => m.type === 'append'));
    assert.deepEqual(c.seqs(), Array.from({ length: 10_000 }, (_, i) => i));
    const cut = c.messages.map((m) => (m.type === 'append' || m.type === 'snapshot') && m.rowsOnly === true);
    assert.ok(cut.some(Boolean), 'the history far from the end goes as rows only');
    assert.equal(cut.at(-1), false, 'the end of the history goes whole');
    // What the host keeps for the diff actions and the file before the run: the same as reading it here.
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const facts = lines.map((l) => writeFactOf(JSON.parse(l) as KiteEvent)).filter((f): f is WriteFact => f !== null);
    assert.ok(facts.length > 100);
    assert.deepEqual(c.batches().flatMap((b) => b.writes), facts);
    assert.equal(c.batches().filter((b) => b.start !== null).length, 1);
    assert.equal(c.batches().find((b) => b.start)?.start?.kind, 'session_start');
  });

  it('answers for any event from the worker: the full event and the exact line', async () => {
    const log = join(dir, 'big.jsonl');
    writeLargeLog(log, 6_000);
    const c = collector();
    feed = openTimelineFeed({ log, source: source(log) }, c.sink);
    await c.loaded();
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    for (const seq of [0, 17, 2_500, 5_999]) {
      assert.equal(await feed.rawLine(seq), lines[seq]);
      const e = await feed.event(seq);
      assert.equal(e?.seq, seq);
      assert.equal(e?.kind, (JSON.parse(lines[seq] as string) as KiteEvent).kind);
    }
    assert.equal(await feed.event(6_000), null, 'past the end: none');
  });

  it('waits for the page: the next batch is read only once the last one was taken', async () => {
    const log = join(dir, 'big.jsonl');
    writeLargeLog(log, 6_000);
    let release: () => void = () => undefined;
    const c = collector(() => new Promise<void>((r) => (release = r)));
    feed = openTimelineFeed({ log, source: source(log) }, c.sink);
    await c.until(() => c.batches().length === 1);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(c.batches().length, 1, 'nothing more while the page has not taken the first batch');
    release();
    await c.until(() => c.batches().length === 2);
  });

  it('reads the history on an idle-priority thread and follows the log on an ordinary one (Linux)', async () => {
    /** This process's threads under SCHED_IDLE (/proc/self/task/<tid>/stat field 41 = 5). */
    const idleThreads = () =>
      readdirSync('/proc/self/task').filter((tid) => {
        try {
          return policyOf(`/proc/self/task/${tid}/stat`) === 5;
        } catch {
          return false; // a thread that just ended
        }
      });
    const log = join(dir, 'big.jsonl');
    writeLargeLog(log, 6_000);
    let release: () => void = () => undefined;
    let holding = true;
    const c = collector(() => (holding ? new Promise<void>((r) => (release = r)) : undefined));
    feed = openTimelineFeed({ log, source: source(log) }, c.sink, { workerMinBytes: 0 });
    await c.until(() => c.batches().length === 1);
    assert.equal(idleThreads().length, 1, 'the reader, while the history is read');
    holding = false;
    release();
    await c.loaded();
    await new Promise((r) => setTimeout(r, 100)); // the switch is the worker's, just before it posts the last batch
    assert.deepEqual(idleThreads(), [], 'following the log: no thread left at idle priority');
    appendFileSync(log, readFileSync(log, 'utf8').split('\n')[0] + '\n');
    await c.until(() => c.batches().some((b) => !b.initial));
  });

  it('follows the log after its history, inline for a small log and on a worker alike', async () => {
    for (const workerMinBytes of [Infinity, 0]) {
      const log = join(dir, `demo-${workerMinBytes}.jsonl`);
      writeFileSync(log, demoLines.slice(0, 30).join('\n') + '\n');
      const c = collector();
      feed = openTimelineFeed({ log, source: source(log) }, c.sink, { workerMinBytes });
      assert.equal(feed.threaded, workerMinBytes === 0);
      await c.loaded();
      appendFileSync(log, demoLines.slice(30).join('\n') + '\n');
      await c.until(() => c.seqs().length === demoLines.length);
      assert.deepEqual(c.seqs(), demoLines.map((_, i) => i));
      const live = c.batches().filter((b) => !b.initial);
      assert.ok(live.length >= 1 && live.every((b) => b.events > 0));
      // The demo's writes, as the host indexes them, whichever thread read them.
      const facts = demoLines.map((l) => writeFactOf(JSON.parse(l) as KiteEvent)).filter((f) => f !== null);
      assert.deepEqual(c.batches().flatMap((b) => b.writes), facts);
      feed.dispose();
      feed = null;
    }
  });

  it('says so when the log is missing, and answers nothing once closed', async () => {
    const c = collector();
    const missing = join(dir, 'nope.jsonl');
    feed = openTimelineFeed({ log: missing, source: source(missing) }, c.sink, { workerMinBytes: 0 });
    await c.until(() => c.reports.some((r) => r.type === 'gone' || r.type === 'error'));
    feed.dispose();
    await assert.rejects(feed.event(0), /closed/);
    feed = null;
  });
});
