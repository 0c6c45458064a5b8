// SessionEnd hooks in a real run: they run just before session_end, told the outcome, and cannot
// change it: a hook that fails or blocks leaves a session_end_hook warning and the same outcome.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hook, hookedRepo, ofKind, runIn, useOwnTrustStore, WRITES_HI } from './kit';

describe('SessionEnd hooks', function () {
  this.timeout(120_000);
  useOwnTrustStore();

  it('run just before session_end with the outcome on stdin', async () => {
    const root = hookedRepo({ SessionEnd: hook('cat > .end-input.json') });
    const { summary, events } = await runIn(root, WRITES_HI());
    assert.equal(summary.outcome, 'done');
    const input = JSON.parse(readFileSync(join(root, '.end-input.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual([input.hook_event_name, input.outcome, input.reason], ['SessionEnd', 'done', 'done']);
    const end = events.findIndex((e) => e.kind === 'session_end');
    assert.equal(end, events.length - 1);
    const h = events[end - 1]!;
    assert.ok(h.kind === 'hook' && h.event === 'SessionEnd' && h.decision === 'allow', 'the hook ran just before session_end');
  });

  it('a SessionEnd hook that crashes, times out or blocks is a session_end_hook warning; the outcome stays', async () => {
    const cases: [string, number | undefined, RegExp][] = [
      ['echo "metrics push failed" >&2; exit 1', undefined, /the hook failed \(exit 1\): metrics push failed/],
      ['sleep 5', 1, /the hook timed out after 1 s/],
      [`echo '{"decision": "block", "reason": "I object"}'`, undefined, /I object/],
    ];
    for (const [command, timeout, said] of cases) {
      const root = hookedRepo({ SessionEnd: hook(command, timeout ? { timeout } : {}) });
      const { summary, events } = await runIn(root, WRITES_HI());
      assert.equal(summary.outcome, 'done', command);
      assert.ok(summary.commit, 'the work was committed as usual');
      const w = ofKind(events, 'warning').filter((x) => x.code === 'session_end_hook');
      assert.equal(w.length, 1, command);
      assert.match(w[0]!.message, /a SessionEnd hook did not succeed \(the outcome stays done\)/);
      assert.match(w[0]!.message, said);
      assert.equal(ofKind(events, 'session_end')[0]!.status, 'done');
    }
  });
});
