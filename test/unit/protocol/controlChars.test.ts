import assert from 'node:assert/strict';
import { showControlChars, terminalSafe } from '../../../src/harness/protocol/controlChars';

describe('control characters shown, not obeyed', () => {
  it('escapes ESC, CR, BEL, C1 controls and bidi overrides; keeps newlines and tabs unless oneLine', () => {
    assert.equal(showControlChars('rm -rf x\r\x1b[2K$ npm run lint'), 'rm -rf x\\r\\x1b[2K$ npm run lint');
    assert.equal(showControlChars('a\x1b]52;c;eA==\x07b\x9bc'), 'a\\x1b]52;c;eA==\\x07b\\x9bc');
    assert.equal(showControlChars('evil\u202etxt.exe \u2066x\u2069'), 'evil\\u202etxt.exe \\u2066x\\u2069');
    assert.equal(showControlChars('a\n\tb'), 'a\n\tb');
    assert.equal(showControlChars('a\n\tb', { oneLine: true }), 'a\\n\\tb');
  });

  it("terminalSafe keeps Kite's own colors and escapes everything else", () => {
    assert.equal(terminalSafe('\x1b[31mDENY\x1b[0m run \x1b]0;title\x07\r'), '\x1b[31mDENY\x1b[0m run \\x1b]0;title\\x07\\r');
  });
});
