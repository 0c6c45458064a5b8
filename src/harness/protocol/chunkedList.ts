// A list whose copies share storage: items live in fixed-size chunks, a copy shares every chunk,
// and a write copies only the chunk it touches (copy on write). Copying costs O(length / CHUNK)
// pointers, not O(length): the debugger keeps a snapshot of the reducer's state every few hundred
// events of a million-event run, and each snapshot would otherwise copy the whole run (issue 17).
// Items are shared between copies: nothing may mutate an item in place (replace it with set).
export const CHUNK = 256;

export class ChunkedList<T> {
  private chunks: T[][] = [];
  /** Chunks this copy made itself and may write in place; every other chunk is shared. */
  private own = new Set<T[]>();
  private size = 0;

  get length(): number {
    return this.size;
  }

  at(i: number): T {
    return this.chunks[Math.floor(i / CHUNK)][i % CHUNK];
  }

  push(item: T): void {
    const k = Math.floor(this.size / CHUNK);
    if (k === this.chunks.length) {
      const fresh: T[] = [];
      this.chunks.push(fresh);
      this.own.add(fresh);
    }
    this.writable(k)[this.size % CHUNK] = item;
    this.size++;
  }

  set(i: number, item: T): void {
    if (i < 0 || i >= this.size) throw new RangeError(`index ${i} outside the list (length ${this.size})`);
    this.writable(Math.floor(i / CHUNK))[i % CHUNK] = item;
  }

  /** An independent copy; from now on both copy a chunk before writing to it. */
  copy(): ChunkedList<T> {
    const c = new ChunkedList<T>();
    c.chunks = this.chunks.slice();
    c.size = this.size;
    this.own = new Set();
    return c;
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.at(i));
    return out;
  }

  static from<T>(items: readonly T[]): ChunkedList<T> {
    const l = new ChunkedList<T>();
    for (const x of items) l.push(x);
    return l;
  }

  private writable(k: number): T[] {
    let ch = this.chunks[k];
    if (!this.own.has(ch)) {
      ch = ch.slice();
      this.chunks[k] = ch;
      this.own.add(ch);
    }
    return ch;
  }
}
