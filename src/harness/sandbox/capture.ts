// Keeps the head and the tail of a stream within a byte cap, counting what fell in between, so a
// command that prints gigabytes cannot exhaust memory and the model still sees both ends.

export class CappedCapture {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;
  private newlines = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) this.newlines++;
    const headCap = Math.floor(this.cap / 2);
    if (this.headBytes < headCap) {
      const take = Math.min(headCap - this.headBytes, chunk.length);
      this.head.push(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailCap = this.cap - headCap;
    // Drop whole chunks from the front of the tail while the rest still fills the cap.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= tailCap) {
      this.tailBytes -= this.tail[0].length;
      this.tail.shift();
    }
  }

  /** Total bytes seen. */
  get bytes(): number {
    return this.total;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const tailCap = this.cap - Math.floor(this.cap / 2);
    if (tail.length > tailCap) tail = tail.subarray(tail.length - tailCap);
    const cut = this.total - head.length - tail.length;
    if (cut <= 0) return Buffer.concat([head, tail]).toString('utf8');
    const nl = (b: Buffer): number => b.reduce((n, c) => n + (c === 10 ? 1 : 0), 0);
    const lines = this.newlines - nl(head) - nl(tail);
    const marker = `\n[… ${cut} bytes cut (about ${lines} lines) …]\n`;
    return head.toString('utf8') + marker + tail.toString('utf8');
  }
}
