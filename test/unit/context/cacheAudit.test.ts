// kite cache-audit: a changed system prompt between two runs is listed with its diff and the
// dollars of the rewritten cache; a prefix_changed warning and a compaction within a run are listed.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheAuditMain } from '../../../src/harness/cli/cacheAuditCommand';
import { costOf, priceOf } from '../../../src/harness/model/pricing';
import type { KiteEvent } from '../../../src/harness/protocol/events';
import { ev, MODEL_ID } from '../../helpers/events';
import { tempDir } from '../loop/kit';
import type { CacheAudit } from '../../../src/harness/events/cacheAudit';

function run(id: string, at: string, system: string, extra: KiteEvent[] = []): string {
  const events: KiteEvent[] = [ev.sessionStart({ run: id, started_at: at, system }), ev.user({ run: id }), ev.model({ run: id, cache_creation_input_tokens: 4000 }), ...extra];
  return events.map((e, i) => JSON.stringify({ ...e, seq: i, prev: undefined })).join('\n') + '\n';
}

function capture() {
  const o = { stdout: '', stderr: '', out: (s: string) => (o.stdout += s + '\n'), err: (s: string) => (o.stderr += s + '\n') };
  return o;
}

describe('kite cache-audit', () => {
  it('lists a system prompt changed between runs with its diff and cost, and the breaks within a run', async () => {
    const root = tempDir();
    const dir = join(root, '.kite', 'runs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.jsonl'), run('a', '2026-03-01T10:00:00.000Z', 'You are Kite.\nBe careful.'));
    const later = [ev.warning({ run: 'b', code: 'prefix_changed', message: 'The prompt prefix changed between turns (tools reordered)' }), ev.model({ run: 'b', turn: 2, cache_creation_input_tokens: 1000 }), ev.compaction({ run: 'b' }), ev.model({ run: 'b', turn: 3, cache_creation_input_tokens: 2000 })];
    writeFileSync(join(dir, 'b.jsonl'), run('b', '2026-03-01T11:00:00.000Z', 'You are Kite.\nBe careful. Today is 2026-03-01.', later));
    const o = capture();
    assert.equal(await cacheAuditMain([root, '--json'], o), 0, o.stderr);
    const audit = JSON.parse(o.stdout) as CacheAudit;
    assert.deepEqual(audit.runs.map((r) => r.run), ['a', 'b']);
    assert.equal(audit.changes.length, 1);
    const c = audit.changes[0]!;
    assert.deepEqual([c.from, c.to, c.part], ['a', 'b', 'system']);
    assert.match(c.diff, /^-Be careful\.$/m);
    assert.match(c.diff, /^\+Be careful\. Today is 2026-03-01\.$/m);
    const p = priceOf(MODEL_ID);
    const rewrite = (n: number) => costOf({ input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: n }, p) - costOf({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: n }, p);
    assert.ok(Math.abs(c.usd - rewrite(4000)) < 1e-12);
    const b = audit.runs[1]!;
    assert.deepEqual(b.breaks.map((x) => x.kind), ['prefix_changed', 'compaction']);
    assert.ok(Math.abs(b.breaks[0]!.usd - rewrite(1000)) < 1e-12);
    assert.ok(Math.abs(b.breaks[1]!.usd - rewrite(2000)) < 1e-12);

    const text = capture();
    assert.equal(await cacheAuditMain([root], text), 0);
    assert.match(text.stdout, /a → b: system changed/);
    assert.match(text.stdout, /b #\d+ compaction/);
  });
});
