// A judged check is a model call: its tokens and dollars count in the run's totals wherever they
// are shown — the reducer, and the debugger's index whether the log is read whole or lazily (a big
// log is indexed from a line scan, and gate events are read whole for exactly this).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineHash } from '../../../src/harness/events/chain';
import { readLog } from '../../../src/harness/events/reader';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { foldEvents } from '../../../src/harness/protocol/reducer';
import { EventIndex } from '../../../src/harness/replay/eventIndex';
import { openReplay } from '../../../src/harness/replay/openReplay';
import { writeLargeLog } from '../../helpers/largeLog';
import { tempDir } from '../loop/kit';

const judge = {
  model: 'script:judge.json', pass: 'yes' as const, verdict: 'no' as const, reasons: 'README.md has no example', evidence_chars: 1200, truncated: false, files: [],
  reply: [{ type: 'text' as const, text: '{"verdict":"no","reasons":"README.md has no example"}' }],
  input_tokens: 3000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 500, cost_usd: 0.0125,
};

/** A generated log whose first gate also asked a judge, re-chained so it reads as Kite wrote it. */
function judgedLog(dir: string): string {
  const path = join(dir, 'judged.jsonl');
  writeLargeLog(path, 3000);
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  let judged = false;
  let prev: string | null = null;
  const out = lines.map((line) => {
    const e = JSON.parse(line) as KiteEvent;
    if (e.kind === 'gate' && !judged) {
      judged = true;
      e.checks = [...e.checks, { command: 'README documents --since', exit_code: 1, ms: 900, timed_out: false, output_tail: 'no: README.md has no example', source: 'judge', judge }];
    }
    if ('prev' in e) e.prev = prev;
    const text = JSON.stringify(e);
    prev = lineHash(Buffer.from(text));
    return text;
  });
  assert.ok(judged, 'the generated log has a gate');
  writeFileSync(path, `${out.join('\n')}\n`);
  return path;
}

describe('judged checks in the debugger totals', () => {
  it('the eager and the lazy index both count the judge call, as the reducer does', async () => {
    const path = judgedLog(tempDir());
    const { events, problems } = await readLog(path);
    assert.deepEqual(problems, []);
    const last = events.length - 1;
    const folded = foldEvents(events);
    const eager = new EventIndex(events);
    const plain = await readLog(path);
    const withoutJudge = foldEvents(plain.events.map((e) => (e.kind === 'gate' ? { ...e, checks: e.checks.filter((c) => !c.judge) } : e)));
    assert.equal(folded.tokens.total - withoutJudge.tokens.total, 3600, 'the reducer counts the judge');
    assert.equal(eager.tokens[last], folded.tokens.total);
    assert.ok(Math.abs(eager.cost[last] - folded.cost_usd) < 1e-9);
    const opened = await openReplay(path);
    assert.ok(opened.lazy, 'a log read lazily');
    try {
      const lazy = opened.runtime.index;
      assert.equal(lazy.tokens[last], folded.tokens.total);
      assert.ok(Math.abs(lazy.cost[last] - folded.cost_usd) < 1e-9);
    } finally {
      opened.lazy.close();
    }
  });
});
