import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogReadError, readLog, streamLog } from '../../../src/harness/events/reader';
import { EVENT_KINDS, EventSchema } from '../../../src/harness/protocol/events';
import { parseEventLine } from '../../../src/harness/protocol/parse';
import { buildRun, builderFor, ev } from '../../helpers/events';

const FIX = join(__dirname, '..', '..', 'fixtures', 'logs');

describe('log reader', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kite-reader-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('every builder makes a schema-valid event of its kind', () => {
    for (const kind of EVENT_KINDS) {
      const e = builderFor[kind]();
      assert.equal(e.kind, kind);
      assert.ok(EventSchema.safeParse(e).success, kind);
    }
  });

  it('reads the demo run with no problems, every event in order', async () => {
    const r = await readLog(join(FIX, 'demo-run.jsonl'));
    assert.deepEqual(r.problems, []);
    assert.equal(r.format, 'kite');
    assert.equal(r.torn, false);
    assert.deepEqual(r.events, buildRun({ run: 'demo-run' }));
  });

  it('reports a torn last line with its line number and keeps every event before it', async () => {
    const r = await readLog(join(FIX, 'torn-last-line.jsonl'));
    assert.equal(r.events.length, 9);
    assert.equal(r.torn, true);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].line, 10);
    assert.match(r.problems[0].message, /^line 10: torn last line/);
  });

  it('reports malformed middle lines by number and keeps the events after them', async () => {
    const r = await readLog(join(FIX, 'malformed-middle.jsonl'));
    assert.deepEqual(
      r.problems.map((p) => p.line),
      [4, 7],
    );
    assert.match(r.problems[0].message, /^line 4: invalid JSON \(/);
    assert.equal(r.problems[1].message, 'line 7: model.turn: expected number, received string');
    assert.equal(r.events.length, 10);
    assert.equal(r.events.at(-1)?.seq, 11); // the last line was read
    assert.equal(r.torn, false);
  });

  it('reads an empty log as no events and no problems', async () => {
    const r = await readLog(join(FIX, 'empty.jsonl'));
    assert.deepEqual(r, { events: [], problems: [], format: 'kite', torn: false });
  });

  it('refuses a log from a newer Kite with a typed error naming the version and line', async () => {
    await assert.rejects(readLog(join(FIX, 'future-version.jsonl')), (e: unknown) => {
      assert.ok(e instanceof LogReadError);
      assert.equal(e.code, 'unsupported_version');
      assert.equal(e.version, 2);
      assert.equal(e.line, 3);
      assert.match(e.message, /line 3: log version 2 is newer than this Kite reads \(version 1\)/);
      return true;
    });
  });

  it('gives typed errors for a missing file, a directory and a file that is not a log', async () => {
    await assert.rejects(readLog(join(dir, 'nope.jsonl')), (e: unknown) => e instanceof LogReadError && e.code === 'not_found');
    mkdirSync(join(dir, 'd.jsonl'));
    await assert.rejects(readLog(join(dir, 'd.jsonl')), (e: unknown) => e instanceof LogReadError && e.code === 'not_a_log');
    writeFileSync(join(dir, 'readme.jsonl'), '# hello\nthis is prose\n');
    await assert.rejects(readLog(join(dir, 'readme.jsonl')), (e: unknown) => e instanceof LogReadError && e.code === 'not_a_log' && /line 1: invalid JSON/.test(e.message));
  });

  it('reads a line far bigger than the read chunk (5 MB tool output, multi-byte text across chunk edges)', async () => {
    const big = 'é∑🙂x'.repeat(700_000); // ~7 MB of UTF-8 with 2-, 3- and 4-byte characters
    const events = [ev.sessionStart({ seq: 0 }), ev.tool({ seq: 1, output: big }), ev.sessionEnd({ seq: 2 })];
    const p = join(dir, 'huge.jsonl');
    writeFileSync(p, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await readLog(p);
    assert.deepEqual(r.problems, []);
    assert.equal(r.events.length, 3);
    const tool = r.events[1];
    assert.ok(tool.kind === 'tool' && tool.output === big);
  });

  it('reads a log of many chunks line for line: the next chunk is read while this one is parsed, never into it', async () => {
    // ~3.4 MB of distinct ~11 KB lines: every chunk edge falls mid-line, and a read-ahead into the
    // buffer being split would show as a wrong or broken event.
    const events = [ev.sessionStart({ seq: 0 }), ...Array.from({ length: 300 }, (_, i) => ev.tool({ seq: i + 1, output: `${i}:`.padEnd(11_000, String.fromCharCode(97 + (i % 26))) }))];
    const p = join(dir, 'chunks.jsonl');
    writeFileSync(p, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await readLog(p);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.events, events);
  });

  it('accepts CRLF line endings and blank lines', async () => {
    const p = join(dir, 'crlf.jsonl');
    writeFileSync(p, [ev.sessionStart(), ev.user({ seq: 1 })].map((e) => JSON.stringify(e)).join('\r\n\r\n') + '\r\n');
    const r = await readLog(p);
    assert.deepEqual(r.problems, []);
    assert.equal(r.events.length, 2);
  });

  it('a complete last event without its newline still counts', async () => {
    const p = join(dir, 'nonl.jsonl');
    writeFileSync(p, JSON.stringify(ev.sessionStart()) + '\n' + JSON.stringify(ev.user({ seq: 1 })));
    const r = await readLog(p);
    assert.equal(r.events.length, 2);
    assert.equal(r.torn, false);
  });

  it('streamLog hands events with their line numbers without collecting them', async () => {
    const p = join(dir, 's.jsonl');
    writeFileSync(p, JSON.stringify(ev.sessionStart()) + '\n\nnot json\n');
    appendFileSync(p, JSON.stringify(ev.user({ seq: 1 })) + '\n');
    const seen: [string, number][] = [];
    const r = await streamLog(p, (e, line) => seen.push([e.kind, line]));
    assert.deepEqual(seen, [
      ['session_start', 1],
      ['user', 4],
    ]);
    assert.equal(r.count, 2);
    assert.deepEqual(
      r.problems.map((x) => x.line),
      [3],
    );
  });

  describe('original (Python) Kite logs', () => {
    it('normalizes every line into current events with an envelope and the run id from the file name', async () => {
      const r = await readLog(join(FIX, 'python-kite.jsonl'));
      assert.deepEqual(r.problems, []);
      assert.equal(r.format, 'python-kite');
      assert.deepEqual(
        r.events.map((e) => e.kind),
        ['session_start', 'model', 'tool', 'model', 'tool', 'model', 'gate', 'model', 'tool', 'model', 'tool', 'model', 'gate', 'session_end'],
      );
      r.events.forEach((e, i) => {
        assert.equal(e.v, 1);
        assert.equal(e.seq, i);
        assert.equal(e.run, 'python-kite');
      });
      const start = r.events[0];
      assert.ok(start.kind === 'session_start');
      assert.equal(start.feature, 'F4');
      assert.equal(start.model, 'anthropic:claude-sonnet-4-5');
      const model = r.events[1];
      assert.ok(model.kind === 'model' && model.model === 'claude-sonnet-4-5' && model.input_tokens === 1893);
      // tool results get the id of the tool_use they answer
      const tool = r.events[2];
      assert.ok(tool.kind === 'tool' && tool.id === 'toolu_01A' && tool.is_error === false);
      const gates = r.events.filter((e) => e.kind === 'gate');
      assert.deepEqual(
        gates.map((g) => (g.kind === 'gate' ? [g.attempt, g.passed] : null)),
        [
          [1, false],
          [2, true],
        ],
      );
    });

    it('names the field of a bad Python-Kite line', () => {
      const r = parseEventLine('{"t": 1.0, "kind": "model", "turn": "x", "ms": 1, "stop": "end_turn", "content": [], "input_tokens": 1, "output_tokens": 1}', 5);
      assert.ok(!r.ok);
      assert.equal(r.problem.message, 'line 5: model.turn: expected number, received string');
    });
  });

  describe('parseEventLine messages', () => {
    const msg = (text: string) => {
      const r = parseEventLine(text, 9);
      assert.ok(!r.ok);
      return r.problem.message;
    };
    it('names unknown kinds, missing fields, missing envelopes and non-objects', () => {
      assert.equal(msg('{"v":1,"seq":0,"run":"r","t":0,"kind":"teleport"}'), 'line 9: unknown event kind "teleport"');
      assert.match(msg(JSON.stringify({ ...ev.gate(), passed: undefined })), /^line 9: gate\.passed: missing \(expected boolean\)/);
      assert.equal(msg('{"kind":"intent","id":"x"}'), 'line 9: intent: missing envelope field "v" (log version)');
      assert.equal(msg('[1,2]'), 'line 9: not an event: expected a JSON object, got an array');
      assert.equal(msg('{"v":1}'), 'line 9: not an event: no "kind" field');
      assert.equal(msg('{"v":0,"kind":"user"}'), 'line 9: user.v: unknown log version 0 (expected 1)');
    });
  });
});
