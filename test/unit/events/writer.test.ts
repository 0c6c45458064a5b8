import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDACTED, Redactor } from '../../../src/harness/events/redact';
import { EventWriter, runIdFor, uniqueRunId } from '../../../src/harness/events/writer';
import { EventSchema } from '../../../src/harness/protocol/events';
import { tempDir } from '../loop/kit';

const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('event writer', () => {
  it('appends one valid JSON line per event with the envelope; t is seconds since start, 2 decimals', () => {
    const dir = join(tempDir(), '.kite', 'runs');
    let ms = 1000;
    const w = EventWriter.create(dir, '20260301-101500-F1', () => ms, new Redactor({}));
    w.append({ kind: 'user', reason: 'briefing', text: 'hi' });
    ms += 1234.567;
    const e = w.append({ kind: 'warning', code: 'x', message: 'y' });
    assert.equal(e.t, 1.23);
    assert.equal(e.seq, 1);
    const all = lines(w.path);
    assert.equal(all.length, 2);
    assert.deepEqual(all.map((l) => [l.v, l.seq, l.run, l.t, l.kind]), [
      [1, 0, '20260301-101500-F1', 0, 'user'],
      [1, 1, '20260301-101500-F1', 1.23, 'warning'],
    ]);
    for (const l of all) assert.equal(EventSchema.safeParse(l).success, true);
    assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8'), '*\n');
    assert.equal(w.path, join(dir, '20260301-101500-F1.jsonl'));
  });

  it('never writes into an existing log; uniqueRunId finds a free name', () => {
    const dir = tempDir();
    EventWriter.create(dir, 'r', () => 0).append({ kind: 'warning', code: 'a', message: 'b' });
    assert.throws(() => EventWriter.create(dir, 'r', () => 0), /already exists/);
    assert.equal(uniqueRunId(dir, 'r'), 'r-2');
    assert.equal(runIdFor('F 1', new Date('2026-03-01T10:15:09Z')), '20260301-101509-F_1');
  });

  it('redacts secret env values and key shapes before the line reaches disk, and listeners see the redacted event', () => {
    const dir = tempDir();
    const secret = 'hunter2-very-secret-value';
    const w = EventWriter.create(dir, 'r', () => 0, new Redactor({ MY_API_TOKEN: secret, HOME: '/home/someone', SHORT_KEY: 'abc' }));
    const seen: string[] = [];
    w.subscribe((e) => seen.push(JSON.stringify(e)));
    w.append({ kind: 'user', reason: 'notice', text: `token=${secret} key=sk-ant-api03-AbCdEf0123456789xyz home=/home/someone short=abc "quoted \\ ${secret}"` });
    const text = readFileSync(w.path, 'utf8');
    assert.doesNotMatch(text, /hunter2/);
    assert.doesNotMatch(text, /sk-ant-api03/);
    assert.match(text, /home=\/home\/someone/); // not secret-looking
    assert.match(text, /short=abc/); // too short to be a secret
    assert.equal(text.split(REDACTED).length - 1, 3);
    assert.doesNotMatch(seen[0], /hunter2/);
    assert.equal(EventSchema.safeParse(JSON.parse(text)).success, true);
  });

  it('redacts secrets that contain JSON-escaped characters', () => {
    const dir = tempDir();
    const secret = 'p@ss"w\\rd\n-123456';
    const w = EventWriter.create(dir, 'r', () => 0, new Redactor({ DB_PASSWORD: secret }));
    w.append({ kind: 'user', reason: 'notice', text: `pw=${secret}.` });
    const text = readFileSync(w.path, 'utf8');
    const e = JSON.parse(text) as { text: string };
    assert.equal(e.text, `pw=${REDACTED}.`);
  });

  it('reopen continues seq and t after the last complete event, past a torn last line', () => {
    const dir = tempDir();
    let ms = 0;
    const w = EventWriter.create(dir, 'r', () => ms);
    w.append({ kind: 'warning', code: 'a', message: 'b' });
    ms = 5000;
    w.append({ kind: 'warning', code: 'a', message: 'c' });
    appendFileSync(w.path, '{"v":1,"seq":2,"ki'); // killed mid-write
    ms = 100_000; // a new process, a new clock origin
    const again = EventWriter.reopen(w.path, () => ms + 2000);
    const e = again.append({ kind: 'warning', code: 'a', message: 'd' });
    assert.equal(e.seq, 2);
    assert.equal(e.t, 5);
    assert.equal(e.run, 'r');
    const raw = readFileSync(w.path, 'utf8').split('\n');
    assert.equal(raw[2], '{"v":1,"seq":2,"ki'); // the torn line stays where it was
    assert.equal(JSON.parse(raw[3]).message, 'd');
  });

  it('reopen finds the last event of a long log whose last lines are larger than the read window', () => {
    const dir = tempDir();
    const w = EventWriter.create(dir, 'big', () => 0);
    for (let i = 0; i < 50; i++) w.append({ kind: 'warning', code: 'fill', message: 'x'.repeat(10_000) });
    w.append({ kind: 'warning', code: 'huge', message: 'y'.repeat(300_000) }); // one line > 64 KB
    appendFileSync(w.path, '{"v":1,"seq":51,"kind":"war'); // and a torn line after it
    const e = EventWriter.reopen(w.path, () => 0).append({ kind: 'warning', code: 'after', message: '' });
    assert.equal(e.seq, 51);
    const last = readFileSync(w.path, 'utf8').trimEnd().split('\n').pop() ?? '';
    assert.equal((JSON.parse(last) as { code: string }).code, 'after');
  });
});
