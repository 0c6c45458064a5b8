// The envelope peek (events/envelopePeek.ts) must agree with JSON.parse on every line Kite's own
// writer writes, and say nothing (null: parse it as usual) for any line it cannot vouch for.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allowsOrAsks, approvesCall, KindBytes, peekEnvelope, prevHex } from '../../../src/harness/events/envelopePeek';
import { EventWriter } from '../../../src/harness/events/writer';
import { EVENT_KINDS, type KiteEvent } from '../../../src/harness/protocol/events';
import { buildRun, ev, strip } from '../../helpers/events';
import { writeLargeLog } from '../../helpers/largeLog';
import { tempDir } from '../loop/kit';

const WANTED = ['proposed', 'approval_request', 'intent', 'model_retry'];
const wanted = new KindBytes(WANTED);
/** Kind and prev as the reader takes them: a prev that is not 64 lowercase hex digits is not the layout. */
function peek(line: string): { kind: string; prev: string | null } | null {
  const bytes = Buffer.from(line, 'utf8');
  const p = peekEnvelope(bytes, wanted);
  if (p === null) return null;
  if (p.prevAt === null) return { kind: p.kind, prev: null };
  const prev = prevHex(bytes, p.prevAt);
  return prev === null ? null : { kind: p.kind, prev };
}

/** A log as the writer writes it: the demo run plus one event of every other kind, with a chain. */
function writtenLines(): string[] {
  const dir = tempDir();
  const w = EventWriter.create(dir, '20260301-101500-F4');
  for (const e of buildRun()) w.append(strip(e));
  w.append(strip(ev.modelRetry()));
  for (let i = 0; i < 3; i++) w.append(strip(ev.intent({ id: `late${i}` })));
  return readFileSync(w.path, 'utf8').split('\n').filter(Boolean);
}

/** The lines the writer writes for a session_start followed by `events`. */
function writtenAfterStart(events: KiteEvent[]): string[] {
  const w = EventWriter.create(tempDir(), '20260301-101500-F4');
  for (const e of [ev.sessionStart(), ...events]) w.append(strip(e));
  return readFileSync(w.path, 'utf8').split('\n').filter(Boolean);
}

/** Each variant of `line` (named by what changed) is left to the parser. */
function assertParsed(line: string, kinds: KindBytes, variants: Record<string, string>): void {
  for (const [what, v] of Object.entries(variants)) {
    assert.notEqual(v, line, `${what}: the variant differs`);
    assert.equal(peekEnvelope(Buffer.from(v), kinds), null, what);
  }
}

