// Every row's one-line summary, kept as a few large strings. Three things keep a million of them
// small: a summary equal to a recent one (the call's summary repeats on its proposed, intent and
// tool rows; a policy rule's text on each decision) is stored once and shared; the distinct texts
// are joined CHUNK at a time into one string, with their start offsets in a typed array (one
// string header per chunk, not per row); and the few non-Latin-1 characters the rows themselves
// write (→ — …) are stored as control characters, so a chunk stays a one-byte string.
// A search lower-cases one chunk at a time and looks for the text in it.
const CHUNK = 1024;
const SHIFT = 10;
/** Never typed into a search box, never in a one-line summary: a hit cannot span two texts. */
const SEP = '\u0000';
/** Distinct recent summaries remembered for sharing. */
const RECENT = 256;
/** The rows' own non-Latin-1 characters and the control characters that stand for them. */
const WIDE = ['→', '—', '…'] as const;
const NARROW = ['\u0001', '\u0002', '\u0003'] as const;
const HAS_NARROW = /[\u0001-\u0003]/;
const HAS_WIDE = /[→—…]/;
/** Bit 31 of a text's start: stored narrowed. */
const NARROWED = 0x80000000;

function narrow(s: string): string {
  return s.replaceAll(WIDE[0], NARROW[0]).replaceAll(WIDE[1], NARROW[1]).replaceAll(WIDE[2], NARROW[2]);
}

function widen(s: string): string {
  return s.replaceAll(NARROW[0], WIDE[0]).replaceAll(NARROW[1], WIDE[1]).replaceAll(NARROW[2], WIDE[2]);
}

class Grow {
  data = new Uint32Array(1024);
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[i] = v;
  }
}

export class SummaryText {
  private readonly chunks: string[] = [];
  /** The texts of the chunk being filled (joined once CHUNK are there). */
  private open: string[] = [];
  /** Per distinct text: start offset in its chunk, and bit 31 set when it is stored narrowed. */
  private readonly textStart = new Grow();
  /** Per row: which distinct text is its summary. */
  private readonly rowText = new Grow();
  private texts = 0;
  private rows = 0;
  private nextStart = 0;
  private readonly recent = new Map<string, number>();

  get length(): number {
    return this.rows;
  }

  push(summary: string): void {
    const clean = summary.includes(SEP) ? summary.replaceAll(SEP, '\uFFFD') : summary;
    const known = this.recent.get(clean);
    if (known !== undefined) {
      this.rowText.set(this.rows++, known);
      return;
    }
    const k = this.texts++;
    // Narrowed only when that cannot be mistaken: a summary with its own \u0001–\u0003 stays as it is.
    const narrowed = HAS_WIDE.test(clean) && !HAS_NARROW.test(clean);
    const text = narrowed ? narrow(clean) : clean;
    if ((k & (CHUNK - 1)) === 0) this.nextStart = 0;
    this.textStart.set(k, this.nextStart | (narrowed ? NARROWED : 0));
    this.nextStart += text.length + 1;
    this.open.push(text);
    if (this.open.length === CHUNK) {
      this.chunks.push(this.open.join(SEP));
      this.open = [];
    }
    this.rowText.set(this.rows++, k);
    this.recent.set(clean, k);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value as string);
  }

  at(i: number): string {
    if (i < 0 || i >= this.rows) return '';
    const k = this.rowText.data[i] as number;
    const stored = this.stored(k);
    return (this.textStart.data[k] as number) & NARROWED ? widen(stored) : stored;
  }

  /** Marks `hits[i] = 1` for every row whose summary contains `needle` (already lower-cased). */
  markContaining(needle: string, hits: Uint8Array): void {
    if (needle === '' || needle.includes(SEP)) return;
    // A needle with \u0001–\u0003 of its own: rare; compare row by row.
    if (HAS_NARROW.test(needle)) {
      for (let i = 0; i < this.rows; i++) if (this.at(i).toLowerCase().includes(needle)) hits[i] = 1;
      return;
    }
    const narrowNeedle = narrow(needle);
    const textHit = new Uint8Array(this.texts);
    const full = this.chunks.length;
    for (let c = 0; c <= full; c++) {
      const base = c << SHIFT;
      const n = Math.min(CHUNK, this.texts - base);
      if (n <= 0) break;
      const raw = c < full ? (this.chunks[c] as string) : this.open.join(SEP);
      const text = raw.toLowerCase();
      if (text.length !== raw.length) {
        // A character whose lower case is longer (İ): offsets no longer line up; text by text here.
        for (let k = base; k < base + n; k++) if (this.textOf(k).toLowerCase().includes(needle)) textHit[k] = 1;
        continue;
      }
      // Narrowed texts hold the narrowed needle, the others the needle itself (the same string
      // when the needle has none of → — …).
      for (const probe of narrowNeedle === needle ? [needle] : [needle, narrowNeedle]) {
        let from = 0;
        for (let at = text.indexOf(probe, from); at >= 0; at = text.indexOf(probe, from)) {
          const k = this.textAt(base, n, at);
          const narrowed = ((this.textStart.data[k] as number) & NARROWED) !== 0;
          if (narrowNeedle === needle || narrowed === (probe === narrowNeedle)) textHit[k] = 1;
          if (k + 1 - base >= n) break;
          from = this.startOf(k + 1); // the rest of this text cannot add anything
        }
      }
    }
    const rowText = this.rowText.data;
    for (let i = 0; i < this.rows; i++) if (textHit[rowText[i] as number] === 1) hits[i] = 1;
  }

  /** Bytes of the offsets (typed arrays, outside the JS heap's count; the text is in it). */
  get arrayBytes(): number {
    return this.textStart.data.byteLength + this.rowText.data.byteLength;
  }

  private startOf(k: number): number {
    return (this.textStart.data[k] as number) & ~NARROWED;
  }

  /** Distinct text k as stored (narrowed or not). */
  private stored(k: number): string {
    const c = k >> SHIFT;
    if (c >= this.chunks.length) return this.open[k & (CHUNK - 1)] ?? '';
    const chunk = this.chunks[c] as string;
    const end = (k & (CHUNK - 1)) === CHUNK - 1 ? chunk.length : this.startOf(k + 1) - 1;
    return chunk.slice(this.startOf(k), end);
  }

  private textOf(k: number): string {
    return (this.textStart.data[k] as number) & NARROWED ? widen(this.stored(k)) : this.stored(k);
  }

  /** The text (in the chunk starting at text `base`, of `n` texts) whose characters hold offset `at`. */
  private textAt(base: number, n: number, at: number): number {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.startOf(base + mid) <= at) lo = mid;
      else hi = mid - 1;
    }
    return base + lo;
  }
}
