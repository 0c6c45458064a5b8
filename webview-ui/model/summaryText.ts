// Every row's one-line summary, kept as a few large strings: CHUNK summaries joined by a
// separator into one string, with each row's start offset in a typed array. A million separate
// strings would cost a header each (and GC work); a chunk costs one. A search lower-cases one
// chunk at a time and looks for the text in it, instead of once per row.
const CHUNK = 1024;
const SHIFT = 10;
/** Never typed into a search box, never in a one-line summary: a hit cannot span two rows. */
const SEP = '\u0000';

export class SummaryText {
  private readonly chunks: string[] = [];
  /** The summaries of the chunk being filled (joined once CHUNK are there). */
  private open: string[] = [];
  private starts = new Uint32Array(CHUNK);
  private count = 0;
  private chars = 0;

  get length(): number {
    return this.count;
  }

  push(summary: string): void {
    const text = summary.includes(SEP) ? summary.replaceAll(SEP, '\uFFFD') : summary;
    const i = this.count++;
    if (i >= this.starts.length) {
      const bigger = new Uint32Array(this.starts.length * 2);
      bigger.set(this.starts);
      this.starts = bigger;
    }
    const inChunk = i & (CHUNK - 1);
    this.starts[i] = inChunk === 0 ? 0 : (this.starts[i - 1] as number) + (this.open[inChunk - 1] as string).length + 1;
    this.open.push(text);
    this.chars += text.length + 1;
    if (this.open.length === CHUNK) {
      this.chunks.push(this.open.join(SEP));
      this.open = [];
    }
  }

  at(i: number): string {
    if (i < 0 || i >= this.count) return '';
    const c = i >> SHIFT;
    if (c >= this.chunks.length) return this.open[i & (CHUNK - 1)] ?? '';
    const chunk = this.chunks[c] as string;
    const start = this.starts[i] as number;
    const end = (i & (CHUNK - 1)) === CHUNK - 1 ? chunk.length : (this.starts[i + 1] as number) - 1;
    return chunk.slice(start, end);
  }

  /** Marks `hits[i] = 1` for every row whose summary contains `needle` (already lower-cased). */
  markContaining(needle: string, hits: Uint8Array): void {
    if (needle === '' || needle.includes(SEP)) return;
    const full = this.chunks.length;
    for (let c = 0; c <= full; c++) {
      const base = c << SHIFT;
      const raw = c < full ? (this.chunks[c] as string) : this.open.join(SEP);
      const text = raw.toLowerCase();
      const n = Math.min(CHUNK, this.count - base);
      if (text.length !== raw.length) {
        // A character whose lower case is longer (İ): offsets no longer line up; row by row here.
        for (let r = base; r < base + n; r++) if (this.at(r).toLowerCase().includes(needle)) hits[r] = 1;
        continue;
      }
      let from = 0;
      for (let at = text.indexOf(needle, from); at >= 0; at = text.indexOf(needle, from)) {
        const row = this.rowAt(base, n, at);
        hits[row] = 1;
        // The rest of this row cannot add anything: go on from the next row's start.
        if (row + 1 - base >= n) break;
        from = this.starts[row + 1] as number;
      }
    }
  }

  /** Bytes held, at most: the chunks (one or two bytes per character) and the offsets. */
  get bytes(): number {
    return this.chars * 2 + this.starts.byteLength;
  }

  /** The row (in the chunk starting at row `base`, of `n` rows) whose text holds offset `at`. */
  private rowAt(base: number, n: number, at: number): number {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[base + mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return base + lo;
  }
}
