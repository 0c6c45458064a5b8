import assert from 'node:assert/strict';
import { formatSummary, formatTimeline, ROWLESS_KINDS, TimelineFormatter } from '../../../src/harness/events/timeline';
import { TAIL_KINDS } from '../../../src/harness/events/timelineTail';
import { ev as build } from '../../helpers/events';
import { LOG_VERSION, type EventBody, type KiteEvent } from '../../../src/harness/protocol/events';

let seq = 0;
const ev = (t: number, body: EventBody): KiteEvent => ({ v: LOG_VERSION, seq: seq++, run: 'r', t, ...body }) as KiteEvent;

describe('timeline text', () => {
  it('one row per model turn, tool call and gate, like the original Kite; denials name their rule', () => {
    const events: KiteEvent[] = [
      ev(0, { kind: 'user', reason: 'briefing', text: 'go' }),
      ev(1.2, { kind: 'model', turn: 1, ms: 1200, stop: 'tool_use', content: [], input_tokens: 1234, output_tokens: 56, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0 }),
      ev(1.3, { kind: 'proposed', turn: 1, id: 'a', name: 'run', args: { command: 'git push origin main' } }),
      ev(1.3, { kind: 'policy', id: 'a', name: 'run', decision: 'deny', rule: 'deny:git-push', reason: 'no' }),
      ev(1.3, { kind: 'tool', id: 'a', name: 'run', args: { command: 'git push origin main' }, ms: 0, is_error: true, output: 'Denied', error_code: 'denied' }),
      ev(1.4, { kind: 'tool', id: 'b', name: 'write_file', args: { path: 'src/a.js', content: 'x'.repeat(1500) }, ms: 2, is_error: false, output: 'ok', error_code: null }),
      ev(1.5, { kind: 'tool', id: 'c', name: 'run', args: { command: 'npm test' }, ms: 900, is_error: true, output: 'fail', error_code: 'failed', exit_code: 1 }),
      ev(2.5, { kind: 'gate', attempt: 1, passed: false, feedback: 'f', checks: [{ command: 'npm test', exit_code: 0, ms: 1, timed_out: false, output_tail: '', source: 'check' }, { command: 'node --test t.js', exit_code: 1, ms: 1, timed_out: false, output_tail: '', source: 'verify' }] }),
      ev(3, { kind: 'session_end', status: 'gate_failed', turns: 1, tokens: 1290, cost_usd: 0, commit: null, summary: '', error: null }),
    ];
    const rows = formatTimeline(events).split('\n');
    assert.deepEqual(rows, [
      '    1.2s  turn 1   tool_use  in=1,234 out=56',
      '    1.3s    DENY  run git push origin main  [deny:git-push]',
      '    1.4s    ok    write_file src/a.js (1,500 chars)',
      '    1.5s    ERROR run npm test → exit 1  [failed]',
      '    2.5s  gate FAILED (attempt 1)  ✓ npm test  ✗ node --test t.js (exit 1)',
      '    3.0s  end  gate_failed',
    ]);
  });

  it('a DENY row names who refused the call: the policy rule that denied it, the person, or the hook that blocked it (never the rule that allowed it)', () => {
    const tool = (t: number, id: string) => ev(t, { kind: 'tool', id, name: 'run', args: { command: 'make' }, ms: 0, is_error: true, output: 'refused', error_code: 'denied' });
    const policy = (id: string, decision: 'allow' | 'ask' | 'deny', rule: string) => ev(1, { kind: 'policy', id, name: 'run', decision, rule, reason: 'r' });
    const rows = formatTimeline([
      policy('a', 'deny', 'deny:make'),
      tool(1.1, 'a'),
      policy('b', 'ask', 'ask:commands'),
      ev(1.2, { kind: 'approval', id: 'b', decision: 'deny', reason: null, diff: null, always: false }),
      tool(1.3, 'b'),
      policy('c', 'allow', 'allow:make'),
      ev(1.4, { kind: 'hook', event: 'PreToolUse', matcher: 'run', command: './guard.sh', id: 'c', decision: 'block', reason: 'not on Fridays', ms: 3 }),
      tool(1.5, 'c'),
    ]).split('\n');
    assert.deepEqual(rows, [
      '    1.1s    DENY  run make  [deny:make]',
      '    1.2s    user deny',
      '    1.3s    DENY  run make  [denied by the person]',
      '    1.4s    HOOK  PreToolUse [run] blocked: not on Fridays  [./guard.sh]',
      '    1.5s    DENY  run make  [blocked by the PreToolUse [run] hook]',
    ]);
  });

  it('a check whose binary is missing (exit 127) says "command not found" on its gate row', () => {
    const rows = formatTimeline([
      ev(1, { kind: 'gate', attempt: 1, passed: false, feedback: 'f', checks: [{ command: 'cargo test', exit_code: 127, ms: 1, timed_out: false, output_tail: 'sh: cargo: not found', source: 'check' }] }),
    ]).split('\n');
    assert.deepEqual(rows, ['    1.0s  gate FAILED (attempt 1)  ✗ cargo test (exit 127: command not found)']);
  });

  it('token counts of every size are grouped by thousands as en-US prints them', () => {
    const model = (t: number, input: number, output: number) =>
      ev(t, { kind: 'model', turn: 1, ms: 1, stop: 'tool_use', content: [], input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 1_000_000, cost_usd: 0, model: 'm', retries: 0 });
    const rows = formatTimeline([model(1, 0, 999), model(2, 1000, 12_345), model(3, 123_456_789, 100_000)]).split('\n');
    assert.deepEqual(rows, [
      '    1.0s  turn 1   tool_use  in=0 out=999 cache r=1,000,000 w=0',
      '    2.0s  turn 1   tool_use  in=1,000 out=12,345 cache r=1,000,000 w=0',
      '    3.0s  turn 1   tool_use  in=123,456,789 out=100,000 cache r=1,000,000 w=0',
    ]);
  });

  it('a reply without tool calls reads "claims done"; a failed gate says which attempt of how many', () => {
    const start = ev(0, { kind: 'session_start', feature: 'F1', title: 't', model: 'm', mode: 'unattended', limits: { turns: 5, tokens: null, usd: null, wall_s: null }, max_gate_failures: 3, max_tokens: 100, checks: ['npm test'], verify: null, command_timeout_s: 60, git_head: null, root: '/w', branch: null, replay_of: null, started_at: '2026-01-01T00:00:00.000Z', system: 's', tools: [], features: [] } as EventBody);
    const rows = formatTimeline([
      start,
      ev(1, { kind: 'model', turn: 1, ms: 1, stop: 'end_turn', content: [{ type: 'text', text: 'Done.' }], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0 }),
      ev(2, { kind: 'gate', attempt: 2, passed: false, feedback: 'f', checks: [{ command: 'npm test', exit_code: 1, ms: 1, timed_out: false, output_tail: '', source: 'check' }] }),
      ev(3, { kind: 'model', turn: 2, ms: 1, stop: 'end_turn', content: [{ type: 'tool_use', id: 'x', name: 'read_file', input: { path: 'a' } }], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0 }),
    ]).split('\n');
    assert.deepEqual(rows, [
      '    1.0s  turn 1   end_turn  in=1 out=1  (claims done)',
      '    2.0s  gate FAILED (2 of 3)  ✗ npm test (exit 1)',
      '    3.0s  turn 2   end_turn  in=1 out=1',
    ]);
  });

  it('with says: the first line of what the agent said, under its turn; a person\'s deny is not shown as a policy rule', () => {
    const rows = formatTimeline(
      [
        ev(1, { kind: 'model', turn: 1, ms: 1, stop: 'tool_use', content: [{ type: 'text', text: 'Let me run the tests.\nThen fix.' }, { type: 'tool_use', id: 'a', name: 'run', input: { command: 'ls' } }], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0 }),
        ev(1, { kind: 'policy', id: 'a', name: 'run', decision: 'ask', rule: 'ask:commands', reason: 'r' }),
        ev(2, { kind: 'approval', id: 'a', decision: 'deny', reason: 'use list_files', diff: null, always: false }),
        ev(2, { kind: 'tool', id: 'a', name: 'run', args: { command: 'ls' }, ms: 0, is_error: true, output: 'denied', error_code: 'denied' }),
        ev(3, { kind: 'model', turn: 2, ms: 1, stop: 'tool_use', content: [{ type: 'tool_use', id: 'b', name: 'list_files', input: {} }], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'm', retries: 0 }),
      ],
      { says: true },
    ).split('\n');
    assert.deepEqual(rows, [
      '    1.0s  turn 1   tool_use  in=1 out=1',
      '            “Let me run the tests. …”',
      '    2.0s    user deny: use list_files',
      '    2.0s    DENY  run ls  [denied by the person]',
      '    3.0s  turn 2   tool_use  in=1 out=1',
    ]);
  });

  it('budget stop rows read like the limits (dollars, thousands separators)', () => {
    const rows = formatTimeline([ev(1, { kind: 'budget_stop', limit: 'usd', used: 0.010512, max: 0.01 }), ev(2, { kind: 'budget_stop', limit: 'tokens', used: 8739, max: 5000 })]).split('\n');
    assert.deepEqual(rows, ['    1.0s  budget stop: usd $0.0105 of $0.01', '    2.0s  budget stop: tokens 8,739 of 5,000']);
  });

  it('the end row says why a run did not end done; a killed check reads "killed"; QUEUE proposals get a row with their titles', () => {
    const rows = formatTimeline([
      ev(1, { kind: 'gate', attempt: 1, passed: false, feedback: 'f', checks: [{ command: 'sleep 50', exit_code: null, ms: 1, timed_out: false, output_tail: '', source: 'check' }] }),
      ev(2, { kind: 'progress', features: [{ id: 'F1', title: 'One', status: 'error' }, { id: 'Q1', title: 'Reject negative rates', status: 'proposed' }], proposals: ['Q1'] }),
      ev(3, { kind: 'session_end', status: 'error', turns: 1, tokens: 2, cost_usd: 0, commit: null, summary: 'why', error: 'model error (script_exhausted): the script ran out of replies after 1' }),
      ev(4, { kind: 'session_end', status: 'cancelled', turns: 1, tokens: 2, cost_usd: 0, commit: null, summary: 'the run was cancelled during the gate', error: null }),
      ev(5, { kind: 'session_end', status: 'done', turns: 1, tokens: 2, cost_usd: 0, commit: 'abc', summary: 'Fixed the rounding.', error: null }),
    ]).split('\n');
    assert.deepEqual(rows, [
      '    1.0s  gate FAILED (attempt 1)  ✗ sleep 50 (killed)',
      '    2.0s  queue  proposed Q1 "Reject negative rates"',
      '    3.0s  end  error — model error (script_exhausted): the script ran out of replies after 1',
      '    4.0s  end  cancelled — the run was cancelled during the gate',
      '    5.0s  end  done',
    ]);
  });

  it('the rowless kinds (read for their envelope only) have no row, leave the formatter as it was and fold nothing the last line reads', () => {
    const samples: Record<string, KiteEvent> = { proposed: build.proposed(), approval_request: build.approvalRequest(), intent: build.intent(), model_retry: build.modelRetry() };
    assert.deepEqual([...ROWLESS_KINDS].sort(), Object.keys(samples).sort());
    const denied = build.tool({ id: 'x', error_code: 'denied', is_error: true });
    const plain = new TimelineFormatter().row(denied);
    const f = new TimelineFormatter();
    for (const [kind, e] of Object.entries(samples)) {
      assert.equal(f.row({ ...e, id: 'x' } as KiteEvent), null, kind);
      assert.ok(!TAIL_KINDS.has(e.kind), kind);
    }
    assert.equal(f.row(denied), plain, 'what the formatter remembers is unchanged');
  });

  it('the summary line: feature, outcome, turns, tokens, cost, commit, log path', () => {
    const line = formatSummary({ feature: 'F1', outcome: 'done', turns: 7, tokens: 38634, cost_usd: 0.05461, commit: '61e476fabcdef', logPath: '/w/.kite/runs/x.jsonl', proposals: ['Q1'] }, '/w');
    assert.equal(line, 'F1: done in 7 turns, 38,634 tokens, $0.0546. Commit 61e476f. Proposed: Q1. Log .kite/runs/x.jsonl');
    const one = formatSummary({ feature: 'F2', outcome: 'error', turns: 1, tokens: 2, cost_usd: 0, commit: null, logPath: '/w/.kite/runs/y.jsonl' }, '/w');
    assert.equal(one, 'F2: error in 1 turn, 2 tokens, $0.0000. Nothing committed. Log .kite/runs/y.jsonl');
  });
});
