// JSON files a person edits (kite-progress.json, .kite/config.json, model scripts) fail with
// "file:line:column: what is wrong". JSON.parse only gives a character offset, and not even that
// for some errors, so on failure a small scanner finds the first problem and names it in words
// (trailing commas and unquoted names are the usual hand-editing slips).
import { stripComments } from './jsonc';

export interface JsonProblem {
  line: number; // 1-based
  column: number; // 1-based
  message: string;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

export function parseJsonText(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const found = findJsonProblem(text);
    if (found) return { ok: false, problem: found };
    // The scanner accepted what JSON.parse refused (should not happen): keep the parser's words.
    return { ok: false, problem: { ...lineColumn(text, text.length), message: (e as Error).message } };
  }
}

/** Like parseJsonText, with line and block comments allowed (.kite/config.json). The comments are
 *  blanked rather than removed, so a problem's line and column still point into the person's text. */
export function parseJsonWithComments(text: string): JsonParse {
  return parseJsonText(stripComments(text, ' '));
}

/** "<file>:<line>:<column>: not valid JSON: <message>" (a terminal link in most editors). */
export function describeJsonProblem(file: string, p: JsonProblem): string {
  return `${file}:${p.line}:${p.column}: not valid JSON: ${p.message}`;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/** The first syntax problem in text, or null when it is valid JSON. */
export function findJsonProblem(text: string): JsonProblem | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const shown = (at: number) => (at >= text.length ? 'the end of the file' : `'${text[at]}'`);
  const fail = (why: string): never => {
    throw new Stop(i, why);
  };
  const str = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const n = text[i + 1];
        if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else fail(`invalid escape "\\${n ?? ''}" in a string`);
        continue;
      }
      if (c === '\n' || c.charCodeAt(0) < 0x20) fail('a string must end on the line it starts (missing closing quote?)');
      i++;
    }
    fail('a string is not closed (missing ")');
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`unexpected ${shown(i)}: expected a value`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return obj();
    if (c === '[') return arr();
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) return num();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    if (c === "'") fail('strings need double quotes, not single quotes');
    fail(i >= text.length ? 'the file ends where a value was expected' : `unexpected ${shown(i)}: expected a value (a string in double quotes, a number, true, false, null, [ or {)`);
  };
  const obj = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        if (text[i] === '}') fail('trailing comma before }');
        fail(i >= text.length ? 'the file ends inside an object (missing })' : `unexpected ${shown(i)}: property names need double quotes`);
      }
      str();
      ws();
      if (text[i] !== ':') fail(`unexpected ${shown(i)}: expected ':' after the property name`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(i >= text.length ? 'the file ends inside an object (missing })' : `unexpected ${shown(i)}: expected ',' or '}' after a property value`);
    }
  };
  const arr = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail('trailing comma before ]');
      if (i >= text.length) fail('the file ends inside an array (missing ])');
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(i >= text.length ? 'the file ends inside an array (missing ])' : `unexpected ${shown(i)}: expected ',' or ']' after an item`);
    }
  };
  try {
    // JSON.parse refuses a byte order mark; some Windows editors add one.
    if (text.charCodeAt(0) === 0xfeff) throw new Stop(0, 'the file starts with a byte order mark; save it as UTF-8 without BOM');
    ws();
    if (i >= text.length) return { line: 1, column: 1, message: 'the file is empty' };
    value();
    ws();
    if (i < text.length) fail(`unexpected ${shown(i)} after the end of the JSON value`);
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return { ...lineColumn(text, e.at), message: e.why };
  }
}
