// What `kite run` / `kite resume` print at the end when the timeline was not shown live: the log is
// read by the one reader (events/reader.ts), so a line that does not parse is named on stderr with
// its file and line number instead of vanishing from the timeline without a word.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CapturedLines } from '../../helpers/capturedLines';
import { readEvents, report } from '../../../src/harness/cli/runCommand';
import { readLog } from '../../../src/harness/events/reader';
import { formatTimeline } from '../../../src/harness/events/timeline';
import type { RunSummary } from '../../../src/harness/run';

const logs = join(__dirname, '..', '..', 'fixtures', 'logs');


function summary(logPath: string, outcome: RunSummary['outcome'] = 'done'): RunSummary {
  return { feature: 'F1', outcome, turns: 2, tokens: 100, cost_usd: 0, commit: null, logPath, proposals: [] };
}

describe('kite run: the timeline printed at the end', () => {
  it('warns on stderr about each malformed line (file and line number) and still prints the other events', async () => {
    const log = join(logs, 'malformed-middle.jsonl');
    const c = new CapturedLines();
    assert.equal(await report(summary(log), c, false), 0);
    assert.equal(c.stderr.length, 2, c.stderr.join('\n'));
    assert.ok(c.stderr[0]!.startsWith(`kite: warning: ${log}: line 4: invalid JSON`), c.stderr[0]);
    assert.ok(c.stderr[1]!.startsWith(`kite: warning: ${log}: line 7: `), c.stderr[1]);
    // The good events are all there: the same timeline as the one reader's events give.
    const { events } = await readLog(log);
    assert.equal(events.length, 10);
    assert.equal(c.stdout[0], formatTimeline(events, { says: true }));
    assert.match(c.stdout.at(-1)!, /^F1: done in 2 turns/);
  });

  it('names a torn last line (a killed writer) and keeps the events before it', async () => {
    const log = join(logs, 'torn-last-line.jsonl');
    const c = new CapturedLines();
    const events = await readEvents(log, c);
    assert.equal(events.length, 9);
    assert.deepEqual(c.stderr, [`kite: warning: ${log}: line 10: torn last line, the writer stopped mid-event (${tornBytes(log)} bytes ignored)`]);
  });

  it('a clean log prints no warning', async () => {
    const c = new CapturedLines();
    assert.equal(await report(summary(join(logs, 'demo-run.jsonl')), c, false), 0);
    assert.deepEqual(c.stderr, []);
  });

  it('a log that cannot be read costs the timeline, not the summary line or the exit status', async () => {
    const log = join(logs, 'no-such-run.jsonl');
    const c = new CapturedLines();
    assert.equal(await report(summary(log, 'gate_failed'), c, false), 1);
    // issue 18 item 4: a run that is not done also says why on stderr (here the summary carries no sentence)
    assert.deepEqual(c.stderr.slice(0, 2), [`kite: warning: no timeline: no such log: ${log}`, 'kite: F1 ended gate_failed']);
    assert.match(c.stderr[2]!, /^Next: kite diagnose no-such-run/);
    assert.match(c.stdout.at(-1)!, /^F1: gate_failed in 2 turns/);
  });

  it('does not read the log when the rows were already shown live', async () => {
    const c = new CapturedLines();
    assert.equal(await report(summary(join(logs, 'malformed-middle.jsonl')), c, true), 0);
    assert.deepEqual(c.stderr, []);
    assert.equal(c.stdout.length, 1);
  });
});

/** Bytes after the last newline: the unfinished event. */
function tornBytes(path: string): number {
  const text = readFileSync(path, 'utf8');
  return Buffer.byteLength(text.slice(text.lastIndexOf('\n') + 1));
}
