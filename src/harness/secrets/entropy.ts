// The high_entropy detector: random-looking tokens that look like credentials, and nothing Kite
// itself writes. The rule, in two parts:
//  1. a value of 16+ characters assigned to a name that sounds secret (`api_key = "…"`,
//     `"token": "…"`, `DB_PASSWORD=…`) that mixes letters and digits;
//  2. a standalone token of 32–128 characters from the base64url alphabet that mixes upper case,
//     lower case and digits with a Shannon entropy of at least 4.5 bits per character.
// Never matched: hex (sha256 hashes, git shas — no upper case), UUIDs, ids with a known prefix
// (toolu_, msg_, req_), subresource-integrity hashes (sha512-…), data: URIs. Applied to tool
// results, notes and commits only — never to the log's own envelope (hashes and ids).

const SECRET_WORD = /key|token|secret|passw(?:or)?d|pwd|credential|auth/i;
// The lookbehind starts a name only at its first character (linear, not one try per suffix).
const ASSIGNED = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{2,64})["']?\s*[:=]\s*["']?([A-Za-z0-9+/_.~=-]{16,})/g;
const STANDALONE = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9_-]{32,128}(?![A-Za-z0-9+/_=-])/g;
const OUR_IDS = /^(?:toolu_|srvtoolu_|msg_|req_|call_)/;

export function shannonBits(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

function mixesClasses(s: string): boolean {
  return /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s);
}

/** Whether a value, on its own, looks like a random credential (rule 2; also used for .env values). */
export function looksRandom(value: string): boolean {
  return value.length >= 32 && !OUR_IDS.test(value) && mixesClasses(value) && shannonBits(value) >= 4.5;
}

/** [start, end) of every high-entropy credential in text. */
export function highEntropySpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(ASSIGNED)) {
    const [whole, name, value] = m;
    if (!SECRET_WORD.test(name) || !/[0-9]/.test(value) || !/[A-Za-z]/.test(value) || shannonBits(value) < 3.5) continue;
    const start = (m.index ?? 0) + whole.length - value.length;
    spans.push([start, start + value.length]);
  }
  for (const m of text.matchAll(STANDALONE)) {
    const start = m.index ?? 0;
    const before = text.slice(Math.max(0, start - 16), start);
    if (/sha\d+-$|data:[^,\s]*,$|base64,$/.test(before) || !looksRandom(m[0])) continue;
    if (!spans.some(([s, e]) => start < e && s < start + m[0].length)) spans.push([start, start + m[0].length]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}
