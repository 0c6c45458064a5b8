// The model's deltas arrive token by token; the extension needs a few updates a second, not one per
// token. Collects the deltas of one run and hands them on at most once per interval (and at once
// when a new turn starts). What is left goes out just before the turn's `model` event (which then
// replaces it), never after.
import type { StreamDelta } from '../host';

export interface StreamBatch {
  turn: number;
  text: string;
  thinking: string;
}

export const STREAM_INTERVAL_MS = 100;

export class StreamThrottle {
  private batch: StreamBatch | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: (batch: StreamBatch) => void,
    private readonly intervalMs = STREAM_INTERVAL_MS,
  ) {}

  add(d: StreamDelta): void {
    if (this.batch && this.batch.turn !== d.turn) this.flush();
    this.batch ??= { turn: d.turn, text: '', thinking: '' };
    if (d.kind === 'text') this.batch.text += d.text;
    else this.batch.thinking += d.text;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Sends what has gathered now. */
  flush(): void {
    this.cancelTimer();
    const b = this.batch;
    this.batch = null;
    if (b && (b.text || b.thinking)) this.send(b);
  }

  /** Forgets what has gathered (the reply is complete and logged, or the run ended). */
  drop(): void {
    this.cancelTimer();
    this.batch = null;
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
