// One copy of each short string that repeats across rows (kinds, tool names, titles, statuses):
// a message from the extension arrives as fresh copies of every string, a million rows would
// keep a million copies of "tool". Bounded, so unique strings ("Turn 81234") cannot grow it forever.
const MAX_LENGTH = 48;
const MAX_ENTRIES = 4096;

export class StringPool {
  private readonly pool = new Map<string, string>();

  intern<S extends string>(s: S): S {
    if (s.length > MAX_LENGTH) return s;
    const known = this.pool.get(s);
    if (known !== undefined) return known as S;
    if (this.pool.size < MAX_ENTRIES) this.pool.set(s, s);
    return s;
  }
}
