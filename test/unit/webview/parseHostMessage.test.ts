// The page's check of what the extension posts (webview-ui/parseHostMessage.ts): a history batch's
// events go through the structural check generated from EventSchema, the rest through zod. It takes
// and refuses exactly what the full schema does, and a refusal names where the message is wrong.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { EventSchema } from '../../../src/harness/protocol/events';
import { compileShapeCheck } from '../../../src/harness/protocol/shapeCheck';
import { HostMessageSchema, describeIssues, trimEventForView } from '../../../src/harness/protocol/webviewMessages';
import { generatePageChecks } from '../../../scripts/pageChecks';
import { isEventShaped } from '../../../webview-ui/generated/isEventShaped.js';
import { parseHostMessage } from '../../../webview-ui/parseHostMessage';

const ROOT = join(__dirname, '..', '..', '..');
const LOGS = join(ROOT, 'test', 'fixtures', 'logs');

function fixtureEvents(): Record<string, unknown>[] {
  return ['demo-run.jsonl', 'failed-gate.jsonl'].flatMap((f) =>
    readFileSync(join(LOGS, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => trimEventForView(JSON.parse(l) as Record<string, unknown>)),
  );
}

const source = { log: '/w/.kite/runs/r.jsonl', title: 'r', live: false };

describe("the page's check of the extension's messages", () => {
  const events = fixtureEvents();

  for (const [path, text] of Object.entries(generatePageChecks())) {
    it(`${path} matches EventSchema (run node scripts/gen-schemas.mjs when this fails)`, () => {
      assert.equal(readFileSync(join(ROOT, path), 'utf8'), text);
    });
  }

  it('the generated check answers as the compiled one, on real events and on any field replaced by any value (fast-check)', () => {
    const compiled = compileShapeCheck(EventSchema);
    for (const e of events) assert.equal(isEventShaped(e), true, `rejected a valid ${String(e.kind)} event`);
    const anyValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: events.length - 1 }), fc.string(), anyValue, (i, key, value) => {
        const keys = Object.keys(events[i]);
        const field = keys[key.length % keys.length] as string;
        const mutated = { ...events[i], [field]: value };
        assert.equal(isEventShaped(mutated), compiled(mutated), `${field} = ${JSON.stringify(value)}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a snapshot and an append with the same events the full schema gives', () => {
    for (const m of [
      { type: 'snapshot', source, total: events.length, events, problems: [{ line: 3, message: 'line 3: invalid JSON' }], loading: true },
      { type: 'append', events: events.slice(0, 5), problems: [], loading: false },
    ]) {
      const fast = parseHostMessage(m);
      const full = HostMessageSchema.parse(m);
      assert.ok(fast.ok);
      assert.deepEqual(fast.message, full);
    }
  });

  it('refuses a batch with an invalid event, naming the event and field as zod does', () => {
    const bad = events.map((e, i) => (i === 4 ? { ...e, seq: 'four' } : e));
    const m = { type: 'append', events: bad, problems: [], loading: false };
    const fast = parseHostMessage(m);
    const full = HostMessageSchema.safeParse(m);
    assert.equal(fast.ok, false);
    assert.equal(full.success, false);
    if (!fast.ok && !full.success) {
      assert.equal(fast.error, describeIssues(full.error));
      assert.match(fast.error, /^events\.4\.seq: /);
    }
  });

  it('refuses a batch whose events are fine but whose envelope is not, naming the field', () => {
    const fast = parseHostMessage({ type: 'snapshot', source, total: -1, events, problems: [], loading: true });
    assert.equal(fast.ok, false);
    if (!fast.ok) assert.match(fast.error, /^total: /);
    const noLoading = parseHostMessage({ type: 'append', events, problems: [] });
    assert.equal(noLoading.ok, false);
    if (!noLoading.ok) assert.match(noLoading.error, /^loading: /);
  });

  it('checks every other message with the full schema', () => {
    assert.deepEqual(parseHostMessage({ type: 'reveal', seq: 3 }), { ok: true, message: { type: 'reveal', seq: 3 } });
    const r = parseHostMessage({ type: 'reveal', seq: -1 });
    assert.equal(r.ok, false);
    assert.equal(parseHostMessage(null).ok, false);
    assert.equal(parseHostMessage({ type: 'detail', seq: 2, event: { ...events[2], seq: 'x' } }).ok, false);
  });
});
