// Small, allocation-light formatters shared by rows, charts and the header.

/** 0 → "0", 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactNumber(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 1_000_000) return `${trim1(n / 1000)}k`;
  if (a < 1_000_000_000) return `${trim1(n / 1_000_000)}M`;
  return `${trim1(n / 1_000_000_000)}G`;
}

function trim1(x: number): string {
  const s = x >= 100 ? x.toFixed(0) : x.toFixed(1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Dollars with enough digits to tell small turns apart: $0.0042, $0.13, $12.40. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** 850 → "850ms", 1_250 → "1.25s", 95_000 → "1m35s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${parseFloat((ms / 1000).toFixed(ms < 10_000 ? 2 : 1))}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, '0')}s`;
}

/** Seconds since the run started → "m:ss.s" (or "h:mm:ss" past an hour). */
export function formatClock(t: number): string {
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(Math.floor(s)).padStart(2, '0')}`;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** First line of a text, clipped to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 160): string {
  let end = text.indexOf('\n');
  if (end < 0) end = text.length;
  const line = text.slice(0, Math.min(end, max + 1)).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
