import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logTotals } from '../../../src/harness/events/logTotals';
import { observationTokens } from '../../../src/harness/protocol/contextTally';
import { OpenLogTotals, readLogSummary, summarizeLog, TAIL_BYTES } from '../../../src/harness/events/runLogSummary';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { readLog } from '../../../src/harness/events/reader';
import { EventWriter } from '../../../src/harness/events/writer';
import { ev, strip } from '../../helpers/events';
import { writeLargeLog } from '../../helpers/largeLog';

const logs = join(__dirname, '..', '..', 'fixtures', 'logs');

describe('events/runLogSummary (Runs view)', () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'kite-runs-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  /** The lines of a generated run of `events` events without its end (a run still going), and where to write it. */
  const unfinishedRun = (events: number) => {
    const dir = tmp();
    const file = join(dir, '20261129-090000-F8.jsonl');
    writeLargeLog(file, events);
    return { dir, file, lines: readFileSync(file, 'utf8').trim().split('\n').filter((l) => !l.includes('"kind":"session_end"')) };
  };

  it('reads outcome, turns, tokens, cost and commit from a finished log', async () => {
    const s = await readLogSummary(join(logs, 'demo-run.jsonl'));
    assert.equal(s.run, 'demo-run');
    assert.equal(s.feature, 'F4');
    assert.equal(s.outcome, 'done');
    assert.equal(s.turns, 8);
    assert.equal(s.tokens, 26750);
    assert.equal(s.costUsd, 0.02595);
    assert.match(s.commit ?? '', /^9c1e4b7/);
    assert.deepEqual(s.pendingApprovals, []);
  });

  it('a log without session_end is open; an unanswered approval_request is reported as pending', () => {
    const head = JSON.stringify({ kind: 'session_start', feature: 'F1', title: 'Fees', model: 'script:/s.json', started_at: '2026-11-29T08:00:00Z' });
    const tail = [
      head,
      JSON.stringify({ kind: 'model', turn: 1, input_tokens: 1000, output_tokens: 100, cost_usd: 0.01 }),
      JSON.stringify({ kind: 'approval_request', id: 'a1' }),
      JSON.stringify({ kind: 'approval', id: 'a1' }),
      JSON.stringify({ kind: 'model', turn: 2, input_tokens: 1200, output_tokens: 80, cost_usd: 0.02 }),
      JSON.stringify({ kind: 'approval_request', id: 'a2' }),
      '{"kind":"tool","id":"a2","outp', // torn last line: ignored, never a crash
    ].join('\n');
    const s = summarizeLog('/x/.kite/runs/20261129-080000-F1.jsonl', head, tail, true);
    assert.equal(s.outcome, 'open');
    assert.equal(s.turns, 2);
    assert.equal(s.tokens, 2380);
    assert.equal(s.costUsd, 0.03);
    assert.deepEqual(s.pendingApprovals, ['a2']);
    assert.equal(s.title, 'Fees');
  });

  it('reads a python-Kite log (no envelope) without failing', async () => {
    const s = await readLogSummary(join(logs, 'python-kite.jsonl'));
    assert.equal(s.feature, 'F4');
    assert.ok(s.turns > 0);
  });

  it('summarizes a large log from its head and tail (the feature from session_start, the end from the tail)', async () => {
    const file = join(tmp(), '20261129-090000-F9.jsonl');
    writeLargeLog(file, 20_000);
    const size = readFileSync(file).length;
    assert.ok(size > 20 * TAIL_BYTES, `fixture too small (${size} bytes)`);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { feature: string };
    const last = JSON.parse(lines.at(-1)!) as { kind: string; status?: string };
    const s = await readLogSummary(file);
    assert.equal(s.feature, first.feature);
    assert.equal(s.outcome, last.kind === 'session_end' ? last.status : 'open');
  });

  it('takes the feature from the file name when the head is unreadable', () => {
    const s = summarizeLog('/r/20261129-101010-F7.jsonl', 'not json', '', true);
    assert.equal(s.feature, 'F7');
    assert.equal(s.outcome, 'open');
  });

  it('an empty file is an open run with nothing in it', async () => {
    const file = join(tmp(), '20261129-090000-F2.jsonl');
    writeFileSync(file, '');
    const s = await readLogSummary(file);
    assert.equal(s.turns, 0);
    assert.equal(s.outcome, 'open');
  });

  it('an unfinished run longer than the tail shows the totals of the whole log (the fold), cache tokens included', async () => {
    const file = join(tmp(), '20261129-090000-F8.jsonl');
    writeLargeLog(file, 20_000);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    // Cut before its end: an interrupted run (no session_end).
    const open = lines.filter((l) => !l.includes('"kind":"session_end"'));
    writeFileSync(file, open.join('\n') + '\n');
    assert.ok(readFileSync(file).length > 20 * TAIL_BYTES);
    const { events } = await readLog(file);
    const fold = foldEvents(events, { conversation: false });
    assert.ok(fold.tokens.cache_read + fold.tokens.cache_write > 0, 'the fixture has cache tokens');
    const s = await readLogSummary(file);
    assert.equal(s.outcome, 'open');
    assert.deepEqual([s.turns, s.tokens, s.costUsd], [fold.turns, fold.tokens.total, fold.cost_usd]);
    assert.deepEqual(await logTotals(file), { turns: fold.turns, tokens: fold.tokens.total, cost_usd: fold.cost_usd, observation_tokens: observationTokens(fold.context) });
  });

  it('a running log is folded on from where the last refresh stopped: complete lines only, the totals of the whole fold', async () => {
    const { dir, file, lines } = unfinishedRun(3_000);
    // The reducer's totals of the first n lines: what the Runs view must show for them.
    const expected = async (n: number) => {
      writeFileSync(join(dir, 'whole.jsonl'), lines.slice(0, n).join('\n') + '\n');
      const fold = foldEvents((await readLog(join(dir, 'whole.jsonl'))).events, { conversation: false });
      return [fold.turns, fold.tokens.total, fold.cost_usd, Object.keys(fold.pendingApprovals)];
    };
    const shown = (x: { turns: number; tokens: number; costUsd: number; pendingApprovals: string[] }) => [x.turns, x.tokens, x.costUsd, x.pendingApprovals];
    const open = new OpenLogTotals();
    writeFileSync(file, lines.slice(0, 2_000).join('\n') + '\n');
    const first = readFileSync(file).length;
    assert.ok(first > 10 * TAIL_BYTES);
    assert.deepEqual(shown(await readLogSummary(file, open)), await expected(2_000));
    assert.equal(open.bytesFolded, first);
    // The run goes on: 37 more events, and half of the next one written so far.
    const more = lines.slice(2_000, 2_037).join('\n') + '\n';
    const half = lines[2_037].slice(0, 40);
    appendFileSync(file, more + half);
    const s = await readLogSummary(file, open);
    assert.deepEqual(shown(s), await expected(2_037));
    assert.ok(s.pendingApprovals.length + s.turns > 0);
    assert.equal(open.bytesFolded, first + Buffer.byteLength(more), 'only what was appended is read, not the log again');
    appendFileSync(file, lines[2_037].slice(40) + '\n');
    assert.deepEqual(shown(await readLogSummary(file, open)), await expected(2_038));
    const folded = first + Buffer.byteLength(more) + Buffer.byteLength(lines[2_037]) + 1;
    assert.equal(open.bytesFolded, folded);
    // Two refreshes at once (the view and a command listing runs): each line is folded once.
    const last = lines.slice(2_038, 2_100).join('\n') + '\n';
    appendFileSync(file, last);
    const both = await Promise.all([readLogSummary(file, open), readLogSummary(file, open)]);
    for (const b of both) assert.deepEqual(shown(b), await expected(2_100));
    assert.equal(open.bytesFolded, folded + Buffer.byteLength(last));
  });

  it('a running log replaced by another file, cut shorter or rewritten in place, is folded again from its start', async () => {
    const { dir, file, lines } = unfinishedRun(2_000);
    const totalsOf = async (path: string) => {
      const fold = foldEvents((await readLog(path)).events, { conversation: false });
      return [fold.turns, fold.tokens.total, fold.cost_usd];
    };
    const open = new OpenLogTotals();
    writeFileSync(file, lines.join('\n') + '\n');
    const s1 = await readLogSummary(file, open);
    assert.deepEqual([s1.turns, s1.tokens, s1.costUsd], await totalsOf(file));
    // Cut shorter in place (same file).
    writeFileSync(file, lines.slice(0, 1_200).join('\n') + '\n');
    const s2 = await readLogSummary(file, open);
    assert.deepEqual([s2.turns, s2.tokens, s2.costUsd], await totalsOf(file));
    // Replaced: another file moved over it, longer than the one folded.
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, lines.slice(0, 1_900).join('\n') + '\n');
    renameSync(other, file);
    const s3 = await readLogSummary(file, open);
    assert.deepEqual([s3.turns, s3.tokens, s3.costUsd], await totalsOf(file));
    assert.ok(s3.turns > s2.turns);
    // Rewritten in place (same file), longer, with other lines where the fold had stopped: the first
    // line past that point does not go on from what was folded (here it starts mid-line).
    writeFileSync(file, [lines[0], ...lines.slice(1_000, 2_000), ...lines.slice(1, 1_000), ...lines.slice(1, 300)].join('\n') + '\n');
    const s4 = await readLogSummary(file, open);
    assert.deepEqual([s4.turns, s4.tokens, s4.costUsd], await totalsOf(file));
  });

  for (const short of [false, true]) {
    it(`an unfinished ${short ? 'short ' : ''}log's approvals still waiting are the reducer's: a call's result answers its request${short ? '' : ', other results pass unread'}`, async () => {
      const dir = tmp();
      const w = EventWriter.create(dir, '20261206-140000-F2');
      w.append(strip(ev.sessionStart({ limits: { turns: null, tokens: null, usd: null, wall_s: null } })));
      const call = (turn: number, id: string, asked: boolean, answered: 'approval' | 'tool' | 'never') => {
        w.append(strip(ev.model({ turn, stop: 'tool_use', content: [{ type: 'tool_use', id, name: 'run', input: { command: `make t${turn}` } }] })));
        if (asked) w.append(strip(ev.approvalRequest({ id, name: 'run', args: { command: `make t${turn}` }, effect: 'exec', command: `make t${turn}`, cwd: '/w' })));
        if (answered === 'approval') w.append(strip(ev.approval({ id })));
        if (answered !== 'never') w.append(strip(ev.tool({ id, name: 'run', args: { command: `make t${turn}` }, output: 'ok '.repeat(400), error_code: answered === 'tool' ? 'cancelled' : null, is_error: answered === 'tool' })));
      };
      call(1, 'toolu_waits', true, 'never'); // asked at the start, never answered: still waiting
      for (let t = 2; t < (short ? 6 : 60); t++) call(t, `toolu_${t}`, t % 3 === 0, t % 3 === 0 ? 'approval' : 'tool');
      call(60, 'toolu_ended', true, 'tool'); // answered by its result alone (cancelled)
      call(61, 'toolu_last', true, 'never');
      const file = join(dir, '20261206-140000-F2.jsonl');
      if (short) assert.ok(readFileSync(file).length < TAIL_BYTES, 'shorter than the tail: read from its text alone');
      else assert.ok(readFileSync(file).length > TAIL_BYTES, 'longer than the tail: the fold is used');
      const fold = foldEvents((await readLog(file)).events, { conversation: false });
      const s = await readLogSummary(file);
      assert.deepEqual([...s.pendingApprovals].sort(), Object.keys(fold.pendingApprovals).sort());
      assert.deepEqual([...s.pendingApprovals].sort(), ['toolu_last', 'toolu_waits']);
      assert.deepEqual([s.turns, s.tokens, s.costUsd], [fold.turns, fold.tokens.total, fold.cost_usd]);
    });
  }

  it('a short unfinished log counts every token kind, as the reducer does', async () => {
    const file = join(tmp(), '20261129-090000-F4.jsonl');
    const open = readFileSync(join(logs, 'demo-run.jsonl'), 'utf8').trim().split('\n').filter((l) => !l.includes('"kind":"session_end"'));
    writeFileSync(file, open.join('\n') + '\n');
    const { events } = await readLog(file);
    const fold = foldEvents(events, { conversation: false });
    assert.ok(fold.tokens.cache_read + fold.tokens.cache_write > 0, 'the fixture has cache tokens');
    const s = await readLogSummary(file);
    assert.equal(s.outcome, 'open');
    assert.equal(s.tokens, fold.tokens.total);
  });
});
