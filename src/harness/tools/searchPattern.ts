// A search pattern from the model, compiled for a linear-time engine (RE2, pure JS): a
// catastrophic pattern such as (a+)+$ cannot block the event loop, so a cancel is always heard.
import { RE2JS } from 're2js';

export interface LinePattern {
  test(line: string): boolean;
}

export type CompiledPattern = { ok: true; re: LinePattern } | { ok: false; message: string };

export function compilePattern(pattern: string, ignoreCase: boolean): CompiledPattern {
  // JavaScript's parser first, for its familiar messages on plain syntax errors (compiling is
  // cheap; nothing is ever matched with it).
  try {
    new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (e) {
    return { ok: false, message: `The pattern is not a valid regular expression: ${(e as Error).message}.` };
  }
  try {
    const re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    return { ok: true, re: { test: (line) => re.test(line) } };
  } catch (e) {
    return {
      ok: false,
      message: `The pattern uses syntax the linear-time search engine (RE2) does not support — backreferences such as \\1, lookahead (?= (?!, lookbehind (?<= (?<! or very large repeat counts: ${(e as Error).message}. Rewrite it without them (e.g. search for a simpler pattern and read the lines around the matches).`,
    };
  }
}
