import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogSummary } from '../../../src/harness/events/runLogSummary';
import { RunsListing } from '../../../src/extension/views/runsListing';
import { writeLargeLog } from '../../helpers/largeLog';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'logs');

describe('extension/views/runsListing (the Runs view without VS Code)', () => {
  let dir = '';
  let lines: string[] = [];
  const live = (): string => join(dir, '20261206-120000-F8.jsonl');
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-listing-'));
    copyFileSync(join(fixtures, 'demo-run.jsonl'), join(dir, '20261201-090000-F4.jsonl'));
    const gen = join(dir, 'gen.jsonl.tmp');
    writeLargeLog(gen, 400);
    lines = readFileSync(gen, 'utf8').trim().split('\n').filter((l) => !l.includes('"kind":"session_end"'));
    rmSync(gen);
    writeFileSync(live(), lines.slice(0, 200).join('\n') + '\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists newest first and keeps each log the same object from one listing to the next', async () => {
    const listing = new RunsListing();
    const first = await listing.list(dir, new Set([live()]));
    assert.deepEqual(first.map((n) => n.path), [live(), join(dir, '20261201-090000-F4.jsonl')]);
    assert.equal(first[0].running, true);
    const second = await listing.list(dir, new Set());
    assert.equal(second[0], first[0], 'the same object: VS Code matches the elements it holds by identity');
    assert.equal(second[0].running, false, 'changed in place');
    assert.equal(listing.listings, 2);
  });

  it('updates a grown log in place without listing the folder, with the totals a fresh read gives', async () => {
    const listing = new RunsListing();
    const [node] = await listing.list(dir, new Set());
    const before = node.summary.turns;
    appendFileSync(live(), lines.slice(200).join('\n') + '\n');
    const updated = await listing.update(live(), new Set([live()]));
    assert.equal(updated, node);
    assert.ok(node.summary.turns > before, `turns ${before} -> ${node.summary.turns}`);
    const fresh = await readLogSummary(live());
    assert.deepEqual([node.summary.turns, node.summary.tokens, node.summary.costUsd], [fresh.turns, fresh.tokens, fresh.costUsd]);
    assert.equal(node.running, true);
    assert.equal(listing.listings, 1, 'the folder was listed once');
  });

  it("a view's listing shows a big unfinished log at once, counting, and says when its totals are counted", async () => {
    writeFileSync(live(), lines.join('\n') + '\n'); // 399 events, no end: ~400 KB
    let counted: (path: string) => void = () => undefined;
    const done = new Promise<string>((resolve) => (counted = resolve));
    const listing = new RunsListing({ fromBytes: 100_000, counted: (path) => counted(path) });
    const [node, finished] = await listing.list(dir, new Set(), true);
    assert.equal(node.path, live());
    assert.equal(node.summary.counting, true, 'listed before its fold');
    assert.equal(finished.summary.counting, undefined, 'a finished log is read whole (its end holds the totals)');
    assert.equal(await done, live());
    const whole = await readLogSummary(live());
    const updated = await listing.update(live(), new Set());
    assert.equal(updated, node);
    assert.equal(node.summary.counting, undefined);
    assert.deepEqual([node.summary.turns, node.summary.tokens, node.summary.costUsd], [whole.turns, whole.tokens, whole.costUsd]);
    // Any other listing (a command's) waits for every total.
    const [again] = await new RunsListing({ fromBytes: 100_000, counted: () => undefined }).list(dir, new Set());
    assert.equal(again.summary.counting, undefined);
    assert.equal(again.summary.turns, whole.turns);
  });

  it('says the folder must be listed for a log it did not list, or one deleted since', async () => {
    const listing = new RunsListing();
    assert.equal(await listing.update(live(), new Set()), null, 'nothing listed yet');
    await listing.list(dir, new Set());
    const newer = join(dir, '20261207-080000-F9.jsonl');
    writeFileSync(newer, lines.slice(0, 10).join('\n') + '\n');
    assert.equal(await listing.update(newer, new Set()), null, 'a log created after the listing');
    rmSync(live());
    assert.equal(await listing.update(live(), new Set()), null, 'a log deleted after the listing');
    const relisted = await listing.list(dir, new Set());
    assert.deepEqual(relisted.map((n) => n.path), [newer, join(dir, '20261201-090000-F4.jsonl')]);
    assert.equal(await listing.update(live(), new Set()), null, 'the deleted log is forgotten');
  });
});
