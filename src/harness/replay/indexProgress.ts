// How far the index of a replayed log has got (issue 17): a big log is indexed in chunks after
// the first stop, so a request about a position not indexed yet waits for it — never an answer
// computed from part of the log. A log read whole is indexed from the start (COMPLETE).

export interface IndexProgress {
  /** Events indexed so far. */
  readonly count: number;
  /** The whole file has been read (or indexing failed: then `until` rejects). */
  readonly complete: boolean;
  /** Resolves once `ready()` holds or the whole log is indexed, re-checked after every chunk; rejects when indexing failed. */
  until(ready: () => boolean): Promise<void>;
}

export const COMPLETE: IndexProgress = { count: Number.POSITIVE_INFINITY, complete: true, until: () => Promise.resolve() };

/** Waiters of an IndexProgress, re-checked as it advances. */
export class Waiters {
  private list: { ready: () => boolean; resolve: () => void; reject: (e: unknown) => void }[] = [];

  add(ready: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => this.list.push({ ready, resolve, reject }));
  }

  /** After a chunk: resolve the waiters whose condition now holds (all of them when `done`). */
  check(done: boolean): void {
    if (!this.list.length) return;
    const keep: typeof this.list = [];
    for (const w of this.list) {
      if (done || w.ready()) w.resolve();
      else keep.push(w);
    }
    this.list = keep;
  }

  fail(e: unknown): void {
    for (const w of this.list) w.reject(e);
    this.list = [];
  }
}
