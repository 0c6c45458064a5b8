// Keep tool output from flooding the model's context: head + tail with a marker that says how
// much was cut. What this returns is exactly what the model sees and what the log records.

/** Number of line breaks in text[from, to). */
function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Marker placed where output was cut. Always contains "characters cut". */
export function cutMarker(chars: number, lines: number): string {
  const l = lines === 1 ? '1 line' : `${lines} lines`;
  return `[… ${chars} characters cut (${l}) …]`;
}

/**
 * Returns text unchanged when it fits in maxChars; otherwise keeps the first ~40% and the last ~60%
 * (errors and summaries tend to be at the end), cut at line boundaries when one is near, with a
 * marker line in between. The result never exceeds maxChars + the marker's length.
 */
export function reduceOutput(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const budget = Math.max(0, maxChars);
  let headEnd = Math.floor(budget * 0.4);
  let tailStart = text.length - (budget - headEnd);
  // Prefer whole lines: move the cut points to a nearby line break (within 200 characters).
  const nl = text.lastIndexOf('\n', headEnd);
  if (nl >= 0 && headEnd - nl < 200) headEnd = nl + 1;
  const nl2 = text.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart < 200) tailStart = nl2 + 1;
  if (tailStart < headEnd) tailStart = headEnd;
  const cut = tailStart - headEnd;
  const marker = cutMarker(cut, countLines(text, headEnd, tailStart));
  const head = text.slice(0, headEnd);
  const sep1 = head === '' || head.endsWith('\n') ? '' : '\n';
  return `${head}${sep1}${marker}\n${text.slice(tailStart)}`;
}

// CSI / OSC escape sequences (colours, cursor moves, hyperlinks).
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/**
 * What a terminal would finally show, as plain text: colour codes removed, and progress lines
 * redrawn with "\r" reduced to their last state. Saves the model's context, loses nothing it needs.
 */
export function cleanTerminalOutput(text: string): string {
  const noAnsi = text.replace(ANSI, '');
  if (!noAnsi.includes('\r')) return noAnsi;
  return noAnsi
    .split('\n')
    .map((line) => {
      const l = line.endsWith('\r') ? line.slice(0, -1) : line;
      const i = l.lastIndexOf('\r');
      return i < 0 ? l : l.slice(i + 1);
    })
    .join('\n');
}
