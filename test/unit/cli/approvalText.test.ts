// The terminal's approval question for an MCP tool call: a person reads which tool of which server
// is called, with which arguments and under which rule — not a made-up shell command line — and a
// control character in an argument is shown escaped.
import assert from 'node:assert/strict';
import { MCP_ARGS_SHOWN, requestText } from '../../../src/harness/cli/approvalText';
import type { CommandApprovalRequest } from '../../../src/harness/host';

const mcpCall = (args: Record<string, unknown>): CommandApprovalRequest => ({
  kind: 'command',
  id: 'c1',
  command: `MCP server "everything", tool echo: ${JSON.stringify(args)}`,
  cwd: '/work/ws',
  mcp: { server: 'everything', tool: 'echo', args, rule: 'ask:mcp', reason: 'every MCP call asks unless a rule allows it' },
});

describe('cli: the approval question for an MCP call', () => {
  it('names the tool, its server, the arguments and the rule, not "run: $ …"', () => {
    const text = requestText(mcpCall({ message: 'hi' }));
    assert.match(text, /^The agent wants to call tool echo of MCP server everything with:\n {2}\{"message":"hi"\}\n {2}policy rule ask:mcp: every MCP call asks/, text);
    assert.doesNotMatch(text, /wants to run|\$ MCP server/, text);
  });

  it('shows a control character in an argument escaped, and says how long cut arguments were', () => {
    // JSON escapes ESC itself, but not a right-to-left override, which can reorder what a person reads.
    const args = { message: 'a\u202eb', pad: 'x'.repeat(MCP_ARGS_SHOWN) };
    const text = requestText(mcpCall(args));
    assert.ok(!text.includes('\u202e'), 'the override never reaches the terminal raw');
    assert.match(text, /a\\u202eb/, text.slice(0, 200));
    assert.match(text, new RegExp(`… \\(${JSON.stringify(args).length} characters\\)`), 'the cut is counted');
  });
});
