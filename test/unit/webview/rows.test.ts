import assert from 'node:assert/strict';
import { EVENT_KINDS } from '../../../src/harness/protocol/events';
import { trimEventForView } from '../../../src/harness/protocol/webviewMessages';
import { ACTION_DIFF, ACTION_OUTPUT, ACTION_RAW, ACTION_REPLAY, ACTION_RESTORE, haystack, rowFromEvent, summarizeArgs, type RowContext } from '../../../webview-ui/model/rows';
import { builderFor, ev } from '../../helpers/events';

const ctx: RowContext = { group: 2, turn: 3, head: false, toolNameOf: (id) => (id === 'toolu_01' ? 'write_file' : null) };

describe('timeline rows', () => {
  it('builds a row with a title and a summary for every event kind', () => {
    for (const kind of EVENT_KINDS) {
      const row = rowFromEvent(builderFor[kind](), 7, ctx);
      assert.equal(row.kind, kind);
      assert.equal(row.index, 7);
      assert.ok(row.title.length > 0, `${kind} has no title`);
      assert.ok(row.actions & ACTION_RAW && row.actions & ACTION_REPLAY, `${kind} cannot show its raw event or replay from it`);
      assert.ok(row.actions & ACTION_RESTORE, `${kind} offers no "Restore workspace to here"`);
    }
  });

  it('shows a model turn with stop reason, the four token counts, cost and duration', () => {
    const row = rowFromEvent(ev.model({ turn: 3, stop: 'tool_use', ms: 1500, input_tokens: 410, cache_read_input_tokens: 2200, cache_creation_input_tokens: 12, output_tokens: 70, cost_usd: 0.0029, content: [{ type: 'text', text: 'Running the tests.\nmore' }, { type: 'tool_use', id: 't', name: 'run', input: {} }] }), 0, { ...ctx, head: true });
    assert.equal(row.title, 'Turn 3');
    assert.equal(row.status, 'tool_use');
    assert.deepEqual(row.tokens, { input: 410, cacheRead: 2200, cacheWrite: 12, output: 70, estimated: false });
    assert.equal(row.cost, 0.0029);
    assert.equal(row.ms, 1500);
    assert.equal(row.summary, 'Running the tests.  → run');
    assert.equal(row.level, 'info');
    assert.equal(rowFromEvent(ev.model({ stop: 'max_tokens' }), 0, ctx).level, 'warn');
  });

  it("names each kind of text Kite gives the model, and the person's own message as theirs", () => {
    const title = (reason: 'briefing' | 'gate_feedback' | 'notice' | 'steer') => rowFromEvent(ev.user({ reason, text: 'Use tabs.\nAnd keep the flag.' }), 0, ctx);
    assert.deepEqual(['briefing', 'gate_feedback', 'notice', 'steer'].map((r) => title(r as 'steer').title), ['Briefing', 'Gate feedback', 'Notice', 'You told the agent']);
    assert.equal(title('steer').summary, 'Use tabs.');
    assert.equal(title('steer').level, 'info');
  });

  it('summarizes tool calls: arguments, ok/error with the error, duration', () => {
    const ok = rowFromEvent(ev.tool({ name: 'run', args: { command: 'npm test' }, ms: 640, exit_code: 0 }), 0, ctx);
    assert.deepEqual([ok.title, ok.summary, ok.status, ok.level, ok.ms, ok.tool], ['run', 'npm test', 'exit 0', 'ok', 640, 'run']);
    assert.ok(ok.actions & ACTION_OUTPUT);
    assert.equal(ok.actions & ACTION_DIFF, 0);
    const bad = rowFromEvent(ev.tool({ name: 'edit_file', args: { path: 'a.py', old_string: 'x', new_string: 'y' }, is_error: true, error_code: 'no_match', output: 'old_string was not found in a.py.\nThe file was not modified.' }), 0, ctx);
    assert.equal(bad.status, 'no_match');
    assert.equal(bad.level, 'error');
    assert.equal(bad.summary, 'a.py · old_string="x" · new_string="y" — old_string was not found in a.py.');
    assert.ok(bad.actions & ACTION_DIFF);
  });

  it('names the policy rule, the approval decision with its reason, and the failing gate check', () => {
    const deny = rowFromEvent(ev.policy({ decision: 'deny', rule: 'deny:git-push', reason: 'pushing is not allowed', name: 'run' }), 0, ctx);
    assert.deepEqual([deny.title, deny.summary, deny.level], ['Policy: deny', 'run · deny:git-push — pushing is not allowed', 'error']);
    const denied = rowFromEvent(ev.approval({ decision: 'deny', reason: 'not this file' }), 0, ctx);
    assert.deepEqual([denied.status, denied.summary, denied.level, denied.tool], ['denied', 'write_file — not this file', 'error', 'write_file']);
    const edited = rowFromEvent(ev.approval({ decision: 'edit', diff: '--- a\n+++ b\n@@\n-x\n+y\n', always: false }), 0, ctx);
    assert.deepEqual([edited.status, edited.summary, edited.level], ['edited', 'write_file — edited by you (2 lines changed)', 'warn']);
    assert.ok(edited.actions & ACTION_DIFF);
    const always = rowFromEvent(ev.approval({ always: true }), 0, ctx);
    assert.equal(always.summary, 'write_file · always allow');
    const gate = rowFromEvent(ev.gate({ passed: false, attempt: 2, checks: [{ command: 'npm run lint', exit_code: 0, ms: 10, timed_out: false, output_tail: '', source: 'check' }, { command: 'pytest -q', exit_code: 1, ms: 20, timed_out: false, output_tail: 'E assert 1 == 2\n1 failed in 0.1s\n', source: 'verify' }] }), 0, ctx);
    assert.deepEqual([gate.title, gate.summary, gate.ms, gate.level], ['Gate failed', 'attempt 2 · pytest -q exit 1 — 1 failed in 0.1s', 30, 'error']);
    const slow = rowFromEvent(ev.gate({ passed: false, checks: [{ command: 'pytest', exit_code: null, ms: 120000, timed_out: true, output_tail: '', source: 'verify' }] }), 0, ctx);
    assert.equal(slow.summary, 'attempt 1 · pytest timed out');
  });

  it('shows budget stops, divergences and the session end with its outcome', () => {
    assert.equal(rowFromEvent(ev.budgetStop({ limit: 'usd', used: 5.2, max: 5 }), 0, ctx).summary, 'spent $5.20 of $5.00');
    assert.equal(rowFromEvent(ev.budgetStop({ limit: 'tokens', used: 2_100_000, max: 2_000_000 }), 0, ctx).summary, 'tokens: used 2.1M of 2M');
    const div = rowFromEvent(ev.divergence({ at_seq: 7, what: 'run exit code' }), 0, ctx);
    assert.deepEqual([div.summary, div.level], ['at seq 7: run exit code', 'error']);
    const end = rowFromEvent(ev.sessionEnd({ status: 'budget_exceeded', turns: 30, tokens: 2_000_000, cost_usd: 4.99, error: null, summary: 'stopped: turn limit' }), 0, ctx);
    assert.deepEqual([end.status, end.summary, end.level], ['budget_exceeded', 'budget_exceeded · 30 turns · 2M tokens · $4.99 — stopped: turn limit', 'error']);
    assert.equal(rowFromEvent(ev.sessionEnd({ status: 'done' }), 0, ctx).level, 'ok');
    assert.equal(rowFromEvent(ev.sessionEnd({ status: 'cancelled' }), 0, ctx).level, 'warn');
  });

  it('summarizes arguments shortly, with the full length of long strings even when trimmed for the view', () => {
    assert.equal(summarizeArgs({ path: 'src/a.ts', content: 'x'.repeat(5000) }), 'src/a.ts · content: 5k chars');
    const trimmed = trimEventForView(ev.proposed({ args: { path: 'a', content: 'y'.repeat(12_345) } }), 100);
    assert.equal(summarizeArgs(trimmed.args), 'a · content: 12.3k chars');
    assert.equal(summarizeArgs({ pattern: 'foo', path: 'src' }), 'src · pattern=foo');
    assert.equal(summarizeArgs(null), '');
    assert.ok(summarizeArgs({ command: 'x'.repeat(500) }).length <= 140);
  });

  it('searches title, summary, status, tool and kind, case-insensitively', () => {
    const row = rowFromEvent(ev.policy({ rule: 'Deny:Git-Push', decision: 'deny' }), 0, ctx);
    assert.ok(haystack(row).includes('deny:git-push'));
    assert.ok(haystack(row).includes('policy'));
  });
});
