// The debugger reads big logs lazily (replay/lazyLog.ts): a line scan feeds the index, events are
// parsed when looked at. Whatever the path, the person must see the same run: same events, same
// index, same transcript as reading the log whole, and the same problems (some found later).
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLog } from '../../../src/harness/events/reader';
import { EventWriter } from '../../../src/harness/events/writer';
import type { EventBody, KiteEvent } from '../../../src/harness/protocol/events';
import type { LogProblem } from '../../../src/harness/protocol/parse';
import { EventIndex } from '../../../src/harness/replay/eventIndex';
import { openLazyLog, verifyChain } from '../../../src/harness/replay/lazyLog';
import { openReplay } from '../../../src/harness/replay/openReplay';
import { buildTranscript, transcriptText } from '../../../src/harness/replay/transcript';
import { buildRun } from '../../helpers/events';
import { writeLargeLog } from '../../helpers/largeLog';
import { tempDir } from '../loop/kit';

const bodyOf = (e: KiteEvent): EventBody => {
  const { v: _v, seq: _s, run: _r, t: _t, prev: _p, ...body } = e as KiteEvent & { prev?: unknown };
  return body as EventBody;
};

/** The demo run through the real writer: args stored as references, an edited write, a hash chain. */
function writeDemo(): string {
  const w = EventWriter.create(tempDir(), 'demo', () => 0);
  for (const e of buildRun()) w.append(bodyOf(e));
  return w.path;
}

const TABLES = ['tokens', 'cost', 'turns', 'gateFailures', 'retries', 'warnings', 'callOfEvent', 'modelOfGroup', 'modelOrdinal', 'groupOfEvent', 'lastGate', 'lastProgress', 'notable'] as const;

async function sameAsReadingWhole(path: string): Promise<void> {
  const whole = await readLog(path, { validation: 'structural' });
  const lazy = await openLazyLog(path);
  assert.ok(lazy, 'a Kite log is read lazily');
  try {
    assert.equal(lazy.log.length, whole.events.length);
    for (let i = 0; i < whole.events.length; i++) assert.deepEqual(lazy.log.at(i), whole.events[i], `event ${i}`);
    const eager = new EventIndex(whole.events);
    for (const t of TABLES) assert.deepEqual(lazy.index[t], eager[t], t);
    assert.deepEqual(lazy.index.tokenDetail, eager.tokenDetail);
    assert.deepEqual(lazy.index.calls, eager.calls);
    assert.deepEqual(lazy.index.groups, eager.groups);
    assert.deepEqual([...lazy.index.writesByPath], [...eager.writesByPath]);
    assert.deepEqual(lazy.index.sessionStart, eager.sessionStart);
    assert.equal(lazy.index.lastSessionEnd, eager.lastSessionEnd);
    assert.equal(transcriptText(buildTranscript(lazy.log, 'x')), transcriptText(buildTranscript(whole.events, 'x')));
    assert.deepEqual(lazy.problems, whole.problems.filter((p) => !p.chain));
  } finally {
    lazy.log.close();
  }
}

describe('lazily read replay logs', () => {
  it('a log written by Kite (args stored as references, an edited write) reads the same as reading it whole', async () => {
    await sameAsReadingWhole(writeDemo());
  });

  it('a large generated log reads the same: events, index tables, transcript', async () => {
    const path = join(tempDir(), 'big.jsonl');
    writeLargeLog(path, 3000);
    await sameAsReadingWhole(path);
  });

  it('malformed middle lines and a torn last line are problems with their line numbers, the rest is kept', async () => {
    const path = writeDemo();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    lines.splice(3, 0, '{"v":1,"seq":3,"kind":"model", oops}', '', '[1,2]');
    writeFileSync(path, lines.join('\n') + '\n' + lines[5].slice(0, 40));
    await sameAsReadingWhole(path);
    const lazy = await openLazyLog(path);
    assert.deepEqual(lazy?.problems.map((p) => p.line), [4, 6, lines.length + 1]);
    lazy?.log.close();
  });

  it('a line whose envelope reads but whose body is broken is reported when first shown, as an unreadable_line warning', async () => {
    const path = writeDemo();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    const at = lines.findIndex((l) => JSON.parse(l).kind === 'tool');
    lines[at] = lines[at].replace(/"ms":\d+/, '"ms":"slow"');
    writeFileSync(path, lines.join('\n') + '\n');
    const problems: LogProblem[] = [];
    const lazy = await openLazyLog(path, { onProblem: (p) => problems.push(p) });
    assert.ok(lazy);
    assert.deepEqual(lazy.problems, [], 'the scan does not read "ms"');
    const e = lazy.log.at(at);
    assert.equal(e.kind, 'warning');
    assert.ok(e.kind === 'warning' && e.code === 'unreadable_line' && e.message.includes(`line ${at + 1}`) && e.message.includes('ms'), JSON.stringify(e));
    assert.equal(problems.length, 1);
    assert.equal(problems[0].line, at + 1);
    lazy.log.close();
  });

  it('the hash chain is checked after open: an edited line is reported on the line after it, as the reader does', async () => {
    const path = writeDemo();
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    lines[6] = lines[6].replace(/"t":[0-9.]+/, '"t":99');
    writeFileSync(path, lines.join('\n') + '\n');
    const whole = await readLog(path);
    const lazy = await openLazyLog(path);
    assert.ok(lazy);
    const later: LogProblem[] = [];
    await verifyChain(lazy.log, (p) => later.push(p));
    assert.deepEqual(later, whole.problems.filter((p) => p.chain));
    assert.equal(later.length, 1);
    assert.equal(later[0].line, 8);
    lazy.log.close();
  });

  it('a log of the original Python Kite is read whole (its lines are normalized in order)', async () => {
    const o = await openReplay(join(__dirname, '../../fixtures/logs/python-kite.jsonl'));
    assert.equal(o.lazy, null);
    assert.equal(o.format, 'python-kite');
    assert.ok(o.runtime.length > 3);
  });

  it('events appended after open are not part of the replay', async () => {
    const path = writeDemo();
    const lazy = await openLazyLog(path);
    assert.ok(lazy);
    const n = lazy.log.length;
    appendFileSync(path, readFileSync(path, 'utf8').split('\n')[1] + '\n');
    assert.equal(lazy.log.length, n);
    assert.equal(lazy.log.at(n - 1).kind, (await readLog(path)).events[n - 1].kind);
    lazy.log.close();
  });
});
