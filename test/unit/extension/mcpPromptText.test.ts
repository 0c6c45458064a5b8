// The words of an MCP tool call's approval prompt and the MCP view's live state (no 'vscode').
import assert from 'node:assert/strict';
import { mcpPromptText } from '../../../src/extension/approvals/mcpPromptText';
import { McpLiveState } from '../../../src/extension/views/mcpLiveState';
import type { KiteEvent } from '../../../src/harness/protocol/events';

const warning = (code: string, server: string, message = `${code} ${server}`): KiteEvent => ({ v: 1, seq: 1, run: 'r', t: 0, kind: 'warning', code, server, message }) as KiteEvent;

describe('MCP approval prompt text', () => {
  it('names tool and server as a person reads them, the validated arguments and the rule that asked', () => {
    const t = mcpPromptText({ server: 'everything', tool: 'echo', args: { message: 'hi' }, rule: 'ask:mcp', reason: 'Calls to MCP tools (server "everything") are shown to a person for approval.' });
    assert.equal(t.title, 'Kite: Tool `echo` from MCP server `everything` — allow this call?');
    assert.equal(t.placeHolder, 'Arguments: {"message":"hi"} · policy rule ask:mcp: Calls to MCP tools (server "everything") are shown to a person for approval.');
  });

  it('a control character in an argument is shown, not obeyed; long arguments are clipped and shown in full beside', () => {
    const t = mcpPromptText({ server: 's', tool: 't', args: { a: 'x\u001b[2Ky', long: 'z'.repeat(700) }, rule: 'ask:mcp', reason: 'r' });
    assert.doesNotMatch(t.placeHolder, /\u001b/);
    assert.match(t.placeHolder, /full arguments beside/);
    assert.equal(JSON.parse(t.args).long, 'z'.repeat(700));
  });
});

describe('MCP view live state', () => {
  it('running while a run has it started; withdrawn with its message; a run end stops it', () => {
    const s = new McpLiveState();
    assert.equal(s.apply('r1', warning('mcp_started', 'everything')), true);
    assert.deepEqual(s.of('everything'), { running: 1, withdrawn: null });
    assert.equal(s.apply('r1', warning('mcp_withdrawn', 'everything', 'MCP server "everything" was withdrawn: it exited')), true);
    assert.deepEqual(s.of('everything'), { running: 0, withdrawn: 'MCP server "everything" was withdrawn: it exited' });
    s.apply('r2', warning('mcp_started', 'everything'));
    assert.deepEqual(s.of('everything'), { running: 1, withdrawn: null }, 'a new start clears the withdrawal');
    assert.equal(s.ended('r2'), true);
    assert.equal(s.of('everything').running, 0);
    assert.equal(s.apply('r3', warning('repetition', '')), false, 'other warnings do not touch the view');
  });
});
