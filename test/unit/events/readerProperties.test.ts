// The log reader against random and damaged input (fast-check): random bytes, truncations and
// single-byte edits of a real log and of a chained log written by EventWriter. The reader never
// throws anything but LogReadError, every bad line is a reported problem with its line number,
// and an edit of a chained log is always reported (the last line excepted: nothing after it
// vouches for it, see events/chain.ts).
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { EventWriter } from '../../../src/harness/events/writer';
import { LogReadError, readLog, type ReadResult } from '../../../src/harness/events/reader';
import { Redactor } from '../../../src/harness/events/redact';
import type { EventBody } from '../../../src/harness/protocol/events';
import { tempDir } from '../loop/kit';

const DEMO = join(__dirname, '..', '..', 'fixtures', 'logs', 'demo-run.jsonl');
const dir = tempDir('kite-reader-props-');
let n = 0;

/** The demo run's events written again by EventWriter: the same log, chained. */
async function chainedDemo(): Promise<Buffer> {
  const w = EventWriter.create(dir, 'chained', () => 0, new Redactor({}));
  for (const e of (await readLog(DEMO)).events) {
    const { v: _v, seq: _s, run: _r, t: _t, prev: _p, ...body } = e;
    w.append(body as EventBody);
  }
  return readFileSync(w.path);
}

/** Reads the bytes as a log file: the result, or the LogReadError (anything else fails the test). */
async function read(bytes: Uint8Array): Promise<ReadResult | LogReadError> {
  const path = join(dir, `case-${n++}.jsonl`);
  writeFileSync(path, bytes);
  try {
    return await readLog(path);
  } catch (e) {
    if (e instanceof LogReadError) return e;
    throw e;
  }
}

function nonBlankLines(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes).toString('utf8').split('\n');
  return text.flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
}

/** Every problem names a line that exists; every non-blank line is an event or a problem. */
function assertAccounted(bytes: Uint8Array, r: ReadResult | LogReadError): void {
  if (r instanceof LogReadError) {
    assert.ok(r.line === null || r.line >= 1, r.message);
    return;
  }
  const lines = nonBlankLines(bytes);
  for (const p of r.problems) {
    assert.ok(lines.includes(p.line), `problem on line ${p.line}, which is blank or absent: ${p.message}`);
    assert.match(p.message, new RegExp(`^line ${p.line}: `));
  }
  const bad = new Set(r.problems.filter((p) => !p.chain).map((p) => p.line));
  assert.equal(r.events.length + bad.size, lines.length, 'each line is an event or a reported problem');
}

const detected = (r: ReadResult | LogReadError): boolean => r instanceof LogReadError || r.problems.length > 0;

describe('log reader properties (fast-check)', function () {
  this.timeout(20_000);
  let demo: Buffer;
  let chained: Buffer;
  before(async () => {
    demo = readFileSync(DEMO);
    chained = await chainedDemo();
  });

  it('a chained log written by EventWriter reads with no problems: the first prev is null, every later one a hash', async () => {
    const r = await read(chained);
    assert.ok(!(r instanceof LogReadError));
    assert.deepEqual(r.problems, []);
    assert.ok(r.events.length > 10);
    assert.ok(r.events.every((e) => (e.seq === 0 ? e.prev === null : typeof e.prev === 'string')));
  });

  it('random bytes and random lines: only LogReadError, every bad line reported', async () => {
    const line = fc.oneof(fc.string(), fc.constantFrom('{}', '{"v":1}', '{"kind":"model"}', 'null', '[]', '{"v":1,"seq":0,"run":"r","t":0,"kind":"warning","code":"c","message":"m","prev":"zz"}'));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.array(line, { maxLength: 12 }).map((ls) => Buffer.from(ls.join('\n')))), async (bytes) => {
        assertAccounted(bytes, await read(bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('random truncations of the demo log and of the chained log: at a line end no problem, else exactly one torn last line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(), async (useChained, at) => {
        const full = useChained ? chained : demo;
        const cut = full.subarray(0, at % (full.length + 1));
        const r = await read(cut);
        assertAccounted(cut, r);
        if (r instanceof LogReadError) return; // nothing left but a piece of the first line
        // A cut just before a line break leaves a whole event without its newline: not torn.
        const atLineEnd = cut.length === 0 || cut[cut.length - 1] === 0x0a || full[cut.length] === 0x0a;
        assert.equal(r.torn, !atLineEnd);
        assert.equal(r.problems.length, atLineEnd ? 0 : 1, JSON.stringify(r.problems));
      }),
      { numRuns: 150 },
    );
  });

  it('single-byte edits: the demo log stays accounted for; an edit of the chained log before its last line is always reported', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), async (useChained, where, delta) => {
        const full = useChained ? chained : demo;
        const edited = Buffer.from(full);
        const i = where % full.length;
        edited[i] = (edited[i] + delta) % 256; // never the same byte
        const r = await read(edited);
        assertAccounted(edited, r);
        const lastLineStart = full.lastIndexOf(0x0a, full.length - 2) + 1;
        if (useChained && i < lastLineStart) assert.ok(detected(r), `the edit of byte ${i} went unnoticed`);
      }),
      { numRuns: 300 },
    );
  });

  it('a reopened chained log continues its chain after a torn last line', async () => {
    const w = EventWriter.create(dir, 'reopened', () => 0, new Redactor({}));
    w.append({ kind: 'warning', code: 'a', message: 'é first' });
    appendFileSync(w.path, Buffer.from('{"v":1,"seq":1,"kind":"warn\xc3', 'latin1')); // torn, cut inside a UTF-8 character
    EventWriter.reopen(w.path, () => 0, new Redactor({})).append({ kind: 'warning', code: 'b', message: 'after' });
    const r = await read(readFileSync(w.path));
    assert.ok(!(r instanceof LogReadError));
    assert.deepEqual(
      r.problems.map((p) => [p.line, p.chain ?? false]),
      [[2, false]],
      'only the torn line itself',
    );
  });
});
