// Typed arrays filled one element at a time when the final length is not known yet (a log index
// built while the file streams by): doubling capacity, trimmed once at the end. Read through
// `view` while it grows (the debugger answers requests while a big log is still being indexed).
type TypedArray = Float64Array | Int32Array | Uint8Array;


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

  /** Drop the spare capacity once nothing more is pushed (view is then exactly length long). */
  trim(): void {
    if (this.data.length !== this.length) this.data = this.data.slice(0, this.length) as T;
  }

  /** The filled part (a copy, so the spare capacity is freed). */
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

export const f64 = (): Grow<Float64Array> => new Grow((n) => new Float64Array(n));
export const i32 = (): Grow<Int32Array> => new Grow((n) => new Int32Array(n));
export const u8 = (): Grow<Uint8Array> => new Grow((n) => new Uint8Array(n));
