import assert from 'node:assert/strict';
import { Conversation } from '../../src/harness/protocol/conversation';

describe('Conversation', () => {
  it('assembles tool results in tool_use order, then harness text, into one user message', () => {
    const c = new Conversation();
    c.addUserText('briefing');
    c.addAssistant([
      { type: 'tool_use', id: 'a', name: 'read_file', input: {} },
      { type: 'tool_use', id: 'b', name: 'run', input: {} },
    ]);
    c.addToolResult('b', 'B out', true);
    c.addToolResult('a', 'A out', false);
    c.addUserText('gate says no');
    const msgs = c.messages();
    assert.equal(msgs.length, 3);
    assert.deepEqual(msgs[2], {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: 'A out' },
        { type: 'tool_result', tool_use_id: 'b', content: 'B out', is_error: true },
        { type: 'text', text: 'gate says no' },
      ],
    });
    assert.deepEqual(c.unansweredToolUses(), []);
  });
});
