// The context layer's pure parts: the conversation rule for a `compaction` event, the observation
// budget's verdict, the settings/config precedence of the observation budget, the context config's
// validation and the per-model window table.
import assert from 'node:assert/strict';
import { ConfigError, parseConfig } from '../../../src/harness/config/config';
import { effectiveRunSettings, type KiteSettings } from '../../../src/harness/config/settingsLayer';
import { observationStop } from '../../../src/harness/context/observationBudget';
import { contextWindowOf, DEFAULT_CONTEXT_WINDOW } from '../../../src/harness/model/contextWindows';
import { Conversation } from '../../../src/harness/protocol/conversation';
import { emptyContextTally, tallyToolResult } from '../../../src/harness/protocol/contextTally';
import { ev } from '../../helpers/events';

function conversationOf(turns: number): Conversation {
  const c = new Conversation();
  c.addUserText('BRIEFING: verify with `node check.js`');
  for (let t = 1; t <= turns; t++) {
    c.addAssistant([{ type: 'tool_use', id: `t${t}`, name: 'read_file', input: { path: `f${t}` } }]);
    c.addToolResult(`t${t}`, `content of f${t} `.repeat(50), false);
  }
  return c;
}

describe('context layer', () => {
  describe('Conversation.applyCompaction', () => {
    it('replaces stubbed results in finished messages and leaves the pending results alone', () => {
      const c = conversationOf(3);
      c.applyCompaction(ev.compaction({ stubbed: [{ id: 't1', name: 'read_file', chars: 850, stub: 'STUB t1' }, { id: 't3', name: 'read_file', chars: 850, stub: 'STUB t3' }], summary: null }));
      const m = c.messages();
      assert.deepEqual((m[2]!.content[0] as { content: string }).content, 'STUB t1');
      // t3's result is still the pending user message: not changed.
      assert.match((m[6]!.content[0] as { content: string }).content, /^content of f3/);
    });

    it('a summary replaces messages [1, through) after the briefing; a second summary replaces the first instead of nesting it', () => {
      const c = conversationOf(6);
      const summary = (text: string, through: number) => ({ through, turns: [1, 2] as [number, number], text, kept: ['GATE FEEDBACK: done.txt is missing'], input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: 0, model: 'claude-sonnet-5-5' });
      c.applyCompaction(ev.compaction({ stubbed: [], summary: summary('FIRST SUMMARY', 5) }));
      let m = c.messages();
      assert.equal(m[0]!.role, 'user');
      assert.equal(m[1]!.role, 'assistant');
      assert.equal((m[1]!.content[0] as { id: string }).id, 't3');
      const first = JSON.stringify(m[0]);
      assert.match(first, /BRIEFING: verify with `node check.js`/);
      assert.match(first, /FIRST SUMMARY/);
      assert.match(first, /GATE FEEDBACK: done\.txt is missing/);
      assert.match(first, /lossy/);
      c.applyCompaction(ev.compaction({ stubbed: [], summary: summary('SECOND SUMMARY', 3) }));
      m = c.messages();
      assert.equal((m[1]!.content[0] as { id: string }).id, 't4');
      const again = JSON.stringify(m[0]);
      assert.match(again, /SECOND SUMMARY/);
      assert.doesNotMatch(again, /FIRST SUMMARY/);
      assert.equal(again.split('BRIEFING').length - 1, 1, 'the briefing is there once');
      // Alternation holds: user, assistant, user, …
      m.forEach((x, i) => assert.equal(x.role, i % 2 === 0 ? 'user' : 'assistant', `message ${i}`));
    });
  });

  describe('observation budget', () => {
    it('stops the result that would go over, per tool first, and lets smaller ones in', () => {
      const t = emptyContextTally();
      tallyToolResult(t, 'run', 'x'.repeat(4000)); // ~1000 tokens
      assert.equal(observationStop({ observation_tokens: 2000 }, t, 'read_file', 'y'.repeat(3000)), null);
      assert.deepEqual(observationStop({ observation_tokens: 2000 }, t, 'read_file', 'y'.repeat(5000)), { limit: 'observation_tokens', used: 2250, max: 2000, tool: 'read_file' });
      assert.deepEqual(observationStop({ observation_tokens: 1_000_000, per_tool: { run: 1200 } }, t, 'run', 'z'.repeat(1000)), { limit: 'observation_tokens', used: 1250, max: 1200, tool: 'run', per_tool: true });
      t.ratio = 2; // the provider counted twice the estimate: the same text now costs more
      assert.ok(observationStop({ observation_tokens: 2000 }, t, 'read_file', 'y'.repeat(1000)));
    });

    it('kite.budget.observationTokens fills in only when .kite/config.json leaves budget.observation_tokens out', () => {
      const s: KiteSettings = { model: '', budget: { turns: null, tokens: null, usd: null, wallSeconds: null, observationTokens: 7000 } };
      const fromSetting = effectiveRunSettings(s, { budget: {} }, '/ws');
      assert.equal(fromSetting.limits.observation_tokens, 7000);
      assert.equal(fromSetting.limitSources.observation_tokens, 'setting');
      const fromConfig = effectiveRunSettings(s, { budget: { observation_tokens: 9000 } }, '/ws');
      assert.equal(fromConfig.limits.observation_tokens, undefined);
      assert.equal(fromConfig.limitSources.observation_tokens, 'config');
    });
  });

  describe('context config and window table', () => {
    it('reads context.* with defaults and names a bad value and where it is', () => {
      const c = parseConfig(JSON.stringify({ context: { window: 20000, keep_turns: 2 }, budget: { per_tool: { run: 100 } } }));
      assert.deepEqual(c.context, { compact: true, window: 20000, compact_at: 0.7, compact_to: 0.4, keep_turns: 2 });
      assert.deepEqual(c.budget.per_tool, { run: 100 });
      assert.throws(
        () => parseConfig(JSON.stringify({ context: { compact_at: 0.5, compact_to: 0.6 } })),
        (e: unknown) => e instanceof ConfigError && /context\.compact_to/.test(e.message) && /smaller than compact_at/.test(e.message),
      );
      assert.throws(() => parseConfig(JSON.stringify({ context: { windw: 1 } })), (e: unknown) => e instanceof ConfigError && /windw/.test(e.message));
    });

    it('windows per model family, the config override winning', () => {
      assert.equal(contextWindowOf('anthropic:claude-sonnet-5-5'), 200_000);
      assert.equal(contextWindowOf('claude-haiku-4-5-20251001'), 200_000);
      assert.equal(contextWindowOf('script:/x.json'), DEFAULT_CONTEXT_WINDOW);
      assert.equal(contextWindowOf('anthropic:claude-sonnet-5-5', 20_000), 20_000);
    });
  });
});
