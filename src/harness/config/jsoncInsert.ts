// Adds one value to a JSON-with-comments text without touching anything else the person wrote.
// jsonc-parser's modify() finds where the value goes and leaves the rest alone; asked to format,
// it also reformats the neighbouring line and moves that line's trailing comment onto the new
// value, so only the inserted text is laid out here: on its own line, indented like its
// neighbours (tabs or spaces as the file uses them), with the file's line ending.
import { applyEdits, format, modify, parseTree, type Edit, type JSONPath } from './jsonc';

interface Style {
  eol: string;
  unit: string; // one level of indentation
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const n = text.indexOf('\n', offset);
  const end = n < 0 ? text.length : n;
  return end > offset && text[end - 1] === '\r' ? end - 1 : end;
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/** The file's own style: its line ending, and the indentation of its first top-level key. */
function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = parseTree(text)?.children?.[0];
  const indent = first && text.slice(lineStart(text, first.offset), first.offset).trim() === '' ? indentAt(text, first.offset) : '';
  return { eol, unit: indent || '  ' };
}

/** JSON text for `snippet` (compact, from modify), laid out in the file's style at depth `indent`. */
function laidOut(snippet: string, indent: string, style: Style): string {
  const tabs = style.unit.startsWith('\t');
  const pretty = applyEdits(snippet, format(snippet, undefined, { insertSpaces: !tabs, tabSize: tabs ? 1 : style.unit.length, eol: style.eol }));
  return pretty.split(style.eol).join(style.eol + indent);
}

function oneLine(snippet: string, style: Style): string {
  return laidOut(snippet, '', style)
    .split(style.eol)
    .map((l) => l.trim())
    .join(' ');
}

/**
 * The text with `value` set at `path` (a missing parent is created) or, with a last segment of -1,
 * appended to the array there. Throws what modify() throws when the path runs through a non-container.
 */
export function insertKeepingLayout(text: string, path: JSONPath, value: unknown): string {
  const [edit, ...more] = modify(text, path, value, { isArrayInsertion: true });
  // An insertion is one edit that removes nothing; anything else would touch the person's text.
  if (!edit || more.length || edit.length !== 0) throw new Error(`expected to insert at ${JSON.stringify(path)}, not to replace`);
  const style = styleOf(text);
  const afterSibling = edit.content.startsWith(',');
  const snippet = afterSibling ? edit.content.slice(1) : edit.content;
  const end = lineEnd(text, edit.offset);
  const rest = text.slice(edit.offset, end).trim();
  const edits: Edit[] = [];
  if (afterSibling) {
    if (rest === '' || rest.startsWith('//') || /^\/\*.*\*\/$/.test(rest)) {
      // The comma right after the sibling, the value on a new line after the sibling's comment.
      const indent = indentAt(text, edit.offset);
      edits.push({ offset: edit.offset, length: 0, content: ',' }, { offset: end, length: 0, content: style.eol + indent + laidOut(snippet, indent, style) });
    } else {
      edits.push({ offset: edit.offset, length: 0, content: `, ${oneLine(snippet, style)}` }); // a one-line container stays one line
    }
  } else {
    // First entry of an empty container: inside it, one level deeper than the line it opens on.
    const outer = indentAt(text, edit.offset);
    const inner = outer + style.unit;
    const closesHere = /^[\]}]/.test(rest);
    edits.push({ offset: edit.offset, length: 0, content: style.eol + inner + laidOut(snippet, inner, style) + (closesHere ? style.eol + outer : '') });
  }
  return applyEdits(text, edits);
}
