// The structural check the views' reader uses instead of zod (protocol/shapeCheck.ts): it accepts
// every event zod accepts, and it never lets through a value of the wrong JSON type — whatever
// field of a real event is replaced by whatever other value (fast-check), an event the check
// accepts is one zod accepts too, or one zod rejects only for a value refinement (a range, a
// regex), never for a type. And reading a log structurally gives the same events as reading it fully.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readLog } from '../../../src/harness/events/reader';
import { EventSchema } from '../../../src/harness/protocol/events';
import { compileShapeCheck } from '../../../src/harness/protocol/shapeCheck';

const LOGS = join(__dirname, '..', '..', 'fixtures', 'logs');
const check = compileShapeCheck(EventSchema);
const REFINEMENTS = new Set(['too_small', 'too_big', 'invalid_format', 'not_multiple_of']);

function fixtureEvents(): Record<string, unknown>[] {
  return ['demo-run.jsonl', 'failed-gate.jsonl'].flatMap((f) =>
    readFileSync(join(LOGS, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}

/** Every [path, value] leaf and branch of a JSON value, so a mutation can hit any depth. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length ? [at] : [];
  if (Array.isArray(v)) return [...here, ...v.flatMap((x, i) => paths(x, [...at, i]))];
  if (v && typeof v === 'object') return [...here, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, k]))];
  return here;
}

function withValue(e: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(e) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

describe('structural check of events (views and reports)', () => {
  const events = fixtureEvents();

  it('accepts every event of the fixture logs that zod accepts', () => {
    assert.ok(events.length > 20);
    for (const e of events) if (EventSchema.safeParse(e).success) assert.ok(check(e), `rejected a valid ${String(e.kind)} event`);
  });

  it('never accepts an event whose field has the wrong type, at any depth (fast-check)', () => {
    const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
    const cases = fc.integer({ min: 0, max: events.length - 1 }).chain((i) => {
      const p = paths(events[i]);
      return fc.tuple(fc.constant(i), fc.integer({ min: 0, max: p.length - 1 }).map((j) => p[j]), anyValue);
    });
    fc.assert(
      fc.property(cases, ([i, path, value]) => {
        const mutated = withValue(events[i], path, value);
        if (!check(mutated)) return; // rejected: the reader falls back to zod, which explains why
        const r = EventSchema.safeParse(mutated);
        if (r.success) return;
        const typeIssues = r.error.issues.filter((x) => !REFINEMENTS.has(x.code));
        assert.deepEqual(typeIssues, [], `the check let through ${path.join('.')} = ${JSON.stringify(value)}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('reading a log structurally gives the same events and problems as reading it with zod', async () => {
    for (const f of ['demo-run.jsonl', 'failed-gate.jsonl', 'malformed-middle.jsonl', 'torn-last-line.jsonl', 'python-kite.jsonl']) {
      const full = await readLog(join(LOGS, f));
      const fast = await readLog(join(LOGS, f), { validation: 'structural' });
      assert.deepEqual(fast.problems, full.problems, f);
      assert.deepEqual(fast.events, full.events, f);
    }
  });
});

describe('structural check of zod constructs', () => {
  it('a strict object rejects an unknown key, a loose one keeps accepting it', async () => {
    const { z } = await import('zod');
    const strict = compileShapeCheck(z.strictObject({ a: z.string() }));
    const loose = compileShapeCheck(z.looseObject({ a: z.string() }));
    assert.equal(strict({ a: 'x' }), true);
    assert.equal(strict({ a: 'x', b: 1 }), false);
    assert.equal(loose({ a: 'x', b: 1 }), true);
    assert.equal(z.strictObject({ a: z.string() }).safeParse({ a: 'x', b: 1 }).success, false);
  });
});

describe('structural check coverage', () => {
  it('every event kind compiles to a structural check (a new zod construct in an event schema would silently cost speed)', async () => {
    const { unsupportedOptions } = await import('../../../src/harness/protocol/shapeCheck');
    assert.deepEqual(unsupportedOptions(EventSchema), []);
  });

  it('a tuple has exactly its items, each of its type', async () => {
    const { z } = await import('zod');
    const pair = compileShapeCheck(z.tuple([z.number(), z.string()]));
    assert.deepEqual([pair([1, 'a']), pair([1]), pair([1, 'a', 2]), pair(['a', 1]), pair('1,a')], [true, false, false, false, false]);
  });

  it('a kind with a construct the check does not know is left to zod, not rejected', async () => {
    const { z } = await import('zod');
    const schema = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), n: z.number() }), z.object({ kind: z.literal('b'), when: z.date() })]);
    const fast = compileShapeCheck(schema);
    assert.equal(fast({ kind: 'a', n: 1 }), true);
    assert.equal(fast({ kind: 'b', when: new Date() }), false); // "not sure": the reader asks zod
  });
});
