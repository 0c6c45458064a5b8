// The new hook events as the views show them: the debugger's event line, the timeline webview's
// row and `kite timeline` name the event and the matcher that selected it, the decision, and
// what a hook told the model; a person's message a hook kept back is a row of its own.
import assert from 'node:assert/strict';
import { TimelineFormatter } from '../../../src/harness/events/timeline';
import { summarize } from '../../../src/harness/replay/eventSummary';
import { rowFromEvent } from '../../../webview-ui/model/rows';
import { ev } from '../../helpers/events';

const ctx = { group: 0, turn: 1, head: false, toolNameOf: () => null };

describe('hook events in the debugger and the timelines', () => {
  const start = ev.hook({ event: 'SessionStart', matcher: 'startup', id: null, command: './hooks/context.sh', decision: 'allow', reason: '', context: 'Release freeze until Friday.' });
  const reply = ev.hook({ event: 'PostModelReply', matcher: null, id: null, command: './hooks/no-curl.sh', decision: 'block', reason: 'no network calls' });

  it('the debugger names event, matcher, decision and the context', () => {
    assert.equal(summarize(start), 'SessionStart [startup] allow · context: Release freeze until Friday. · ./hooks/context.sh · 12 ms');
    assert.equal(summarize(reply), 'PostModelReply block: no network calls · ./hooks/no-curl.sh · 12 ms');
  });

  it('the timeline webview row and kite timeline show them', () => {
    const row = rowFromEvent(start, 0, ctx);
    assert.equal(row.title, 'Hook SessionStart [startup]');
    assert.equal(row.status, 'allow');
    assert.match(row.summary, /said: Release freeze until Friday\./);
    assert.equal(rowFromEvent(reply, 1, ctx).level, 'warn');
    const f = new TimelineFormatter({ color: false });
    assert.match(f.row(start) ?? '', /HOOK  SessionStart \[startup\] said: Release freeze until Friday\./);
    assert.match(f.row(reply) ?? '', /HOOK  PostModelReply blocked: no network calls/);
    assert.equal(rowFromEvent(ev.user({ reason: 'hook_context', text: 'Release freeze until Friday.' }), 2, ctx).title, 'Hook said');
  });
});