describe('envelope peek: the kind and prev of a line without parsing it', () => {
  it('agrees with JSON.parse on every line the writer writes: the wanted kinds found, the others not', () => {
    const lines = writtenLines();
    const kinds = new Set(lines.map((l) => (JSON.parse(l) as { kind: string }).kind));
    for (const k of WANTED) assert.ok(kinds.has(k), `the log has a ${k} line`);
    let found = 0;
    for (const line of lines) {
      const parsed = JSON.parse(line) as { kind: string; prev: string | null };
      const p = peek(line);
      if (WANTED.includes(parsed.kind)) {
        assert.deepEqual(p, { kind: parsed.kind, prev: parsed.prev }, line.slice(0, 160));
        found++;
      } else assert.equal(p, null, `${parsed.kind} is not wanted`);
    }
    assert.ok(found >= 8);
    assert.ok(EVENT_KINDS.length > WANTED.length);
  });

  it('a line in any other layout is left to the parser (null)', () => {
    const line = writtenLines().find((l) => l.includes('"kind":"intent"'))!;
    assert.notEqual(peek(line), null);
    const variants: Record<string, string> = {
      'keys in another order': line.replace('{"v":1,"seq":', '{"seq":').replace(',"run":', ',"v":1,"run":'),
      'a space after a colon': line.replace('"seq":', '"seq": '),
      'a carriage return at the end': `${line}\r`,
      'a space after the closing brace': `${line} `,
      'not closed': line.slice(0, line.lastIndexOf('"')),
      'cut after the kind': line.slice(0, line.indexOf('"kind":"intent"') + 16),
      'seq with a leading zero': line.replace(/"seq":(\d+)/, '"seq":0$1'),
      'seq a string': line.replace(/"seq":(\d+)/, '"seq":"$1"'),
      'negative t': line.replace(/"t":([\d.]+)/, '"t":-$1'),
      't a string': line.replace(/"t":([\d.]+)/, '"t":"$1"'),
      'a newer version': line.replace('{"v":1,', '{"v":2,'),
      'prev in upper case': line.replace(/"prev":"([0-9a-f]{64})"/, (_m, h: string) => `"prev":"${h.toUpperCase()}"`),
      'prev one digit short': line.replace(/"prev":"[0-9a-f]([0-9a-f]{63})"/, '"prev":"$1"'),
      'prev a number': line.replace(/"prev":"[0-9a-f]{64}"/, '"prev":12'),
      'a run id with an escape': line.replace(/"run":"([^"]*)"/, '"run":"a\\"b"'),
      'a kind that only starts like a wanted one': line.replace('"kind":"intent"', '"kind":"intention"'),
      'a kind not followed by a comma': line.replace('"kind":"intent",', '"kind":"intent" ,'),
    };
    for (const [what, v] of Object.entries(variants)) {
      assert.notEqual(v, line, `${what}: the variant differs`);
      assert.equal(peek(v), null, what);
    }
  });

  it('prev null, an exponent in t and a long run id are in the layout', () => {
    const base = '{"v":1,"seq":0,"run":"R","t":0,"prev":null,"kind":"intent","id":"c1","name":"run","effect":"exec","args":{"command":"ls"},"padding":"' + 'x'.repeat(80) + '"}';
    assert.deepEqual(peek(base), { kind: 'intent', prev: null });
    assert.deepEqual(peek(base.replace('"t":0,', '"t":1.5e+21,')), { kind: 'intent', prev: null });
    const long = base.replace('"run":"R"', `"run":"${'r'.repeat(300)}"`);
    assert.deepEqual(peek(long), { kind: 'intent', prev: null });
  });

  it('an approval is wanted only when it approves (approvesCall): a denial and an edit, or another layout, are parsed', () => {
    const approvals = new KindBytes(WANTED, { approval: approvesCall });
    const lines = writtenAfterStart([
      ev.approval({ id: 'toolu_01Ab-9', decision: 'approve' }),
      ev.approval({ id: 'c2', decision: 'deny', reason: 'not that file' }),
      ev.approval({ id: 'c3', decision: 'edit', reason: null, edited_args: { path: 'b.py', content: 'x = 2\n' } }),
      ev.approval({ id: 'c4', decision: 'approve', always: true }),
    ]);
    assert.deepEqual(lines.map((l) => peekEnvelope(Buffer.from(l), approvals)?.kind ?? null), [null, 'approval', null, null, 'approval']);
    const approve = lines[1];
    assertParsed(approve, approvals, {
      'an id with an escape': approve.replace('"id":"toolu_01Ab-9"', '"id":"to\\"lu"'),
      'an empty id': approve.replace('"id":"toolu_01Ab-9"', '"id":""'),
      'the decision not right after the id': approve.replace('"id":"toolu_01Ab-9","decision":"approve"', '"id":"toolu_01Ab-9","reason":null,"decision":"approve"'),
      'a decision that only starts like approve': approve.replace('"decision":"approve"', '"decision":"approved"'),
      'the id after the decision': approve.replace('"id":"toolu_01Ab-9","decision":"approve",', '"decision":"approve","id":"toolu_01Ab-9",'),
    });
    // Rowless kinds keep their own rule (no check of their body).
    assert.equal(peekEnvelope(Buffer.from(writtenLines().find((l) => l.includes('"kind":"intent"'))!), approvals)?.kind, 'intent');
  });

  it('a policy decision is wanted only when it allows or asks (allowsOrAsks): a denial, or another layout, is parsed', () => {
    const policies = new KindBytes([], { policy: allowsOrAsks });
    const lines = writtenAfterStart((['allow', 'ask', 'deny'] as const).map((decision) => ev.policy({ id: `c-${decision}`, name: 'mcp__fs__read_file', decision, rule: `${decision}:x` })));
    assert.deepEqual(lines.map((l) => peekEnvelope(Buffer.from(l), policies)?.kind ?? null), [null, 'policy', 'policy', null]);
    const allow = lines[1];
    assertParsed(allow, policies, {
      'a name with an escape': allow.replace('"name":"mcp__fs__read_file"', '"name":"a\\u0041"'),
      'a name not ASCII': allow.replace('"name":"mcp__fs__read_file"', '"name":"lire_fiché"'),
      'an empty name': allow.replace('"name":"mcp__fs__read_file"', '"name":""'),
      'the name after the decision': allow.replace('"name":"mcp__fs__read_file","decision":"allow"', '"decision":"allow","name":"mcp__fs__read_file"'),
      'a decision that only starts like allow': allow.replace('"decision":"allow"', '"decision":"allowed"'),
    });
  });

  it('the bench generator\'s realistic mix (3,000 events) peeks as it parses', () => {
    const path = join(tempDir(), 'big.jsonl');
    writeLargeLog(path, 3000);
    let found = 0;
    for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
      const parsed = JSON.parse(line) as { kind: string; prev: string | null };
      const p = peek(line);
      if (WANTED.includes(parsed.kind)) {
        assert.deepEqual(p, { kind: parsed.kind, prev: parsed.prev });
        found++;
      } else assert.equal(p, null);
    }
    assert.ok(found > 1000, `${found} lines of wanted kinds`);
  });
});
