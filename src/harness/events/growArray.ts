// Typed arrays filled one element at a time when the final length is not known yet (a log index
// built while the file streams by): doubling capacity, trimmed once at the end. Read through
// `view` while it grows (the debugger answers requests while a big log is still being indexed).
export type TypedArray = Float64Array | Int32Array | Uint8Array;

export class Grow<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(private readonly make: (n: number) => T) {
    this.data = make(1024);
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  /** Room for `n` elements without growing (one copy now instead of doublings later). */
  reserve(n: number): void {
    if (n <= this.data.length) return;
    const bigger = this.make(n);
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  get(i: number): number {
    return this.data[i];
  }

  set(i: number, v: number): void {
    this.data[i] = v;
  }

  /** The backing array: valid for 0 <= i < length (a live index reads it while it grows). */
  get view(): T {
    return this.data;
  }

  /** Drop the spare capacity once nothing more is pushed (view is then exactly length long). A
   *  copy only when over a quarter of it is spare, else a view of the filled part: copying every
   *  table of a 1M-event index at once held the event loop ~60 ms, plus the collection after. */
  trim(): void {
    if (this.data.length === this.length) return;
    const spare = this.data.length - this.length;
    this.data = (spare > this.length >> 2 ? this.data.slice(0, this.length) : this.data.subarray(0, this.length)) as T;
  }
}

export const f64 = (): Grow<Float64Array> => new Grow((n) => new Float64Array(n));
export const i32 = (): Grow<Int32Array> => new Grow((n) => new Int32Array(n));
export const u8 = (): Grow<Uint8Array> => new Grow((n) => new Uint8Array(n));

/** Trims each array in its own task (a big index's tables, once indexed, without holding the loop). */
export async function trimEach(arrays: Iterable<Grow<TypedArray>>): Promise<void> {
  for (const a of arrays) {
    a.trim();
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** The shortest event line there can be (`{"kind":"x","t":0}` and its line break): no log of n bytes
 *  holds more than n / MIN_LINE_BYTES events, whatever its first lines suggest. */
const MIN_LINE_BYTES = 20;

/** Reserved at most (16M events, ~16 times the biggest log): past it the tables grow by
 *  doubling as before. A crafted log of huge size (a sparse file) must not ask for tables no
 *  allocator gives, failing the open of a log that would otherwise read. */
const MAX_RESERVED_EVENTS = 1 << 24;

/**
 * How many events a log of `fileBytes` holds, judged from the first `readBytes` holding `events`
 * (a tenth more for the rest; the spare is trimmed at the end), at most one per MIN_LINE_BYTES:
 * first lines much shorter than the rest must not reserve gigabytes.
 */
export function expectedEvents(fileBytes: number, readBytes: number, events: number): number {
  return Math.min(Math.ceil((fileBytes / readBytes) * events * 1.1), Math.ceil(fileBytes / MIN_LINE_BYTES), MAX_RESERVED_EVENTS);
}
