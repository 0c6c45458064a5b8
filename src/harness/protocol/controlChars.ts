// Text from the model (or from files it wrote) shown to a person: control characters made visible.
// A raw ESC can set the clipboard (OSC 52), retitle the terminal (OSC 0) or erase what a prompt
// showed (`\r\x1b[2K`); a bidi override reorders what is read. Escaped, the person sees the bytes
// that really run. Pure and browser-safe: the CLI, the VS Code prompts and the webview share it.

// C0 controls (but \t and \n), DEL, C1 controls, and the bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Non-global twins: a test is a third of a replace, and most text has nothing to escape (every
// row of a big timeline passes here, issue 17).
const HAS_UNSAFE = new RegExp(UNSAFE.source);
const HAS_UNSAFE_OR_NEWLINE = new RegExp(UNSAFE_OR_NEWLINE.source);

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '\x1b': '\\x1b', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `s` with every terminal control, C1 control and bidi control shown as an escape (\x1b, \r, \u202e).
 *  Newlines and tabs stay as they are unless `oneLine` (then they are escaped too). */
export function showControlChars(s: string, opts: { oneLine?: boolean } = {}): string {
  if (!(opts.oneLine ? HAS_UNSAFE_OR_NEWLINE : HAS_UNSAFE).test(s)) return s;
  return s.replace(opts.oneLine ? UNSAFE_OR_NEWLINE : UNSAFE, escapeOne);
}

/** Kite's own colors (SGR, `ESC [ 1;31 m`) in otherwise escaped text. */
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The last line of defence of CLI output: every control character escaped except Kite's own SGR
 * colors (the rows it paints). What the views already escaped passes unchanged.
 */
export function terminalSafe(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(SGR)) {
    out += showControlChars(s.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + showControlChars(s.slice(last));
}
