// The hooks section of .kite/config.json: every event Kite runs parses, Claude Code's
// UserPromptSubmit is PromptSubmit, and a matcher that is wrong or can never select anything is a
// config error naming where it is (never a hook skipped in silence).
import assert from 'node:assert/strict';
import { parseConfig } from '../../../src/harness/config/config';
import { groupsOf, hasHooks, RUN_HOOK_EVENTS } from '../../../src/harness/hooks/hookConfig';
import { hookTrustItems } from '../../../src/harness/hooks/trustItems';

const parse = (hooks: unknown) => parseConfig(JSON.stringify({ hooks }), '.kite/config.json').hooks;
const cmd = (command: string) => [{ type: 'command', command }];

describe('hook config (Claude Code settings format)', () => {
  it('parses all seven events', () => {
    const hooks = parse(Object.fromEntries(RUN_HOOK_EVENTS.map((e) => [e, [{ hooks: cmd(`echo ${e}`) }]])));
    assert.ok(hasHooks(hooks));
    for (const e of RUN_HOOK_EVENTS) assert.deepEqual(groupsOf(hooks, e).map((g) => g.group.hooks[0]!.command), [`echo ${e}`]);
  });

  it('UserPromptSubmit (Claude Code) runs as PromptSubmit, after the PromptSubmit groups, and is listed under its own name for approval', () => {
    const hooks = parse({ PromptSubmit: [{ hooks: cmd('a') }], UserPromptSubmit: [{ hooks: cmd('b') }] });
    assert.deepEqual(groupsOf(hooks, 'PromptSubmit').map((g) => [g.configured, g.group.hooks[0]!.command]), [['PromptSubmit', 'a'], ['UserPromptSubmit', 'b']]);
    assert.ok(hasHooks(parse({ UserPromptSubmit: [{ hooks: cmd('b') }] })), 'the alias alone counts as hooks (they need approval)');
    assert.deepEqual(hookTrustItems(hooks).map((i) => `${i.label}: ${i.command}`), ['PromptSubmit: a', 'UserPromptSubmit: b']);
  });

  it('a SessionStart matcher selects the source; one that selects neither startup nor resume is an error naming it', () => {
    const hooks = parse({ SessionStart: [{ matcher: 'startup', hooks: cmd('a') }, { matcher: 'resume|clear', hooks: cmd('b') }, { hooks: cmd('c') }] });
    assert.equal(groupsOf(hooks, 'SessionStart').length, 3);
    assert.throws(() => parse({ SessionStart: [{ matcher: 'compact', hooks: cmd('a') }] }), /\$\.hooks\.SessionStart\[0\]\.matcher: matches none of Kite's SessionStart sources \(startup, resume\)/);
    assert.throws(() => parse({ SessionStart: [{ hooks: cmd('a') }, { matcher: 'start(', hooks: cmd('b') }] }), /\$\.hooks\.SessionStart\[1\]\.matcher: not a valid regular expression/);
  });

  it('events without a matcher refuse one (other than "" and "*"), naming where', () => {
    for (const e of ['PromptSubmit', 'UserPromptSubmit', 'PostModelReply', 'Stop', 'SessionEnd']) {
      assert.throws(() => parse({ [e]: [{ matcher: 'write_file', hooks: cmd('a') }] }), new RegExp(`\\$\\.hooks\\.${e}\\[0\\]\\.matcher: this event has no matcher`));
      assert.doesNotThrow(() => parse({ [e]: [{ matcher: '*', hooks: cmd('a') }, { matcher: '', hooks: cmd('b') }] }));
    }
  });

  it('a tool matcher that is not a regular expression, and an event Kite does not know, are errors naming them', () => {
    assert.throws(() => parse({ PreToolUse: [{ matcher: 'write_file|(', hooks: cmd('a') }] }), /\$\.hooks\.PreToolUse\[0\]\.matcher: not a valid regular expression/);
    assert.throws(() => parse({ PreCompact: [{ hooks: cmd('a') }] }), /\$\.hooks.*PreCompact/);
  });
});
